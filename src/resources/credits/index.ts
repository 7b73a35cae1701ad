export type { CreditRow } from './rows.ts'
export { creditTables } from './tables.ts'
