// Webhook delivery to real receivers on 127.0.0.1 (docs/specification-notes.md "Webhooks"): the body and headers, the
// signature checked independently, the log, the retry schedule and disabling on a controlled
// clock, a receiver that never answers, and the order of events. Every wait is bounded.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifySignature } from 'ivs-mock/webhooks'
import { RETRY_JOB } from '../../src/webhook-delivery/index.ts'
import type { ApiClient } from '../support/api.ts'
import { contracts } from '../support/contracts.ts'
import { NOW, TEST_NOW, type TestMock } from '../support/mock.ts'
import { receiversClosedAfterEach, waitUntil, type Answer, type Received, type Receiver } from '../support/receiver.ts'
import { createClient } from '../support/requests.ts'
import { API_BASE_URL, webhookMock } from '../support/webhooks.ts'
import { toTimestamp } from '../../src/kernel/clock.ts'

const receiver = receiversClosedAfterEach()

/** The wire timestamp `seconds` after TEST_NOW. */
const after = (seconds: number) => toTimestamp(new Date(TEST_NOW.getTime() + seconds * 1000))

async function subscribe(api: ApiClient, url: string, events: string[] = ['*']) {
  const res = await api.post('/webhooks', { url, events })
  expect(res.status, res.text).toBe(201)
  return res.body as { id: number; secret: string }
}

async function advance(mock: TestMock, seconds: number) {
  const res = await mock.control.post('/clock/advance', { seconds })
  expect(res.status, res.text).toBe(200)
}

async function deliveries(api: ApiClient, webhook: number) {
  const res = await api.get(`/webhooks/${webhook}/deliveries`, { limit: 100 })
  expect(res.status, res.text).toBe(200)
  return res.body.data as any[]
}

const attemptHeader = (request: Received) => request.headers['x-svc-delivery-attempt']

/** Publishes client.updated for a client straight on the event bus (many events without as many requests), as a change the API's kept answers see. */
function publishUpdates(mock: TestMock, team: number, client: number, count: number) {
  mock.store.changing(() => {
    for (let index = 0; index < count; index++) mock.services.events.publish({ type: 'client.updated', teamId: team, occurredAt: mock.clock.timestamp(), subjects: { client } })
  })
}

/** Requests held (unanswered) right now across receivers. */
const held = (hooks: Receiver[]) => hooks.reduce((sum, hook) => sum + hook.held, 0)

