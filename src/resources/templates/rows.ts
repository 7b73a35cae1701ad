import type { StepTypeJson } from '../../contracts/generated.ts'
import type { Frozen } from '../../kernel/frozen.ts'

/** A record template of the team's library (GET /templates/records). */
export interface RecordTemplateRow {
  readonly id: number
  readonly name: string
  readonly description: string
  readonly steps: Frozen<Array<{ type: StepTypeJson; preferences: Record<string, unknown> }>>
  readonly notification: 'email' | false
  readonly message: string | null
  readonly reminder: boolean
  readonly is_declaration_required: boolean
  /** User ids assigned to records made from it. */
  readonly assignees: readonly number[]
  readonly is_enabled: boolean
  readonly created_at: string
  readonly updated_at: string
}
