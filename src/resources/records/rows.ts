import type { CheckJson, CheckResponsePhotoIdJson, StepReviewStatusJson, StepTypeJson } from '../../contracts/generated.ts'
import type { NameRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** What a check returns (src/lifecycle/outcomes.ts): forced per step, by a magic value, or clear. */
export type Outcome = 'clear' | 'consider' | 'rejected' | 'refer' | 'failed' | 'paused'

export type CheckStatus = CheckJson['status']

export type ReviewStatus = StepReviewStatusJson

/** One step of a record, stored inside it (a record has a handful). */
export interface StepRow {
  id: number
  type: StepTypeJson
  /** As returned: the given preferences completed with their defaults (src/resources/steps). */
  preferences: Record<string, unknown>
  cost: number
  /** When the client completed the step (a check step: submitted it). */
  completed_at: string | null
  /** check.* steps: the check's id. */
  check: number | null
  /** document.* steps: the record document's id. */
  document: number | null
  /** form steps: the reference of the client's form. */
  form: string | null
  /** The latest review's id, null when never reviewed. */
  review: number | null
}

/** A request issued to a client. Its status is derived (status.ts), never stored. */
export interface RecordRow {
  id: number
  client: number
  created_by: number | null
  /** Snapshots of the client's at creation (docs/specification-notes.md "Records and steps"). */
  email: string
  name: NameRow
  reference: string | null
  template: number | null
  notification: 'email' | false
  message: string | null
  has_reminders: boolean
  is_declaration_required: boolean
  steps: StepRow[]
  assignees: AssigneeRow[]
  /** The secret part of perform_url. */
  perform_token: string
  /** Set by PATCH is_reviewed: true; the record's status is then reviewed. */
  reviewed_at: string | null
  /** Emails the mock would have sent the client (none is sent): the new-request notification and reminders. */
  emails: Array<{ kind: 'new_request' | 'reminder'; sent_at: string }>
  created_at: string
  updated_at: string
  expired_at: string
  archived_at: string | null
  declaration_confirmed_at: string | null
  /** When record.finished was published (complete or expired), so it is published once. */
  finished_at: string | null
}

/** A check run by a check.* step. */
export interface CheckRow {
  id: number
  record: number
  step: number
  /** The step type without check. */
  type: string
  status: CheckStatus
  /** Forced for this check by the control API, else decided when it is submitted. */
  outcome: Outcome | null
  /** What the check response (expand=response) is made from; null until there is one. */
  response: CheckResponseRecipe | null
  allow_replay: boolean
  allow_cancel: boolean
  requires_consent: boolean
  submitted_at: string | null
  /** check.photo_id: what the client showed on the perform page (absent when the control API completed the step). */
  capture?: PhotoIdCapture
  created_at: string
  updated_at: string
}

/**
 * What a check keeps of its response instead of the response (a photo ID's is about 2 KB, and a
 * large team has hundreds of thousands): the response is made again from it, the same each time,
 * when it is read (lifecycle/responses.ts responseOf), with the record's name and email and the
 * step's preferences, which do not change.
 */
export interface CheckResponseRecipe {
  /** When the result came back: the response's dates count from it. */
  at: string
  /** Seeds the response's random draws (document numbers, scores, uuids). */
  seed: number
  /** The client's date of birth when the result came back (null: derived from the name). */
  dob: string | null
  /** check.photo_id: the images, as presented when the result came back (their attachments and files were made then). */
  media?: NonNullable<CheckResponsePhotoIdJson['media']>
}

/** The document a client showed for a photo ID check, and the images they gave (attachment ids; null: none given). */
export interface PhotoIdCapture {
  document_type: 'passport' | 'driving_licence' | 'national_id'
  /** The front of the document. */
  document: number | null
  /** A photo of the client's face, when the step asks for one. */
  face: number | null
}

export interface StepReviewRow {
  id: number
  record: number
  step: number
  reviewed_by: number
  status: ReviewStatus
  from_status: ReviewStatus
  message: string | null
  created_at: string
  updated_at: string
}

/** A document of a record: requested from, sent to, or returned by the client. */
export interface RecordDocumentRow {
  id: number
  record: number
  type: 'requested' | 'sent' | 'returned'
  name: string
  status: 'pending' | 'complete'
  config:
    | null
    | { instructions: string }
    | { require_return: boolean; require_confirmation: boolean; instructions: string | null; return_message: string | null }
  source: { type: 'record' | 'record_document'; id: number }
  /** Attachment ids (attachments come with their own resource). */
  attachments: number[]
  created_at: string
  updated_at: string
  completed_at: string | null
}

/** A name correction a client proposed while completing a record. */
export interface CorrectionRow {
  id: number
  client: number
  record: number
  status: 'pending' | 'accepted' | 'rejected'
  correction: { first_name: string; middle_name: string | null; last_name: string }
  created_at: string
  updated_at: string
}

/** A record template of the team's library (GET /templates/records). */
export interface RecordTemplateRow {
  id: number
  name: string
  description: string
  steps: Array<{ type: StepTypeJson; preferences: Record<string, unknown> }>
  notification: 'email' | false
  message: string | null
  reminder: boolean
  is_declaration_required: boolean
  /** User ids assigned to records made from it. */
  assignees: number[]
  is_enabled: boolean
  created_at: string
  updated_at: string
}
