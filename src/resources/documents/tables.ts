// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { DocumentTemplateRow, EmailTemplateRow, LibraryDocumentRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    library_documents: LibraryDocumentRow[]
    email_templates: EmailTemplateRow[]
    document_templates: DocumentTemplateRow[]
  }
  interface TeamTables {
    libraryDocuments: Table<LibraryDocumentRow>
    emailTemplates: Table<EmailTemplateRow>
    documentTemplates: Table<DocumentTemplateRow>
  }
  interface IdSequences {
    library_document: true
    email_template: true
    document_template: true
  }
}

export const documentTables = declareTables({
  rows: ['library_documents', 'email_templates', 'document_templates'],
  open: (state, team) => ({
    libraryDocuments: new Table(state.library_documents, team.changes),
    emailTemplates: new Table(state.email_templates, team.changes),
    documentTemplates: new Table(state.document_templates, team.changes),
  }),
})
