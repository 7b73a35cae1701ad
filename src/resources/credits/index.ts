export { creditTables } from './tables.ts'
