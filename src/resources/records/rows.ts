import type { Frozen } from '../../kernel/frozen.ts'
import type { CheckJson, CheckResponsePhotoIdJson, StepReviewStatusJson, StepTypeJson } from '../../contracts/generated.ts'
import type { NameRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** What a check returns (src/lifecycle/outcomes.ts): forced per step, by a magic value, or clear. */
export type Outcome = 'clear' | 'consider' | 'rejected' | 'refer' | 'failed' | 'paused'

export type CheckStatus = CheckJson['status']

export type ReviewStatus = StepReviewStatusJson

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

/** A check run by a check.* step. */
export interface CheckRow {
  readonly id: number
  readonly record: number
  readonly step: number
  /** The step type without check. */
  readonly type: string
  readonly status: CheckStatus
  /** Forced for this check by the control API, else decided when it is submitted. */
  readonly outcome: Outcome | null
  /** What the check response (expand=response) is made from; null until there is one. */
  readonly response: Frozen<CheckResponseRecipe | null>
  readonly allow_replay: boolean
  readonly allow_cancel: boolean
  readonly requires_consent: boolean
  readonly submitted_at: string | null
  /** check.photo_id: what the client showed on the perform page (absent when the control API completed the step). */
  readonly capture?: Frozen<PhotoIdCapture>
  readonly created_at: string
  readonly updated_at: string
}

/**
 * What a check keeps of its response instead of the response (a photo ID's is about 2 KB, and a
 * large team has hundreds of thousands): the response is made again from it, the same each time,
 * when it is read (lifecycle/responses.ts responseOf), with the record's name and email and the
 * step's preferences, which do not change.
 */
export interface CheckResponseRecipe {
  /** When the result came back: the response's dates count from it. */
  readonly at: string
  /** Seeds the response's random draws (document numbers, scores, uuids). */
  readonly seed: number
  /** The client's date of birth when the result came back (null: derived from the name). */
  readonly dob: string | null
  /** check.photo_id: the images, as presented when the result came back (their attachments and files were made then). */
  readonly media?: Frozen<NonNullable<CheckResponsePhotoIdJson['media']>>
}

/** The document a client showed for a photo ID check, and the images they gave (attachment ids; null: none given). */
export interface PhotoIdCapture {
  readonly document_type: 'passport' | 'driving_licence' | 'national_id'
  /** The front of the document. */
  readonly document: number | null
  /** A photo of the client's face, when the step asks for one. */
  readonly face: number | null
}

export interface StepReviewRow {
  readonly id: number
  readonly record: number
  readonly step: number
  readonly reviewed_by: number
  readonly status: ReviewStatus
  readonly from_status: ReviewStatus
  readonly message: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A document of a record: requested from, sent to, or returned by the client. */
export interface RecordDocumentRow {
  readonly id: number
  readonly record: number
  readonly type: 'requested' | 'sent' | 'returned'
  readonly name: string
  readonly status: 'pending' | 'complete'
  readonly config: Frozen<
    | null
    | { instructions: string }
    | { require_return: boolean; require_confirmation: boolean; instructions: string | null; return_message: string | null }
  >
  readonly source: Frozen<{ type: 'record' | 'record_document'; id: number }>
  /** Attachment ids (attachments come with their own resource). */
  readonly attachments: readonly number[]
  readonly created_at: string
  readonly updated_at: string
  readonly completed_at: string | null
}

/** A name correction a client proposed while completing a record. */
export interface CorrectionRow {
  readonly id: number
  readonly client: number
  readonly record: number
  readonly status: 'pending' | 'accepted' | 'rejected'
  readonly correction: Frozen<{ first_name: string; middle_name: string | null; last_name: string }>
  readonly created_at: string
  readonly updated_at: string
}

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
