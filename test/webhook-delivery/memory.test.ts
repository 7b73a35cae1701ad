// Bounded memory for webhook queues (docs/webhooks.md "Webhooks"): 100,000 events for a receiver that never
// answers leave the process's resident memory within 50 MB of where it started, because a webhook
// holds at most 1,000 undelivered payloads, its log at most 1,000 settled ones, and one that keeps
// failing is disabled (here re-enabled every 10,000 events, so the caps are hit again and again).
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import { startReceiver, type Receiver } from '../support/receiver.ts'
import { webhookMock } from '../support/webhooks.ts'

const EVENTS = 100_000
const BATCH = 1_000
const MB = 1024 * 1024
/** The documented caps (docs/behaviour-notes.md "Memory caps"): payloads not yet delivered, and settled deliveries logged, per webhook. */
const UNDELIVERED_CAP = 1_000
const LOGGED_CAP = 1_000

// A collector for steadier figures (the same as node --expose-gc): garbage not yet collected is not growth.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

function residentAfterCollecting(): number {
  collect()
  collect()
  return process.memoryUsage().rss
}

let hooks: Receiver | undefined
afterEach(async () => {
  await hooks?.close()
})

describe('webhook queues', () => {
  it(`hold memory flat through ${EVENTS.toLocaleString('en')} events for a receiver that never answers`, { timeout: 120_000 }, async () => {
    // The attempt's timeout as in a running mock: nothing this receiver is sent ever settles during the test.
    const mock = webhookMock({ timeoutMs: 5_000 })
    const team = mock.newTeam()
    hooks = await startReceiver(() => 'hang')
    const created = await team.api().post('/webhooks', { url: hooks.url, events: ['client.updated'] })
    expect(created.status).toBe(201)
    const client = (await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })).body.id as number
    await hooks.waitFor(1)
    const before = residentAfterCollecting()
    let most = 0
    for (let sent = 0; sent < EVENTS; sent += BATCH) {
      // Its owner re-enables it now and then (resetting its tally), so the cap and the log's cap are hit again and again.
      if (sent % (10 * BATCH) === 0 && sent > 0) expect((await team.api().patch(`/webhooks/${created.body.id}`, { is_enabled: true })).status).toBe(200)
      for (let index = 0; index < BATCH; index++) {
        mock.services.events.publish({ type: 'client.updated', teamId: team.team.id, occurredAt: mock.clock.timestamp(), subjects: { client } })
      }
      most = Math.max(most, team.team.deliveriesByWebhook.get(created.body.id).length)
      // The test mock keeps every event it saw (for other tests' assertions): not the mock's memory.
      mock.events.length = 0
      // Let the engine run between batches, as it does between requests.
      await yieldToEvents()
    }
    const after = residentAfterCollecting()
    const growth = (after - before) / MB
    console.log(`${EVENTS} events to a receiver that never answers: resident memory ${(before / MB).toFixed(1)} MB before, ${(after / MB).toFixed(1)} MB after (growth ${growth.toFixed(1)} MB); at most ${most} deliveries kept`)
    expect(growth).toBeLessThan(50)
    expect(most).toBeLessThanOrEqual(UNDELIVERED_CAP + LOGGED_CAP)
    // Ten payloads given up in a row disabled the webhook each time, as ten exhausted ones would.
    const webhook = await team.api().get(`/webhooks/${created.body.id}`)
    expect(webhook.body.is_enabled).toBe(false)
    expect((await team.api().get(`/webhooks/${created.body.id}/deliveries`, { limit: 100 })).body.total).toBeLessThanOrEqual(LOGGED_CAP)
  })
})
