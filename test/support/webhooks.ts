// Webhook tests' mock: the real delivery data (src/webhook-delivery/data.ts) and a short attempt
// timeout, so that a receiver that never answers costs a test a fraction of a second.
import { createTestMock, type MockOptions, type TestMock } from './mock.ts'

export const API_BASE_URL = 'http://localhost/api/v2'

/** A test mock for delivery tests; timeoutMs: each attempt's timeout (default 300 ms). */
export function webhookMock(options: MockOptions & { timeoutMs?: number } = {}): TestMock {
  return createTestMock({ ...options, webhooks: { timeoutMs: options.timeoutMs ?? 300, ...options.webhooks } })
}
