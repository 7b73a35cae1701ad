import type { AppRoutes } from '../../context.ts'
import { presentRecord } from '../records/index.ts'
import { createRecord, recordCreateErrors } from './service.ts'

export function recordCreationRoutes(routes: AppRoutes): void {
  routes.handle('records.create', { rules: ({ ctx, body, passed }) => recordCreateErrors(ctx, body, passed) }, ({ ctx, body, expand, baseUrl }) => presentRecord(ctx, createRecord(ctx, body), expand, baseUrl))
}
