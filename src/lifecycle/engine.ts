import type { Services } from '../context.ts'

export function registerLifecycle(services: Services): void {
  void services
}