describe('a delivery', () => {
  it('POSTs {uuid, event, sent_at, data} with the headers, signed with the secret', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver()
    const webhook = await subscribe(api, hooks.url, ['client.*'])
    const client = await createClient(api)
    await mock.services.webhooks.idle()
    const [ping, created] = await hooks.waitFor(2)
    expect(hooks.received).toHaveLength(2)
    for (const request of [ping, created] as Received[]) {
      expect(request.method).toBe('POST')
      expect(request.path).toBe('/hooks')
      expect(request.headers['content-type']).toBe('application/json')
      expect(request.headers['user-agent']).toBe(`IVS-Mock-Webhooks/1.0 (webhook ${webhook.id})`)
      expect(attemptHeader(request)).toBe('1')
      expect(request.headers['x-svc-delivery-id']).toBe(request.body.uuid)
      // Independently of the mock: base64 HMAC-SHA256 of the raw bytes, keyed with the secret.
      expect(request.headers['x-svc-signature']).toBe(createHmac('sha256', webhook.secret).update(request.raw).digest('base64'))
      expect(verifySignature(request.raw, request.headers['x-svc-signature'], webhook.secret)).toBe(true)
      expect(Object.keys(request.body)).toEqual(['uuid', 'event', 'sent_at', 'data'])
    }
    expect(ping?.body).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), event: 'ping', sent_at: NOW, data: ['ping'] })
    expect(created?.body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'client.created',
      sent_at: NOW,
      data: { client: { id: client.id, show: `${API_BASE_URL}/clients/${client.id}` } },
    })
    expect(created?.body.uuid).not.toBe(ping?.body.uuid)
  })

  it('is logged with the request sent and the response parsed, the newest first', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver((index) => (index === 0 ? { status: 204 } : { status: 200, body: '{"received":true}', headers: { 'Content-Type': 'application/json', 'X-Receiver': 'test' } }))
    const webhook = await subscribe(api, hooks.url, ['client.created'])
    await createClient(api)
    await mock.services.webhooks.idle()
    const [ping, created] = hooks.received as [Received, Received]
    const log = await deliveries(api, webhook.id)
    const logged = (request: Received) => ({
      url: hooks.url,
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': request.headers['user-agent'],
        'X-SVC-Signature': request.headers['x-svc-signature'],
        'X-SVC-Delivery-Id': request.body.uuid,
        'X-SVC-Delivery-Attempt': '1',
      },
      body: request.body,
    })
    expect(log).toEqual([
      {
        object: 'webhook_delivery',
        id: expect.any(Number),
        uuid: created.body.uuid,
        event: 'client.created',
        attempts: 1,
        request: logged(created),
        response: { status_code: '200', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-receiver': 'test' }), body: { received: true } },
        last_sent_at: NOW,
      },
      {
        object: 'webhook_delivery',
        id: expect.any(Number),
        uuid: ping.body.uuid,
        event: 'ping',
        attempts: 1,
        request: logged(ping),
        // docs/specification-notes.md "Webhooks": an empty 204 is logged with body {}.
        response: { status_code: '204', headers: expect.any(Object), body: {} },
        last_sent_at: NOW,
      },
    ])
    expect(log[0].id).toBeGreaterThan(log[1].id)
  })

  it('logs a text answer as it came, and a refused connection as response null', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver(() => ({ status: 200, body: 'thanks' }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    expect((await deliveries(api, webhook.id))[0].response.body).toBe('thanks')
    await hooks.close()
    await createClient(api)
    await mock.services.webhooks.idle()
    const [refused] = await deliveries(api, webhook.id)
    expect(refused).toMatchObject({ event: 'client.created', attempts: 1, response: null, last_sent_at: NOW })
  })

  it('reaches only subscriptions whose events match (*, category.*, exact), enabled, of the event\'s team', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const api = team.api()
    const [all, clients, created, updated, records, disabled, theirs] = await Promise.all(Array.from({ length: 7 }, () => receiver()))
    await subscribe(api, (all as Receiver).url, ['*'])
    await subscribe(api, (clients as Receiver).url, ['client.*'])
    await subscribe(api, (created as Receiver).url, ['client.created'])
    await subscribe(api, (updated as Receiver).url, ['client.updated'])
    await subscribe(api, (records as Receiver).url, ['record.*'])
    expect((await api.post('/webhooks', { url: (disabled as Receiver).url, events: ['*'], is_enabled: false })).status).toBe(201)
    await subscribe(mock.newTeam().api(), (theirs as Receiver).url, ['*'])
    await createClient(api)
    await mock.services.webhooks.idle()
    const events = (r: Receiver | undefined) => r?.received.map((request) => request.body.event)
    expect(events(all)).toEqual(['ping', 'client.created'])
    expect(events(clients)).toEqual(['ping', 'client.created'])
    expect(events(created)).toEqual(['ping', 'client.created'])
    expect(events(updated)).toEqual(['ping'])
    expect(events(records)).toEqual(['ping'])
    expect(events(disabled)).toEqual([])
    expect(events(theirs)).toEqual(['ping'])
  })
})

describe('the story of the issue', () => {
  it('a receiver subscribed to record.* gets record.created, record.updated and record.finished as the contracts say, signed', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver()
    const webhook = await subscribe(api, hooks.url, ['record.*'])
    const client = await createClient(api)
    const created = await api.post('/records', { client: client.id, notification: false, steps: [{ type: 'check.identity' }] })
    expect(created.status, created.text).toBe(201)
    expect((await mock.control.post(`/records/${created.body.id}/complete`, {})).status).toBe(200)
    await advance(mock, 60)
    await mock.services.webhooks.idle()
    const received = await hooks.waitFor(5)
    const validDelivery = contracts.schemaValidator('events/delivery')
    for (const request of received) {
      expect(verifySignature(request.raw, request.headers['x-svc-signature'], webhook.secret)).toBe(true)
      expect(validDelivery(request.body), JSON.stringify(validDelivery.errors)).toBe(true)
    }
    const record = { id: created.body.id, type: 'client', show: `${API_BASE_URL}/records/${created.body.id}`, download: `${API_BASE_URL}/records/${created.body.id}/download` }
    const data = { record, client: { id: client.id, show: `${API_BASE_URL}/clients/${client.id}` }, case: null }
    // The ping, then the record's events in order: created, completed by the client, the check's result, finished.
    expect(received.map((request) => [request.body.event, request.body.event === 'ping' ? null : request.body.data])).toEqual([
      ['ping', null],
      ['record.created', data],
      ['record.updated', data],
      ['record.updated', data],
      ['record.finished', data],
    ])
  })
})

