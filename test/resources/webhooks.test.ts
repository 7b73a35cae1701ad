// The webhook operations (docs/specification-notes.md "Webhooks"): list with the enabled filter, retrieve,
// create, update, delete and the delivery log, with their errors, roles and another team's ids.
import { describe, expect, it } from 'vitest'
import { receiversClosedAfterEach } from '../support/receiver.ts'
import { NOW, at } from '../support/mock.ts'
import { webhookMock } from '../support/webhooks.ts'
import { singlePage } from '../support/wire.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const NOT_FOUND = { error: 'Webhook not found' }
const UNKNOWN = 987_654_321

const receiver = receiversClosedAfterEach()

/** A fresh team; hooks are created disabled unless a test wants deliveries, so nothing is sent. */
function setup() {
  const mock = webhookMock()
  const team = mock.newTeam()
  return { mock, team, api: team.api() }
}

const DISABLED = { url: 'http://127.0.0.1:9/hooks', events: ['client.*'], is_enabled: false }

const POINTS_AT_MOCK = { url: ['The url field must not point at the mock itself.'] }

/** The in-process mock answers at http://localhost (port 80): these URLs are the mock itself. */
const MOCK_ITSELF = [
  'http://localhost/_mock/teams',
  'http://LOCALHOST./_mock/teams',
  'http://127.0.0.1/_mock/teams',
  'http://127.0.0.1:80/api/v2/clients',
  'http://127.9.9.9/_mock/clock/advance',
  'http://[::1]/_mock/teams',
  'http://[::ffff:127.0.0.1]/_mock/teams',
  'http://2130706433/_mock/teams',
  'http://0.0.0.0/_mock/teams',
  'http://app.localhost/anything',
  'http://user:secret@localhost/_mock/teams',
]

/** Receivers beside the mock: other ports of the same machine, other hosts. */
const BESIDE_IT = ['http://127.0.0.1:9/hooks', 'http://localhost:3000/_mock/teams', 'https://localhost/hooks', 'http://[::1]:8080/hooks', 'https://hooks.example.com/ivs']

describe('webhooks that point at the mock itself', () => {
  it.each(MOCK_ITSELF.map((url) => [url] as const))('are refused on create: %s', async (url) => {
    const { mock, api, team } = setup()
    const res = await api.post('/webhooks', { url, events: ['*'] })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(POINTS_AT_MOCK)
    expect(team.team.webhooks.size).toBe(0)
    await mock.services.webhooks.idle()
  })

  it.each(BESIDE_IT.map((url) => [url] as const))('are not the receivers beside it: %s', async (url) => {
    const { api } = setup()
    const res = await api.post('/webhooks', { ...DISABLED, url })
    expect(res.status, res.text).toBe(201)
    expect(res.body.url).toBe(url)
  })

  it('are refused on update, with the other failing keys', async () => {
    const { api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const res = await api.patch(`/webhooks/${made.id}`, { url: 'http://127.0.0.1/_mock/teams', events: ['client.exploded'] })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ ...POINTS_AT_MOCK, 'events.0': ['The selected event is invalid.'] })
    expect((await api.get(`/webhooks/${made.id}`)).body).toEqual(made)
  })

  it('are never sent to, when the mock has come to listen where a webhook points', async () => {
    const { mock, api } = setup()
    const hooks = await receiver()
    const made = (await api.post('/webhooks', { ...DISABLED, url: hooks.url })).body
    // As if the mock had restarted on the receiver's port (--data keeps webhooks across restarts).
    mock.services.webhooks.listening(Number(new URL(hooks.url).port), '127.0.0.1', [])
    expect((await api.patch(`/webhooks/${made.id}`, { is_enabled: true })).status).toBe(200)
    await mock.services.webhooks.idle()
    expect(hooks.received).toEqual([])
    expect((await api.get(`/webhooks/${made.id}/deliveries`)).body.data).toMatchObject([{ event: 'ping', attempts: 1, response: null }])
  })
})

