export { createRecord, creditBalance } from './service.ts'
