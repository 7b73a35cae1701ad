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
  id: number
  client: number
  /** internal: the team's own; sent: sent to the client; received: from the client. */
  type: 'internal' | 'sent' | 'received'
  source: { type: FileSourceType; id: number }
  /** For the source_type filter; null when the source has no finer kind (client, forms). */
  source_subtype: FileSourceSubtype | null
  name: string
  attachment: number
  created_by: { type: 'team_member' | 'client'; id: number }
  is_deletable: boolean
  expires_at: string | null
  created_at: string
  updated_at: string
}

/** A requested client document (the template form of POST /clients/{id}/files, docs/specification-notes.md "Clients"). */
export interface ClientDocumentRow {
  id: number
  client: number
  /** The document template it was made from. */
  template: number
  name: string
  config: { instructions: string }
  created_at: string
  updated_at: string
}
