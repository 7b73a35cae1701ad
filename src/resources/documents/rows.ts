/** A document of the team's library (GET /documents); a document.transfer may send it. */
export interface LibraryDocumentRow {
  id: number
  name: string
  description: string
  is_enabled: boolean
  attachment: number
  created_at: string
  updated_at: string
}

/** An email template of the team's library (GET /templates/emails). */
export interface EmailTemplateRow {
  id: number
  name: string
  description: string
  content: string
  is_enabled: boolean
  created_at: string
  updated_at: string
}

/** A document request template (GET /templates/documents): a document.request step or a client document names it. */
export interface DocumentTemplateRow {
  id: number
  name: string
  description: string
  /** The instructions given to the client. */
  content: string
  is_enabled: boolean
  created_at: string
  updated_at: string
}
