export { presentAssigneesRelation } from './present.ts'
export { assignCreator } from './service.ts'
