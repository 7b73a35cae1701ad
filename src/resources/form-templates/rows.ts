import type { FormTemplateFieldJson, RichTextJson } from '../../contracts/generated.ts'

/** A builder field as stored and returned (contracts/schemas/form-template-field.json). */
export type TemplateField = FormTemplateFieldJson

/** A form template of the team's library, addressed by reference (a uuid). */
export interface FormTemplateRow {
  id: number
  reference: string
  name: string
  description: string | null
  instructions: RichTextJson | null
  /** As stored and returned: fields held by no section already dropped. */
  fields: TemplateField[]
  version: number
  is_enabled: boolean
  created_at: string
  updated_at: string
  archived_at: string | null
}
