export { presentDocumentTemplate, presentEmailTemplate, presentLibraryDocument } from './present.ts'
export type { DocumentTemplateRow, EmailTemplateRow, LibraryDocumentRow } from './rows.ts'
export { documentTemplates, emailTemplates, libraryDocuments } from './service.ts'
export { documentTables } from './tables.ts'
