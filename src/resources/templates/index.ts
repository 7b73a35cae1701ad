export type { RecordTemplateRow } from './rows.ts'
export { recordTemplateTables } from './tables.ts'
