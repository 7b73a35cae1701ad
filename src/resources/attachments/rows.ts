import type { AttachmentJson } from '../../contracts/generated.ts'

/** Virus scan states (docs/specification-notes.md "Attachments and files"): pending until the scan, scheduled on the mock's clock, completes. */
export type AvStatus = AttachmentJson['av_status']

/** An uploaded binary of the team. Its bytes live in the blob store (src/store/blobs.ts). */
export interface AttachmentRow {
  readonly id: number
  /** The generated stored name, e.g. 4f0c...e1.pdf. */
  readonly name: string
  /** The uploaded file name. */
  readonly original: string
  /** MIME type, decided from the content. */
  readonly type: string
  readonly size: number
  readonly av_status: AvStatus
  /** Where the bytes are: a blob key of the blob store ('upload:<name>' or 'sample:<file>'). */
  readonly blob: string
  /**
   * The user who uploaded it through POST /attachments; absent for what the seed, the team's
   * library or a client's upload made (no team member's own).
   */
  readonly uploaded_by?: number
  /** Set when the attachment was redacted (its bytes are the generic redaction image since). */
  readonly redacted_at: string | null
  readonly created_at: string
  readonly updated_at: string
}
