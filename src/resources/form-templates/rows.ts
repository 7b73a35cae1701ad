import type { FormTemplateJson } from '../../contracts/generated.ts'

/** A form template of the team's library, addressed by reference (a uuid). */
export interface FormTemplateRow {
  id: number
  reference: string
  name: string
  description: string | null
  instructions: FormTemplateJson['instructions']
  /** As stored and returned: fields held by no section already dropped. */
  fields: FormTemplateJson['fields']
  version: number
  is_enabled: boolean
  created_at: string
  updated_at: string
  archived_at: string | null
}
