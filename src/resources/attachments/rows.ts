import type { AttachmentJson } from '../../contracts/generated.ts'

/** Virus scan states (docs/specification-notes.md "Attachments and files"): pending until the scan, scheduled on the mock's clock, completes. */
export type AvStatus = AttachmentJson['av_status']

/** An uploaded binary of the team. Its bytes live in the blob store (src/store/blobs.ts). */
export interface AttachmentRow {
  id: number
  /** The generated stored name, e.g. 4f0c...e1.pdf. */
  name: string
  /** The uploaded file name. */
  original: string
  /** MIME type, decided from the content. */
  type: string
  size: number
  av_status: AvStatus
  /** Where the bytes are: a blob key of the blob store ('upload:<name>' or 'sample:<file>'). */
  blob: string
  /**
   * The user who uploaded it through POST /attachments; absent for what the seed, the team's
   * library or a client's upload made (no team member's own).
   */
  uploaded_by?: number
  /** Set when the attachment was redacted (its bytes are the generic redaction image since). */
  redacted_at: string | null
  created_at: string
  updated_at: string
}
