import type { AppRoutes } from '../../context.ts'
import { presentRecord } from '../records/index.ts'
import { createRecord } from './service.ts'

export function recordCreationRoutes(routes: AppRoutes): void {
  routes.handle('records.create', ({ ctx, body, expand, baseUrl }) => presentRecord(ctx, createRecord(ctx, body), expand, baseUrl))
}
