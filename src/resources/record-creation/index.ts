export { createRecord } from './service.ts'
