// The pages of the mock, outside /api/v2: the client's perform page (/perform), the team
// dashboard (/_mock/ui) and the API reference (/docs). app.ts wires them; they change state only
// through the services the API uses (the lifecycle engine for the perform page, the API's own
// operations for the dashboard).
import type { Hono } from 'hono'
import { dashboardRoutes, type DashboardOptions } from './dashboard.ts'
import { docsRoutes } from './docs.ts'
import { performRoutes } from './perform.ts'

export { DASHBOARD_BASE, DOCS_BASE, PERFORM_BASE } from './bases.ts'
export type { ApiDispatch } from './api.ts'

export function uiRoutes(app: Hono, options: DashboardOptions): void {
  performRoutes(app, options.services)
  dashboardRoutes(app, options)
  docsRoutes(app)
}
