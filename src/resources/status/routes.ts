import type { AppRoutes } from '../../context.ts'

export function statusRoutes(routes: AppRoutes): void {
  // Reaching the handler means the token was valid (docs/specification-notes.md "Authentication"): 204.
  routes.handle('status.get', () => undefined)
}
