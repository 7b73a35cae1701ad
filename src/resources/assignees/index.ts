export { presentAssignee, presentAssigneesRelation } from './present.ts'
export { addAssignees, assignCreator, removeAllAssignees, removeAssignee, replaceAssignees, type Assignable } from './service.ts'
