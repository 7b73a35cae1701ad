import type { Frozen } from '../../kernel/frozen.ts'
import type { FormTemplateFieldJson, RichTextJson } from '../../contracts/generated.ts'

/** A builder field as stored and returned (contracts/schemas/form-template-field.json). */
export type TemplateField = Frozen<FormTemplateFieldJson>

/** A form template of the team's library, addressed by reference (a uuid). */
export interface FormTemplateRow {
  readonly id: number
  readonly reference: string
  readonly name: string
  readonly description: string | null
  readonly instructions: Frozen<RichTextJson | null>
  /** As stored and returned: fields held by no section already dropped. */
  readonly fields: readonly TemplateField[]
  readonly version: number
  readonly is_enabled: boolean
  readonly created_at: string
  readonly updated_at: string
  readonly archived_at: string | null
}
