import type { FormTemplateJson } from '../../contracts/generated.ts'
import type { FormTemplateRow } from './rows.ts'
import { onTheWire } from '../../kernel/frozen.ts'

export function presentFormTemplate(template: FormTemplateRow): FormTemplateJson {
  return {
    object: 'form_template',
    id: template.id,
    reference: template.reference,
    name: template.name,
    description: template.description,
    instructions: onTheWire<FormTemplateJson['instructions']>(template.instructions),
    // A stored template holds at least its first section.
    fields: onTheWire<FormTemplateJson['fields']>(template.fields),
    version: template.version,
    is_enabled: template.is_enabled,
    created_at: template.created_at,
    updated_at: template.updated_at,
    archived_at: template.archived_at,
  }
}
