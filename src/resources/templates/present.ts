import type { RecordTemplateJson } from '../../contracts/generated.ts'
import type { RecordTemplateRow } from './rows.ts'

/** A template always has a step, and assignees only when it has some. */
type Presets = RecordTemplateJson['presets']

/** A record template as the library lists it; presets.assignees is left out when it has none (docs/specification-notes.md "Library templates"). */
export function presentRecordTemplate(template: RecordTemplateRow): RecordTemplateJson {
  return {
    object: 'record_template' as const,
    id: template.id,
    name: template.name,
    description: template.description,
    presets: {
      steps: template.steps.map((step) => ({ object: 'preset_step' as const, type: step.type, preferences: step.preferences })) as Presets['steps'],
      notification: template.notification,
      message: template.message,
      reminder: template.reminder,
      is_declaration_required: template.is_declaration_required,
      ...(template.assignees.length > 0 && { assignees: template.assignees as Presets['assignees'] }),
    },
    is_enabled: template.is_enabled,
    created_at: template.created_at,
    updated_at: template.updated_at,
  }
}
