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

/**
 * A template of the team's library: an email template (GET /templates/emails), or a document
 * request template (GET /templates/documents) whose content is the instructions given to the
 * client when a document.request step or a client document names it.
 */
export interface LibraryTemplateRow {
  id: number
  name: string
  description: string
  content: string
  is_enabled: boolean
  created_at: string
  updated_at: string
}

export type EmailTemplateRow = LibraryTemplateRow
export type DocumentTemplateRow = LibraryTemplateRow
