// Webhook tests' mock: a delivery data function of FACTS.md's shapes for the client and record
// events these tests cause (the real one is src/webhook-delivery/data.ts), and a short attempt
// timeout so that a receiver that never answers costs a test a fraction of a second.
import type { DomainEvent } from '../../src/kernel/events.ts'
import { createTestMock, type MockOptions, type TestMock } from './mock.ts'

export const API_BASE_URL = 'http://localhost/api/v2'

const client = (id: unknown, apiBase: string) => ({ id, show: `${apiBase}/clients/${String(id)}` })

export function eventData(event: DomainEvent, apiBase: string): unknown {
  const { subjects } = event
  if (event.type === 'client.deleted') return { client: { id: subjects.client } }
  if (event.type === 'client.record') {
    const record = subjects.record
    return { client: client(subjects.client, apiBase), record: { id: record, show: `${apiBase}/records/${String(record)}`, download: `${apiBase}/records/${String(record)}/download` } }
  }
  if (event.type.startsWith('client.')) return { client: client(subjects.client, apiBase) }
  if (event.type.startsWith('record.')) {
    const record = subjects.record
    return {
      record: { id: record, type: 'client', show: `${apiBase}/records/${String(record)}`, download: `${apiBase}/records/${String(record)}/download` },
      client: client(subjects.client, apiBase),
      case: null,
    }
  }
  throw new Error(`test/support/webhooks.ts: no data for ${event.type}`)
}

/** A test mock whose deliveries carry eventData; timeoutMs: each attempt's timeout (default 300 ms). */
export function webhookMock(options: MockOptions & { timeoutMs?: number } = {}): TestMock {
  return createTestMock({ ...options, webhooks: { data: eventData, timeoutMs: options.timeoutMs ?? 300, ...options.webhooks } })
}
