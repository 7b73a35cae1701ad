import type { CheckJson, CheckResponsePhotoIdJson } from '../../contracts/generated.ts'
import type { Frozen } from '../../kernel/frozen.ts'

/** What a check returns (src/lifecycle/outcomes.ts): forced per step, by a magic value, or clear. */
export type Outcome = 'clear' | 'consider' | 'rejected' | 'refer' | 'failed' | 'paused'

export type CheckStatus = CheckJson['status']

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
 * when it is read (checks/responses.ts responseOf), with the record's name and email and the
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