describe('retries on the mock\'s clock (docs/specification-notes.md "Webhooks": 60, 120, 600 and 900 s after each failure)', () => {
  it('walks the whole schedule in one advance of the clock, with the same delivery id', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver(() => ({ status: 500, body: '{"error":"down"}' }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    expect(hooks.received).toHaveLength(1)
    expect(mock.scheduler.pending().filter((job) => job.kind === RETRY_JOB).map((job) => toTimestamp(new Date(job.due)))).toEqual([after(60)])
    await advance(mock, 3600)
    const attempts = hooks.received
    expect(attempts.map(attemptHeader)).toEqual(['1', '2', '3', '4', '5'])
    expect(attempts.map((request) => request.body.sent_at)).toEqual([NOW, after(60), after(180), after(780), after(1680)])
    expect(new Set(attempts.map((request) => request.headers['x-svc-delivery-id'])).size).toBe(1)
    expect(new Set(attempts.map((request) => request.body.uuid))).toEqual(new Set([attempts[0]?.headers['x-svc-delivery-id']]))
    // Each attempt is signed anew: sent_at changes the bytes.
    for (const request of attempts) expect(verifySignature(request.raw, request.headers['x-svc-signature'], webhook.secret)).toBe(true)
    const [logged] = await deliveries(api, webhook.id)
    expect(logged).toMatchObject({ event: 'ping', attempts: 5, last_sent_at: after(1680), response: { status_code: '500', body: { error: 'down' } } })
    expect(logged.request.headers['X-SVC-Delivery-Attempt']).toBe('5')
    expect(logged.request.body.sent_at).toBe(after(1680))
    expect(mock.scheduler.pending().filter((job) => job.kind === RETRY_JOB)).toEqual([])
    // One exhausted payload does not disable the webhook.
    expect((await api.get(`/webhooks/${webhook.id}`)).body.is_enabled).toBe(true)
  })

  it('makes no attempt before its moment, and stops retrying after a success', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver((index) => (index < 2 ? { status: 503 } : { status: 204 }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    await advance(mock, 59)
    expect(hooks.received).toHaveLength(1)
    await advance(mock, 1)
    expect(hooks.received.map(attemptHeader)).toEqual(['1', '2'])
    await advance(mock, 119)
    expect(hooks.received).toHaveLength(2)
    await advance(mock, 1)
    expect(hooks.received.map(attemptHeader)).toEqual(['1', '2', '3'])
    await advance(mock, 3600)
    expect(hooks.received).toHaveLength(3)
    expect(await deliveries(api, webhook.id)).toMatchObject([{ attempts: 3, last_sent_at: after(180), response: { status_code: '204', body: {} } }])
  })

  it('a timeout (no answer within the attempt\'s limit) is a failure logged with response null, then retried', async () => {
    const mock = webhookMock({ timeoutMs: 100 })
    const api = mock.newTeam().api()
    const hooks = await receiver((index) => (index === 0 ? 'hang' : { status: 204 }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    expect(await deliveries(api, webhook.id)).toMatchObject([{ attempts: 1, response: null }])
    await advance(mock, 60)
    expect(await deliveries(api, webhook.id)).toMatchObject([{ attempts: 2, response: { status_code: '204' }, last_sent_at: after(60) }])
  })

  it('a redirect is not a success', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver(() => ({ status: 302, headers: { Location: 'http://127.0.0.1:9/elsewhere' } }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    expect(await deliveries(api, webhook.id)).toMatchObject([{ attempts: 1, response: { status_code: '302' } }])
    expect(mock.scheduler.pending().some((job) => job.kind === RETRY_JOB)).toBe(true)
  })

  it('deleting the webhook drops its waiting retries', async () => {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver(() => ({ status: 500 }))
    const webhook = await subscribe(api, hooks.url)
    await mock.services.webhooks.idle()
    expect((await api.delete(`/webhooks/${webhook.id}`)).status).toBe(204)
    expect(mock.scheduler.pending().filter((job) => job.kind === RETRY_JOB)).toEqual([])
    await advance(mock, 3600)
    expect(hooks.received).toHaveLength(1)
  })
})

describe('disabling (docs/specification-notes.md "Webhooks": 10 payloads in a row exhaust their attempts)', () => {
  /** The ping and `clients` client.created payloads, all failing, walked through their schedule. */
  async function failing(clients: number, answer: (index: number, received: Received) => Answer = () => ({ status: 500 })) {
    const mock = webhookMock()
    const api = mock.newTeam().api()
    const hooks = await receiver(answer)
    const webhook = await subscribe(api, hooks.url, ['client.created'])
    for (let index = 0; index < clients; index++) await createClient(api)
    await advance(mock, 3600)
    return { mock, api, hooks, webhook }
  }

  it('disables the webhook after the tenth; it then gets nothing new until re-enabled, which pings it', async () => {
    const { mock, api, hooks, webhook } = await failing(9)
    expect(hooks.received).toHaveLength(50)
    const disabled = (await api.get(`/webhooks/${webhook.id}`)).body
    expect(disabled.is_enabled).toBe(false)
    expect((await api.get('/webhooks', { enabled: false })).body.data).toEqual([disabled])
    const log = await deliveries(api, webhook.id)
    expect(log).toHaveLength(10)
    expect(log.every((delivery) => delivery.attempts === 5)).toBe(true)
    await createClient(api)
    await advance(mock, 3600)
    expect(hooks.received).toHaveLength(50)
    expect(await deliveries(api, webhook.id)).toHaveLength(10)
    const enabled = await api.patch(`/webhooks/${webhook.id}`, { is_enabled: true })
    expect(enabled.body.is_enabled).toBe(true)
    await mock.services.webhooks.idle()
    expect(hooks.received.at(-1)?.body.event).toBe('ping')
    expect(hooks.received).toHaveLength(51)
  })

  it('nine exhausted payloads leave it enabled', async () => {
    const { api, webhook } = await failing(8)
    expect((await api.get(`/webhooks/${webhook.id}`)).body.is_enabled).toBe(true)
  })

  it('one success resets the tally', async () => {
    // The ping and 4 client.created fail (5 payloads), the 6th succeeds, then 9 more fail.
    let fail = true
    const { mock, api, hooks, webhook } = await failing(4, () => (fail ? { status: 500 } : { status: 204 }))
    expect(hooks.received).toHaveLength(25)
    fail = false
    await createClient(api)
    await mock.services.webhooks.idle()
    fail = true
    for (let index = 0; index < 9; index++) await createClient(api)
    await advance(mock, 3600)
    expect(hooks.received).toHaveLength(25 + 1 + 45)
    expect((await api.get(`/webhooks/${webhook.id}`)).body.is_enabled).toBe(true)
  })
})

describe('never in the way', () => {
  it('a receiver that never answers holds up neither the API nor another webhook', async () => {
    const mock = webhookMock({ timeoutMs: 60_000 })
    const api = mock.newTeam().api()
    const hanging = await receiver((index) => (index === 0 ? 'hang' : { status: 204 }))
    const healthy = await receiver()
    await subscribe(api, hanging.url, ['client.created'])
    await subscribe(api, healthy.url, ['client.created'])
    await hanging.waitFor(1)
    // The API answers every request while the first delivery hangs.
    for (let index = 0; index < 20; index++) await createClient(api)
    expect((await api.get('/clients', { limit: 1 })).status).toBe(200)
    // The other webhook got everything; the hanging one's queue waits behind its first attempt.
    await healthy.waitFor(21)
    expect(healthy.received).toHaveLength(21)
    expect(hanging.received).toHaveLength(1)
    expect(hanging.held).toBe(1)
    expect(mock.services.webhooks.busy).toBe(true)
    // Once it answers, its queue goes out in order.
    hanging.release(204)
    await mock.services.webhooks.idle()
    expect(hanging.received.map((request) => request.body.event)).toEqual(['ping', ...Array.from({ length: 20 }, () => 'client.created')])
  })

  it('delivers a webhook\'s events in the order they happened, even when the receiver is slow to start', async () => {
    const mock = webhookMock({ timeoutMs: 60_000 })
    const api = mock.newTeam().api()
    const hooks = await receiver((index) => (index === 0 ? 'hang' : { status: 204 }))
    await subscribe(api, hooks.url, ['client.*'])
    await hooks.waitFor(1)
    const client = await createClient(api)
    await api.patch(`/clients/${client.id}`, { reference: 'REF-1' })
    await api.patch(`/clients/${client.id}`, { reference: 'REF-2' })
    const other = await createClient(api, 'Bo', 'Hart')
    await api.delete(`/clients/${other.id}`)
    hooks.release(204)
    await mock.services.webhooks.idle()
    const published = mock.events.filter((event) => event.type.startsWith('client.') && [client.id, other.id].includes(event.subjects.client))
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping', ...published.map((event) => event.type)])
    expect(hooks.received.slice(1).map((request) => request.body.data.client.id)).toEqual(published.map((event) => event.subjects.client))
  })

  it("runs at most 8 attempts of one team at once, taking its webhooks in turn", async () => {
    const mock = webhookMock({ timeoutMs: 60_000 })
    const api = mock.newTeam().api()
    const hooks = await Promise.all(Array.from({ length: 10 }, () => receiver(() => 'hang')))
    for (const hook of hooks) await subscribe(api, hook.url)
    await waitUntil(() => held(hooks) === 8, 5_000, () => '8 attempts in flight')
    // Give the engine every chance to start more than it should.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(held(hooks)).toBe(8)
    for (const hook of hooks) hook.release(204)
    await waitUntil(() => hooks.every((hook) => hook.received.length === 1), 5_000, () => 'a ping at every receiver')
    for (const hook of hooks) hook.release(204)
    await mock.services.webhooks.idle()
  })

  it('runs at most maxInFlight attempts at once across teams', async () => {
    const mock = webhookMock({ timeoutMs: 60_000, webhooks: { maxInFlight: 3 } })
    const hooks = await Promise.all(Array.from({ length: 4 }, () => receiver(() => 'hang')))
    for (const hook of hooks) await subscribe(mock.newTeam().api(), hook.url)
    await waitUntil(() => held(hooks) === 3, 5_000, () => '3 attempts in flight')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(held(hooks)).toBe(3)
    for (const hook of hooks) hook.release(204)
    await waitUntil(() => hooks.every((hook) => hook.received.length === 1), 5_000, () => 'a ping at every receiver')
    for (const hook of hooks) hook.release(204)
    await mock.services.webhooks.idle()
  })

  it("one team's hanging receivers take none of another team's slots", async () => {
    // Long enough that no attempt of team A times out before team B's ping could go out.
    const mock = webhookMock({ timeoutMs: 3_000 })
    const hanging = await Promise.all(Array.from({ length: 40 }, () => receiver(() => 'hang')))
    const teamA = mock.newTeam().api()
    for (const hook of hanging) await subscribe(teamA, hook.url)
    await waitUntil(() => held(hanging) === 8, 5_000, () => "8 of team A's pings in flight")
    const healthy = await receiver()
    await subscribe(mock.newTeam().api(), healthy.url)
    await healthy.waitFor(1, 20_000)
    // Team B's ping went out while the first 8 attempts of team A were still hanging: it waited for none of them.
    expect(hanging.reduce((sum, hook) => sum + hook.received.length, 0)).toBe(8)
    expect(held(hanging)).toBe(8)
    expect(healthy.received.map((request) => request.body.event)).toEqual(['ping'])
  })
})

describe("advancing the clock (POST /_mock/clock/advance) with a receiver that hangs", () => {
  it("waits for an attempt at most as long as the attempt's timeout, never for the receiver's whole backlog", async () => {
    const mock = webhookMock({ timeoutMs: 200 })
    const api = mock.newTeam().api()
    const hooks = await receiver(() => 'hang')
    await subscribe(api, hooks.url, ['client.created'])
    for (let index = 0; index < 30; index++) await createClient(api)
    await advance(mock, 3600)
    // Each attempt takes 200 ms to time out: waiting for the backlog would have taken 31 of them (and their retries).
    expect(hooks.received.length).toBeLessThan(16)
    expect(mock.services.webhooks.busy).toBe(true)
    const clock = await mock.control.get('/clock')
    expect(clock.body.now).toBe(after(3600))
  })

  it('still walks the retry schedule of a receiver that answers', async () => {
    // A whole second per attempt: on a loaded machine the failing receiver's quick 500 must land within it.
    const mock = webhookMock({ timeoutMs: 1000 })
    const api = mock.newTeam().api()
    const hanging = await receiver(() => 'hang')
    const failing = await receiver(() => ({ status: 500 }))
    await subscribe(api, hanging.url, ['client.created'])
    await subscribe(api, failing.url, ['client.created'])
    await createClient(api)
    await advance(mock, 3600)
    // The failing receiver got both payloads' five attempts at their moments, whatever the hanging one did.
    expect(failing.received.map((request) => [request.body.event, attemptHeader(request), request.body.sent_at])).toEqual([
      ['ping', '1', NOW],
      ['client.created', '1', NOW],
      ['ping', '2', after(60)],
      ['client.created', '2', after(60)],
      ['ping', '3', after(180)],
      ['client.created', '3', after(180)],
      ['ping', '4', after(780)],
      ['client.created', '4', after(780)],
      ['ping', '5', after(1680)],
      ['client.created', '5', after(1680)],
    ])
  })
})

describe("a webhook's backlog (at most maxUndelivered payloads not yet delivered; 1,000 by default)", () => {
  it('gives up the oldest payload beyond the cap: it fails there and then, is logged with response null, and counts toward disabling', async () => {
    const mock = webhookMock({ timeoutMs: 60_000, webhooks: { maxUndelivered: 5 } })
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver((index) => (index === 0 ? 'hang' : { status: 204 }))
    const webhook = await subscribe(api, hooks.url, ['client.created'])
    await hooks.waitFor(1)
    // The ping in flight and four payloads queued behind it: five, the cap.
    const clients = [] as Array<{ id: number }>
    for (let index = 0; index < 4; index++) clients.push(await createClient(api))
    expect(await deliveries(api, webhook.id)).toEqual([])
    clients.push(await createClient(api))
    // The oldest not in flight (the first client's) is given up, without being sent.
    const [givenUp] = await deliveries(api, webhook.id)
    expect(givenUp).toMatchObject({ event: 'client.created', attempts: 1, response: null, last_sent_at: NOW })
    expect(givenUp.request).toMatchObject({ url: hooks.url, method: 'POST', body: { event: 'client.created', sent_at: NOW, data: { client: { id: clients[0]?.id } } } })
    expect(givenUp.request.headers['X-SVC-Delivery-Attempt']).toBe('1')
    expect(verifySignature(JSON.stringify(givenUp.request.body), givenUp.request.headers['X-SVC-Signature'], webhook.secret)).toBe(true)
    expect(hooks.received).toHaveLength(1)
    expect((await api.get(`/webhooks/${webhook.id}`)).body.is_enabled).toBe(true)
    // Nine more given up make ten payloads in a row that failed: the webhook is disabled, its queue dropped.
    for (let index = 0; index < 9; index++) clients.push(await createClient(api))
    const log = await deliveries(api, webhook.id)
    expect(log.map((delivery) => delivery.request.body.data.client.id)).toEqual(clients.slice(0, 10).map((client) => client.id).reverse())
    expect(log.every((delivery) => delivery.response === null)).toBe(true)
    expect((await api.get(`/webhooks/${webhook.id}`)).body.is_enabled).toBe(false)
    expect(team.team.deliveriesByWebhook.get(webhook.id).map((delivery) => delivery.state).sort()).toEqual([...Array(10).fill('failed'), ...Array(4).fill('dropped'), 'queued'].sort())
    // The ping in flight settles on its own; nothing else is sent.
    hooks.release(204)
    await mock.services.webhooks.idle()
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping'])
  })

  it('holds 1,000 payloads by default, as docs/behaviour-notes.md "Memory caps" says: the 1,001st gives up the oldest', async () => {
    const mock = webhookMock({ timeoutMs: 60_000 })
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver(() => 'hang')
    const webhook = await subscribe(api, hooks.url, ['client.updated'])
    const client = await createClient(api)
    await hooks.waitFor(1)
    // The ping in flight and 999 payloads queued behind it: 1,000, the cap, and nothing given up.
    publishUpdates(mock, team.team.id, client.id, 999)
    expect(await deliveries(api, webhook.id)).toEqual([])
    publishUpdates(mock, team.team.id, client.id, 1)
    const rows = team.team.deliveriesByWebhook.get(webhook.id)
    expect(rows).toHaveLength(1_001)
    const [givenUp, ...others] = await deliveries(api, webhook.id)
    expect(others).toEqual([])
    // The oldest not in flight: the first payload after the ping.
    expect(givenUp).toMatchObject({ uuid: rows[1]?.uuid, event: 'client.updated', attempts: 1, response: null })
    expect(hooks.received).toHaveLength(1)
    // Deleting the webhook drops what it still holds, so only the ping is left to settle.
    expect((await api.delete(`/webhooks/${webhook.id}`)).status).toBe(204)
    hooks.release(204)
    await mock.services.webhooks.idle()
    expect(hooks.received).toHaveLength(1)
  })

  it('gives up a payload waiting for its retry the same way, and its retry never runs', async () => {
    const mock = webhookMock({ timeoutMs: 60_000, webhooks: { maxUndelivered: 2 } })
    const api = mock.newTeam().api()
    const hooks = await receiver((index) => (index === 0 ? { status: 500 } : index === 1 ? 'hang' : { status: 204 }))
    const webhook = await subscribe(api, hooks.url, ['client.created'])
    await mock.services.webhooks.idle()
    // The ping failed once and waits for its retry; the next attempt hangs, and one more payload passes the cap.
    const first = await createClient(api)
    await hooks.waitFor(2)
    await createClient(api)
    const [ping] = await deliveries(api, webhook.id)
    expect(ping).toMatchObject({ event: 'ping', attempts: 2, response: null, last_sent_at: NOW })
    expect(ping.request.headers['X-SVC-Delivery-Attempt']).toBe('2')
    expect(mock.scheduler.pending().filter((job) => job.kind === RETRY_JOB)).toEqual([])
    expect(hooks.received.map((request) => request.body.data)).toEqual([['ping'], { client: { id: first.id, show: `${API_BASE_URL}/clients/${first.id}` } }])
    hooks.release(204)
    await mock.services.webhooks.idle()
  })
})

describe('the delivery log (90 days, and at most maxLogged settled deliveries per webhook; 1,000 by default)', () => {
  it('keeps the newest settled deliveries and drops the oldest', async () => {
    const mock = webhookMock({ webhooks: { maxLogged: 3 } })
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver()
    const webhook = await subscribe(api, hooks.url, ['client.created'])
    const clients = [] as Array<{ id: number }>
    for (let index = 0; index < 5; index++) {
      clients.push(await createClient(api))
      await mock.services.webhooks.idle()
    }
    expect(hooks.received).toHaveLength(6)
    const log = await deliveries(api, webhook.id)
    expect(log.map((delivery) => delivery.request.body.data.client?.id)).toEqual([clients[4]?.id, clients[3]?.id, clients[2]?.id])
    expect(team.team.deliveriesByWebhook.get(webhook.id)).toHaveLength(3)
  })

  it('keeps 1,000 by default, as docs/behaviour-notes.md "Memory caps" says: the 1,001st settled delivery drops the oldest', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver()
    const webhook = await subscribe(api, hooks.url, ['client.updated'])
    const client = await createClient(api)
    // In batches that settle before the next, so the backlog's own cap never comes into it.
    for (let batch = 0; batch < 10; batch++) {
      publishUpdates(mock, team.team.id, client.id, 100)
      await mock.services.webhooks.idle()
    }
    expect(hooks.received).toHaveLength(1_001)
    const first = await api.get(`/webhooks/${webhook.id}/deliveries`, { limit: 100 })
    expect(first.body.total).toBe(1_000)
    // The newest first: the ping, delivered first, is the one dropped.
    const last = await api.get(`/webhooks/${webhook.id}/deliveries`, { limit: 100, page: 10 })
    expect(last.body.data.map((delivery: { event: string }) => delivery.event)).toEqual(Array(100).fill('client.updated'))
    expect(last.body.data.at(-1).uuid).toBe(hooks.received[1]?.body.uuid)
  })
})
