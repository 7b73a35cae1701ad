export { presentRecordDocument } from './present.ts'
export { completeRecordDocument, createRecordDocuments, documentsOf } from './service.ts'
