import type { Frozen } from '../../kernel/frozen.ts'
import type { StepTypeJson } from '../../contracts/generated.ts'
import type { NameRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** One step of a record, stored inside it (a record has a handful). */
export interface StepRow {
  readonly id: number
  readonly type: StepTypeJson
  /** As returned: the given preferences completed with their defaults (src/resources/steps). */
  readonly preferences: Frozen<Record<string, unknown>>
  readonly cost: number
  /** When the client completed the step (a check step: submitted it). */
  readonly completed_at: string | null
  /** check.* steps: the check's id. */
  readonly check: number | null
  /** document.* steps: the record document's id. */
  readonly document: number | null
  /** form steps: the reference of the client's form. */
  readonly form: string | null
  /** The latest review's id, null when never reviewed. */
  readonly review: number | null
}

/** A request issued to a client. Its status is derived (status.ts), never stored. */
export interface RecordRow {
  readonly id: number
  readonly client: number
  readonly created_by: number | null
  /** Snapshots of the client's at creation (docs/specification-notes.md "Records and steps"). */
  readonly email: string
  readonly name: NameRow
  readonly reference: string | null
  readonly template: number | null
  readonly notification: 'email' | false
  readonly message: string | null
  readonly has_reminders: boolean
  readonly is_declaration_required: boolean
  readonly steps: readonly StepRow[]
  readonly assignees: readonly AssigneeRow[]
  /** The secret part of perform_url. */
  readonly perform_token: string
  /** Set by PATCH is_reviewed: true; the record's status is then reviewed. */
  readonly reviewed_at: string | null
  /** Emails the mock would have sent the client (none is sent): the new-request notification and reminders. */
  readonly emails: Frozen<Array<{ kind: 'new_request' | 'reminder'; sent_at: string }>>
  readonly created_at: string
  readonly updated_at: string
  readonly expired_at: string
  readonly archived_at: string | null
  readonly declaration_confirmed_at: string | null
  /** When record.finished was published (complete or expired), so it is published once. */
  readonly finished_at: string | null
}

