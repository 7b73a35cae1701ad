import type { Frozen } from '../../kernel/frozen.ts'

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
