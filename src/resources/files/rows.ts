import type { Frozen } from '../../kernel/frozen.ts'

/** What a file came from (docs/specification-notes.md "Attachments and files": source types). */
export type FileSourceType = 'check' | 'client' | 'client_form' | 'form' | 'client_document' | 'record_document'

/** The source_type filter of GET /clients/{id}/files: a check's type, or a document's kind. */
export type FileSourceSubtype = 'photo_id' | 'reference' | 'banking_information' | 'employment_referencing' | 'requested' | 'sent' | 'returned'

/**
 * A file of a client: an attachment with where it came from. Made when the team uploads one
 * (POST /clients/{id}/files), and whenever an attachment becomes part of a client's records,
 * forms or checks (record documents sent and received, form uploads, photo ID media).
 */
export interface FileRow {
  readonly id: number
  readonly client: number
  /** internal: the team's own; sent: sent to the client; received: from the client. */
  readonly type: 'internal' | 'sent' | 'received'
  readonly source: Frozen<{ type: FileSourceType; id: number }>
  /** For the source_type filter; null when the source has no finer kind (client, forms). */
  readonly source_subtype: FileSourceSubtype | null
  readonly name: string
  readonly attachment: number
  readonly created_by: Frozen<{ type: 'team_member' | 'client'; id: number }>
  readonly is_deletable: boolean
  readonly expires_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A requested client document (the template form of POST /clients/{id}/files, docs/specification-notes.md "Clients"). */
export interface ClientDocumentRow {
  readonly id: number
  readonly client: number
  /** The document template it was made from. */
  readonly template: number
  readonly name: string
  readonly config: Frozen<{ instructions: string }>
  readonly created_at: string
  readonly updated_at: string
}