describe('POST /webhooks', () => {
  it('creates an enabled webhook with a 64-character hex secret, and pings it', async () => {
    const { mock, api } = setup()
    const hooks = await receiver()
    const res = await api.post('/webhooks', { url: hooks.url, events: ['record.*', 'client.created'] })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({
      object: 'webhook',
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: hooks.url,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      events: ['record.*', 'client.created'],
      is_enabled: true,
      created_at: NOW,
      updated_at: NOW,
    })
    await mock.services.webhooks.idle()
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping'])
    expect(hooks.received[0]?.body.data).toEqual(['ping'])
  })

  it('creates a disabled webhook without pinging it; each webhook has its own secret', async () => {
    const { mock, api } = setup()
    const one = await api.post('/webhooks', DISABLED)
    const two = await api.post('/webhooks', { ...DISABLED, events: ['*'] })
    expect([one.status, two.status]).toEqual([201, 201])
    expect(one.body.is_enabled).toBe(false)
    expect(one.body.secret).not.toBe(two.body.secret)
    expect(mock.services.webhooks.busy).toBe(false)
  })

  it.each([
    ['every wildcard', ['*', 'case.*', 'client.*', 'form.*', 'record.*']],
    ['every client event', ['client.archived', 'client.created', 'client.deleted', 'client.organisations', 'client.record', 'client.status', 'client.unarchived', 'client.updated', 'client.deletion_reminder_updated', 'client.deletion_reminder_deleted', 'client.deletion_reminder_due']],
    ['watchlist and form events', ['watchlist.updated', 'form.attached', 'form.deleted', 'form.modified', 'form.sent', 'form.submitted', 'form.updated']],
    ['https', ['record.finished']],
  ])('accepts %s', async (_, events) => {
    const { api } = setup()
    const url = _ === 'https' ? 'https://hooks.example.com/ivs' : DISABLED.url
    const res = await api.post('/webhooks', { url, events, is_enabled: false })
    expect(res.status, res.text).toBe(201)
    expect(res.body.events).toEqual(events)
    expect(res.body.url).toBe(url)
  })

  it.each([
    ['no body fields', {}, { events: ['The events field is required.'], url: ['The url field is required.'] }],
    ['a url that is no URL', { url: 'not a url', events: ['*'] }, { url: ['The url field must be a valid URL.'] }],
    ['an ftp url', { url: 'ftp://example.com/hooks', events: ['*'] }, { url: ['The url field must be a valid URL.'] }],
    ['no events', { url: DISABLED.url, events: [] }, { events: ['The events field is required.'] }],
    ['the same event twice', { url: DISABLED.url, events: ['client.created', 'client.created'] }, { events: ['The events field has a duplicate value.'] }],
    ['an unknown event', { url: DISABLED.url, events: ['client.exploded'] }, { 'events.0': ['The selected event is invalid.'] }],
    ['ping, which is not subscribable', { url: DISABLED.url, events: ['ping'] }, { 'events.0': ['The selected event is invalid.'] }],
    ['a wildcard of an unknown category', { url: DISABLED.url, events: ['team.*'] }, { 'events.0': ['The selected event is invalid.'] }],
    ['is_enabled that is no boolean', { url: DISABLED.url, events: ['*'], is_enabled: 'yes' }, { is_enabled: ['The is enabled field must be true or false.'] }],
  ])('answers 422 for %s, creating nothing', async (_, body, errors) => {
    const { api, team } = setup()
    const res = await api.post('/webhooks', body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect(team.team.webhooks.size).toBe(0)
  })
})

describe('GET /webhooks', () => {
  it('lists the team\'s webhooks oldest first, with their secrets; enabled filters them', async () => {
    const { api } = setup()
    const hooks = await receiver()
    const on = (await api.post('/webhooks', { url: hooks.url, events: ['*'] })).body
    const off = (await api.post('/webhooks', DISABLED)).body
    expect((await api.get('/webhooks')).body).toEqual(singlePage([on, off]))
    expect((await api.get('/webhooks', { enabled: true })).body).toEqual(singlePage([on]))
    expect((await api.get('/webhooks', { enabled: false })).body).toEqual(singlePage([off]))
    const paged = await api.get('/webhooks', { limit: 1, page: 2 })
    expect(paged.body.data).toEqual([off])
    expect(paged.body.total_pages).toBe(2)
  })

  it('answers 422 for an enabled that is no boolean', async () => {
    const { api } = setup()
    const res = await api.get('/webhooks', { enabled: 'sometimes' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body)).toEqual(['enabled'])
  })

  it('shows no other team\'s webhooks', async () => {
    const { api, mock } = setup()
    await api.post('/webhooks', DISABLED)
    const other = mock.newTeam().api()
    expect((await other.get('/webhooks')).body).toEqual(singlePage([]))
  })
})

describe('GET, PATCH and DELETE /webhooks/{id}', () => {
  it('retrieves a webhook as it was created', async () => {
    const { api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const res = await api.get(`/webhooks/${made.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(made)
  })

  it('updates url, events and is_enabled; updated_at moves only when something changed', async () => {
    const { api, mock } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    mock.clock.advance(60_000)
    const same = await api.patch(`/webhooks/${made.id}`, { events: ['client.*'] })
    expect(same.status).toBe(200)
    expect(same.body).toEqual(made)
    const res = await api.patch(`/webhooks/${made.id}`, { url: 'https://hooks.example.com/v2', events: ['record.finished', 'case.*'] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...made, url: 'https://hooks.example.com/v2', events: ['record.finished', 'case.*'], updated_at: at(1) })
    expect((await api.get(`/webhooks/${made.id}`)).body).toEqual(res.body)
  })

  it('re-enabling pings the webhook; disabling sends nothing', async () => {
    const { api, mock } = setup()
    const hooks = await receiver()
    const made = (await api.post('/webhooks', { ...DISABLED, url: hooks.url })).body
    const enabled = await api.patch(`/webhooks/${made.id}`, { is_enabled: true })
    expect(enabled.body.is_enabled).toBe(true)
    await mock.services.webhooks.idle()
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping'])
    const disabled = await api.patch(`/webhooks/${made.id}`, { is_enabled: false })
    expect(disabled.body.is_enabled).toBe(false)
    await mock.services.webhooks.idle()
    expect(hooks.received).toHaveLength(1)
  })

  it.each([
    ['an empty body', {}, { errors: ['At least one property is required'] }],
    ['empty events', { events: [] }, { events: ['The events field is required.'] }],
    ['a bad url', { url: 'mailto:someone@example.com' }, { url: ['The url field must be a valid URL.'] }],
  ])('answers 422 for %s and changes nothing', async (_, body, errors) => {
    const { api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const res = await api.patch(`/webhooks/${made.id}`, body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect((await api.get(`/webhooks/${made.id}`)).body).toEqual(made)
  })

  it('deletes a webhook with its log: 204, then 404 everywhere', async () => {
    const { api, team } = setup()
    const hooks = await receiver()
    const made = (await api.post('/webhooks', { url: hooks.url, events: ['*'] })).body
    const res = await api.delete(`/webhooks/${made.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    for (const answer of [
      await api.get(`/webhooks/${made.id}`),
      await api.patch(`/webhooks/${made.id}`, { is_enabled: true }),
      await api.delete(`/webhooks/${made.id}`),
      await api.get(`/webhooks/${made.id}/deliveries`),
    ]) {
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual(NOT_FOUND)
    }
    expect(team.team.webhookDeliveries.size).toBe(0)
  })

  it.each(['get', 'patch', 'delete', 'deliveries'] as const)('%s answers 404 for an unknown id and for another team\'s webhook', async (operation) => {
    const { api, mock } = setup()
    const otherApi = mock.newTeam().api()
    const theirs = (await otherApi.post('/webhooks', DISABLED)).body
    for (const id of [UNKNOWN, theirs.id]) {
      const res =
        operation === 'get'
          ? await api.get(`/webhooks/${id}`)
          : operation === 'patch'
            ? await api.patch(`/webhooks/${id}`, { is_enabled: true })
            : operation === 'delete'
              ? await api.delete(`/webhooks/${id}`)
              : await api.get(`/webhooks/${id}/deliveries`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
    expect((await otherApi.get(`/webhooks/${theirs.id}`)).body).toEqual(theirs)
  })
})

describe('GET /webhooks/{id}/deliveries', () => {
  it('is empty for a webhook that was never sent anything', async () => {
    const { api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const res = await api.get(`/webhooks/${made.id}/deliveries`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([]))
  })

  it('keeps a delivery 90 days of the mock\'s clock', async () => {
    const { api, mock } = setup()
    const hooks = await receiver()
    const made = (await api.post('/webhooks', { url: hooks.url, events: ['*'] })).body
    await mock.services.webhooks.idle()
    mock.clock.advance(90 * 24 * 3600_000)
    expect((await api.get(`/webhooks/${made.id}/deliveries`)).body.total).toBe(1)
    mock.clock.advance(1000)
    expect((await api.get(`/webhooks/${made.id}/deliveries`)).body).toEqual(singlePage([]))
  })
})

describe('roles (docs/specification-notes.md "Roles"; who manages webhooks is the mock\'s choice)', () => {
  it.each(['owner', 'member', 'assumed'] as const)('the %s manages webhooks', async (role) => {
    const { team } = setup()
    const api = team.api(role)
    const made = await api.post('/webhooks', DISABLED)
    expect(made.status).toBe(201)
    expect((await api.patch(`/webhooks/${made.body.id}`, { events: ['*'] })).status).toBe(200)
    expect((await api.get(`/webhooks/${made.body.id}/deliveries`)).status).toBe(200)
    expect((await api.delete(`/webhooks/${made.body.id}`)).status).toBe(204)
  })

  it('a read-only member reads webhooks with their secrets but changes nothing', async () => {
    const { team, api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const readOnly = team.api('read-only')
    expect((await readOnly.get('/webhooks')).body).toEqual(singlePage([made]))
    expect((await readOnly.get(`/webhooks/${made.id}`)).body).toEqual(made)
    expect((await readOnly.get(`/webhooks/${made.id}/deliveries`)).status).toBe(200)
    for (const res of [
      await readOnly.post('/webhooks', DISABLED),
      await readOnly.patch(`/webhooks/${made.id}`, { is_enabled: true }),
      await readOnly.delete(`/webhooks/${made.id}`),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    expect((await api.get('/webhooks')).body).toEqual(singlePage([made]))
  })

  it('an assigned-only member gets 403 on every webhook operation, even for an unknown id', async () => {
    const { team, api } = setup()
    const made = (await api.post('/webhooks', DISABLED)).body
    const assigned = team.api('assigned-only')
    for (const id of [made.id, UNKNOWN]) {
      for (const res of [
        await assigned.get('/webhooks'),
        await assigned.post('/webhooks', DISABLED),
        await assigned.get(`/webhooks/${id}`),
        await assigned.patch(`/webhooks/${id}`, { is_enabled: true }),
        await assigned.delete(`/webhooks/${id}`),
        await assigned.get(`/webhooks/${id}/deliveries`),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
    }
    expect((await api.get('/webhooks')).body).toEqual(singlePage([made]))
  })
})
