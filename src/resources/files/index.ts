export type { FileSourcePresenter, FileSourcePresenters } from './present.ts'
export type { ClientDocumentRow, FileRow, FileSourceSubtype, FileSourceType } from './rows.ts'
export { addFile, type NewFile } from './service.ts'
export { fileTables } from './tables.ts'
