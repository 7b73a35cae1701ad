export { presentAssigneesRelation } from './present.ts'
export { assigneesListRoute, assigneesRoutes } from './routes.ts'
export { assignCreator } from './service.ts'
export type { AssigneeRow } from './rows.ts'
