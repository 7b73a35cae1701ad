import type { AppRoutes } from '../../context.ts'
import { createSdkToken } from './service.ts'

export function sdkTokenRoutes(routes: AppRoutes): void {
  // Read-only members get 403 from the gate (a write); the record is checked in the handler, as a 422.
  routes.handle('sdkToken.create', async ({ ctx, body }) => ({ object: 'sdk_token' as const, token: await createSdkToken(ctx, body.record_id) }))
}
