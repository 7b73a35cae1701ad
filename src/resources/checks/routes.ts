import type { AppRoutes } from '../../context.ts'
import { presentCheck } from './present.ts'
import { findCheck } from './service.ts'

export function checksRoutes(routes: AppRoutes): void {
  routes.handle('checks.get', { find: findCheck }, ({ ctx, found, expand, baseUrl }) => presentCheck(ctx, found, expand, baseUrl))
}
