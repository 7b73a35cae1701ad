export { presentRecordDocument, recordDocumentAsFileSource } from './present.ts'
export { completeRecordDocument, createRecordDocuments, documentsOf } from './service.ts'
