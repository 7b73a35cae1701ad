export { presentClientDocument, presentFile } from './present.ts'
export type { ClientDocumentRow, FileRow, FileSourceSubtype, FileSourceType } from './rows.ts'
export { addFile, type NewFile } from './service.ts'
