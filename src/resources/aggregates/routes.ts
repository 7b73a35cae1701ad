import type { AppRoutes } from '../../context.ts'
import { caseStatusCounts, hasCases } from './service.ts'

export function aggregatesRoutes(routes: AppRoutes): void {
  routes.handle('aggregates.caseStatus', { authorize: hasCases }, ({ ctx, query }) => ({
    object: 'case_status_aggregate' as const,
    aggregates: caseStatusCounts(ctx, query),
  }))
}
