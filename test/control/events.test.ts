// Events on demand (contracts/control/events.json): POST /_mock/events publishes on the API's event
// bus, so a receiver on 127.0.0.1 gets real deliveries: signed (checked here with node:crypto), in
// the event's data shape (contracts/events/delivery.json), retried on the mock's clock, logged.
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { contracts } from '../support/contracts.ts'
import { NOW, type TestMock } from '../support/mock.ts'
import { receiversClosedAfterEach, startReceiver, waitUntil, type Received, type Receiver } from '../support/receiver.ts'
import { createClient } from '../support/requests.ts'
import { API_BASE_URL, webhookMock } from '../support/webhooks.ts'

const receiver = receiversClosedAfterEach()

async function subscribe(api: ApiClient, url: string, events: string[] = ['*']) {
  const res = await api.post('/webhooks', { url, events })
  expect(res.status, res.text).toBe(201)
  return res.body as { id: number; secret: string }
}

async function trigger(mock: TestMock, body: Record<string, unknown>) {
  const res = await mock.control.post('/events', body)
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** The delivery with this uuid, once it has reached the receiver. */
async function arrived(hooks: Receiver, uuid: string): Promise<Received> {
  await waitUntil(() => hooks.received.some((request) => request.body?.uuid === uuid), 5_000, () => `delivery ${uuid}`)
  return hooks.received.find((request) => request.body?.uuid === uuid) as Received
}

/** Independently of the mock: base64 HMAC-SHA256 of the raw bytes, keyed with the webhook's secret. */
const signatureOf = (request: Received, secret: string) => createHmac('sha256', secret).update(request.raw).digest('base64')

const EVENT_DEFS = ['caseEvent', 'clientEvent', 'formEvent', 'recordEvent', 'watchlistEvent']
const delivery = contracts.schemas.get('events/delivery') as { $defs: Record<string, { enum: string[] }> }
const EVENTS = EVENT_DEFS.flatMap((name) => delivery.$defs[name]?.enum ?? [])

describe('an event on demand', () => {
  it('for an existing client reaches the receiver signed, with the real data, as the answer says', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver()
    const webhook = await subscribe(api, hooks.url, ['client.updated'])
    const client = await createClient(api)

    const published = await trigger(mock, { team: team.team.id, event: 'client.updated', client: client.id })
    expect(published).toEqual({
      object: 'mock_event',
      team: team.team.id,
      event: 'client.updated',
      occurred_at: NOW,
      subjects: { client: client.id },
      created: null,
      deliveries: [{ webhook: webhook.id, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) }],
    })
    const request = await arrived(hooks, published.deliveries[0].uuid)
    expect(request.headers['x-svc-signature']).toBe(signatureOf(request, webhook.secret))
    expect(request.headers['x-svc-delivery-id']).toBe(published.deliveries[0].uuid)
    expect(request.body).toEqual({
      uuid: published.deliveries[0].uuid,
      event: 'client.updated',
      sent_at: NOW,
      data: { client: { id: client.id, show: `${API_BASE_URL}/clients/${client.id}` } },
    })
    // The client itself is as it was.
    expect((await api.get(`/clients/${client.id as number}`)).body).toEqual(client)
  })

  it('without a resource makes one through the services, whose own events are delivered first', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const hooks = await receiver()
    const webhook = await subscribe(team.api(), hooks.url, ['*'])
    const published = await trigger(mock, { team: team.team.id, event: 'record.finished' })
    const { client, record } = published.created
    expect(published.subjects).toEqual({ record, client })
    expect((await team.api().get(`/records/${record as number}`)).body).toMatchObject({ id: record, client, status: 'pending' })
    const finished = await arrived(hooks, published.deliveries[0].uuid)
    expect(finished.headers['x-svc-signature']).toBe(signatureOf(finished, webhook.secret))
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping', 'client.created', 'record.created', 'client.record', 'record.finished'])
    expect(finished.body.data).toEqual({
      record: { id: record, type: 'client', show: `${API_BASE_URL}/records/${record as number}`, download: `${API_BASE_URL}/records/${record as number}/download` },
      client: { id: client, show: `${API_BASE_URL}/clients/${client as number}` },
      case: null,
    })
  })

  it('is retried on the mock clock and shows in the delivery log like any delivery', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const api = team.api()
    const hooks = await receiver((_, request) =>
      request.body.event === 'case.approved' && request.headers['x-svc-delivery-attempt'] === '1' ? { status: 500 } : { status: 204 },
    )
    const webhook = await subscribe(api, hooks.url, ['case.*'])
    const published = await trigger(mock, { team: team.team.id, event: 'case.approved' })
    const uuid = published.deliveries[0].uuid as string
    await arrived(hooks, uuid)
    await mock.services.webhooks.idle()
    expect((await mock.control.post('/clock/advance', { seconds: 60 })).status).toBe(200)
    await hooks.waitFor(4)
    const attempts = hooks.received.filter((request) => request.body.uuid === uuid)
    expect(attempts.map((request) => request.headers['x-svc-delivery-attempt'])).toEqual(['1', '2'])
    const log = await api.get(`/webhooks/${webhook.id}/deliveries`)
    expect(log.body.data.find((entry: any) => entry.uuid === uuid)).toMatchObject({ event: 'case.approved', attempts: 2 })
  })

  it('answers no deliveries when no webhook subscribes', async () => {
    const mock = webhookMock()
    const published = await trigger(mock, { team: 1, event: 'client.archived', client: 3 })
    expect(published).toMatchObject({ subjects: { client: 3 }, created: null, deliveries: [] })
  })
})

