/** A document of the team's library (GET /documents); a document.transfer may send it. */
export interface LibraryDocumentRow {
  readonly id: number
  readonly name: string
  readonly description: string
  readonly is_enabled: boolean
  readonly attachment: number
  readonly created_at: string
  readonly updated_at: string
}

/**
 * A template of the team's library: an email template (GET /templates/emails), or a document
 * request template (GET /templates/documents) whose content is the instructions given to the
 * client when a document.request step or a client document names it.
 */
export interface LibraryTemplateRow {
  readonly id: number
  readonly name: string
  readonly description: string
  readonly content: string
  readonly is_enabled: boolean
  readonly created_at: string
  readonly updated_at: string
}

export type EmailTemplateRow = LibraryTemplateRow
export type DocumentTemplateRow = LibraryTemplateRow
