import type { AppRoutes } from '../../context.ts'
import { noContent } from '../../kernel/respond.ts'

export function statusRoutes(routes: AppRoutes): void {
  // Reaching the handler means the token was valid (spec, Authentication rule 6).
  routes.handle('status.get', (c) => noContent(c))
}
