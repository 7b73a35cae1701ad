export { presentRecordDocument, recordDocumentAsFileSource } from './present.ts'
export { completeRecordDocument, createRecordDocuments, documentsOf } from './service.ts'
export type { RecordDocumentRow } from './rows.ts'
export { recordDocumentTables } from './tables.ts'
