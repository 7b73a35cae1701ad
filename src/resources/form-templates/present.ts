import type { FormTemplateJson } from '../../contracts/generated.ts'
import type { FormTemplateRow } from './rows.ts'

export function presentFormTemplate(template: FormTemplateRow): FormTemplateJson {
  return {
    object: 'form_template',
    id: template.id,
    reference: template.reference,
    name: template.name,
    description: template.description,
    instructions: template.instructions,
    // A stored template holds at least its first section.
    fields: template.fields as FormTemplateJson['fields'],
    version: template.version,
    is_enabled: template.is_enabled,
    created_at: template.created_at,
    updated_at: template.updated_at,
    archived_at: template.archived_at,
  }
}