describe('every subscribable event', () => {
  const mock = webhookMock()
  const team = mock.newTeam()
  const validate = contracts.schemaValidator('events/delivery')
  let hooks: Receiver
  let secret: string
  beforeAll(async () => {
    hooks = await startReceiver()
    secret = (await subscribe(team.api(), hooks.url, ['*'])).secret
  })
  afterAll(() => hooks.close())

  it.each(EVENTS)('%s, for a resource it makes and then for that resource named, is delivered signed and valid', async (event) => {
    const made = await trigger(mock, { team: team.team.id, event })
    const kind = event === 'client.record' ? 'record' : event.startsWith('watchlist.') ? 'check' : (event.split('.')[0] as string)
    expect(made.created[kind], JSON.stringify(made.created)).toBeDefined()
    const named = await trigger(mock, { team: team.team.id, event, [kind]: made.created[kind] })
    expect(named.subjects).toEqual(made.subjects)
    expect(named.created).toBeNull()
    for (const published of [made, named]) {
      expect(published.deliveries).toHaveLength(1)
      const request = await arrived(hooks, published.deliveries[0].uuid)
      expect(request.headers['x-svc-signature']).toBe(signatureOf(request, secret))
      expect(request.body.event).toBe(event)
      expect(validate(request.body), JSON.stringify(validate.errors)).toBe(true)
    }
  })
})

describe('the control contract', () => {
  it.each([
    [{ team: 987654, event: 'client.updated' }, { team: ['The selected team is invalid.'] }],
    [{ team: 1, event: 'client.exploded' }, { event: ['The selected event is invalid.'] }],
    [{ team: 1, event: 'ping' }, { event: ['The selected event is invalid.'] }],
    [{ team: 1, event: 'client.updated', client: 51 }, { client: ['The selected client is invalid.'] }],
    [{ team: 1, event: 'client.updated', client: 987654 }, { client: ['The selected client is invalid.'] }],
    [{ team: 1, event: 'client.updated', record: 1 }, { record: ['The record field is prohibited: client.updated is about a client.'] }],
    [{ team: 1, event: 'watchlist.updated', record: 1 }, { record: ['The record field is prohibited: watchlist.updated is about a watchlist check.'] }],
    [{ team: 1, event: 'form.sent', form: '00000000-0000-4000-8000-000000000000' }, { form: ['The selected form is invalid.'] }],
    [{ team: 3, event: 'case.created' }, { event: ['Team 3 has no cases (a legacy team), so it has no case events.'] }],
    [{ event: 'client.updated' }, { team: ['The team field is required.'] }],
  ])('%j is a 422: %j', async (body, errors) => {
    const mock = webhookMock()
    const before = mock.events.length
    const res = await mock.control.post('/events', body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect(mock.events.length).toBe(before)
  })

  it('refuses to make a watchlist check the team cannot pay for, and makes nothing', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    // The team's support spends its opening credits but 2, as a manual correction would.
    const balance = team.team.credits.all().reduce((sum, entry) => sum + entry.credits, 0)
    team.team.credits.insert({ id: mock.store.nextId('credit'), credits: 2 - balance, reason: 'Manual correction', causer: null, created_at: NOW })
    const before = mock.events.length
    const res = await mock.control.post('/events', { team: team.team.id, event: 'watchlist.updated' })
    expect([res.status, res.body]).toEqual([422, { event: [`Team ${team.team.id} has 2 credits and a watchlist step costs 3: name a watchlist check.`] }])
    expect(mock.events.length).toBe(before)
    expect(team.team.clients.all()).toEqual([])
  })

  it('refuses a watchlist.updated for a check that is not a watchlist check', async () => {
    const mock = webhookMock()
    const team = mock.newTeam()
    const client = await createClient(team.api())
    const record = await team.api().post('/records', { client: client.id, steps: [{ type: 'check.identity' }], notification: false })
    expect(record.status, record.text).toBe(201)
    const check = record.body.steps[0].check as number
    const res = await mock.control.post('/events', { team: team.team.id, event: 'watchlist.updated', check })
    expect([res.status, res.body]).toEqual([422, { check: ['The selected check is invalid.'] }])
  })
})
