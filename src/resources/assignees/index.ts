export { presentAssigneesRelation } from './present.ts'
export { assignCreator } from './service.ts'
export type { AssigneeRow } from './rows.ts'
