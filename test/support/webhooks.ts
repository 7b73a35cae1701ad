// Webhook tests' mock: the real delivery data (src/webhook-delivery/data.ts) and a short attempt
// timeout, so that a receiver that never answers costs a test at most a second (tests that make
// one hang say how long; the default leaves a loaded machine time to reach a receiver that answers).
import { createTestMock, type MockOptions, type TestMock } from './mock.ts'

export const API_BASE_URL = 'http://localhost/api/v2'

/** A test mock for delivery tests; timeoutMs: each attempt's timeout (default 1 s). */
export function webhookMock(options: MockOptions & { timeoutMs?: number } = {}): TestMock {
  return createTestMock({ ...options, webhooks: { timeoutMs: options.timeoutMs ?? 1_000, ...options.webhooks } })
}
