export { presentAssigneesRelation } from './present.ts'
export { assigneesListRoute, assigneesRoutes } from './routes.ts'
export { assignCreator, assignedUsers } from './service.ts'
export type { AssigneeRow } from './rows.ts'
