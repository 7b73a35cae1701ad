// Every event the mock publishes (docs/specification-notes.md "Events": which operation emits what), caused through
// the API or the control API, and its delivery body {uuid, event, sent_at, data} built with
// deliveryData and checked against contracts/events/delivery.json: one test per event name.
import { describe, expect, it } from 'vitest'
import { describeErrors } from '../../src/contracts/load.ts'
import type { DomainEvent } from '../../src/kernel/events.ts'
import { JOBS } from '../../src/lifecycle/schedule.ts'
import { deliveryData } from '../../src/webhook-delivery/data.ts'
import type { ApiClient } from '../support/api.ts'
import { contracts } from '../support/contracts.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { createClient, createOrganisation } from '../support/requests.ts'

const BASE = 'http://127.0.0.1:4010/api/v2'
const DELIVERY_UUID = '5b0e7c1a-3f2d-4e8b-9a6c-1d2e3f4a5b6c'
const MINUTE = 60_000
const validDelivery = contracts.schemaValidator('events/delivery')

/** The body a webhook would receive for the event, checked against the delivery contract. */
function delivered(mock: TestMock, event: DomainEvent) {
  const body = { uuid: DELIVERY_UUID, event: event.type, sent_at: event.occurredAt, data: deliveryData(mock.store, event, BASE) }
  const valid = validDelivery(body)
  expect(valid ? [] : describeErrors(validDelivery.errors), event.type).toEqual([])
  return body
}

/** The one event of that type published since the mark (a mark is mock.events.length taken earlier). */
function only(mock: TestMock, type: string, mark = 0): DomainEvent {
  const events = mock.events.slice(mark).filter((event) => event.type === type)
  expect(events, type).toHaveLength(1)
  return events[0] as DomainEvent
}

const typesSince = (mock: TestMock, mark: number) => mock.events.slice(mark).map((event) => event.type)

const clientLink = (id: number) => ({ id, show: `${BASE}/clients/${id}` })
const recordLink = (id: number) => ({ id, show: `${BASE}/records/${id}`, download: `${BASE}/records/${id}/download` })
const typedRecordLink = (id: number) => ({ id, type: 'client', show: `${BASE}/records/${id}`, download: `${BASE}/records/${id}/download` })
const caseLink = (id: number) => ({ id, show: `${BASE}/cases/${id}` })

async function ok(response: Promise<{ status: number; text: string; body: any }>, status = 200): Promise<any> {
  const res = await response
  expect(res.status, res.text).toBe(status)
  return res.body
}

async function createRecord(api: ApiClient, client: number, steps: unknown[] = [{ type: 'check.identity' }]): Promise<any> {
  return ok(api.post('/records', { client, steps, notification: false }), 201)
}

async function advance(mock: TestMock, seconds: number): Promise<void> {
  await ok(mock.control.post('/clock/advance', { seconds }))
}

/** A fresh team with a client. */
async function world() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const client = await createClient(api)
  return { mock, team, api, client, teamId: team.team.id }
}

/** A team with a client, a record of it, and a case holding the record. */
async function caseWorld() {
  const w = await world()
  const record = await createRecord(w.api, w.client.id)
  const row = await ok(w.api.post('/cases', { client: w.client.id, name: 'Onboarding' }), 201)
  const items = await ok(w.api.patch(`/cases/${row.id}/items`, [{ id: record.id, type: 'record' }]), 201)
  return { ...w, record, case: row, item: items.data[0] }
}

describe('client events', () => {
  it('client.created: POST /clients', async () => {
    const w = await world()
    const body = delivered(w.mock, only(w.mock, 'client.created'))
    expect(body).toEqual({ uuid: DELIVERY_UUID, event: 'client.created', sent_at: NOW, data: { client: clientLink(w.client.id) } })
  })

  it('client.updated: PATCH /clients/{id} and PUT /clients/{id}/address', async () => {
    const w = await world()
    let mark = w.mock.events.length
    await ok(w.api.patch(`/clients/${w.client.id}`, { reference: 'REF-9' }))
    expect(typesSince(w.mock, mark)).toEqual(['client.updated'])
    expect(delivered(w.mock, only(w.mock, 'client.updated', mark)).data).toEqual({ client: clientLink(w.client.id) })
    mark = w.mock.events.length
    await ok(w.api.put(`/clients/${w.client.id}/address`, { line_1: '1 High Street', postcode: 'AB1 2CD' }))
    expect(typesSince(w.mock, mark)).toEqual(['client.updated'])
  })

  it('client.status: a status change, after client.updated', async () => {
    const w = await world()
    const mark = w.mock.events.length
    await ok(w.api.patch(`/clients/${w.client.id}`, { status: 'approved' }))
    expect(typesSince(w.mock, mark)).toEqual(['client.updated', 'client.status'])
    expect(delivered(w.mock, only(w.mock, 'client.status', mark)).data).toEqual({ client: clientLink(w.client.id) })
  })

  it('client.archived: POST /_mock/clients/{id}/archive', async () => {
    const w = await world()
    w.mock.clock.advance(5 * MINUTE)
    const mark = w.mock.events.length
    const res = await w.mock.control.post(`/clients/${w.client.id}/archive`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(typesSince(w.mock, mark)).toEqual(['client.archived'])
    expect(delivered(w.mock, only(w.mock, 'client.archived', mark))).toEqual({ uuid: DELIVERY_UUID, event: 'client.archived', sent_at: at(5), data: { client: clientLink(w.client.id) } })
    expect(await ok(w.api.get(`/clients/${w.client.id}`))).toEqual({ ...w.client, updated_at: at(5), archived_at: at(5) })
    const other = await createClient(w.api, 'Bob')
    const archived = await ok(w.api.get('/clients', { visibility: 'archived' }))
    expect(archived.data.map((client: { id: number }) => client.id)).toEqual([w.client.id])
    const active = await ok(w.api.get('/clients', { visibility: 'active' }))
    expect(active.data.map((client: { id: number }) => client.id)).toEqual([other.id])
    // Archiving again changes nothing and publishes nothing.
    w.mock.clock.advance(MINUTE)
    expect((await w.mock.control.post(`/clients/${w.client.id}/archive`)).status).toBe(204)
    expect((await ok(w.api.get(`/clients/${w.client.id}`))).archived_at).toBe(at(5))
    expect(typesSince(w.mock, mark)).toEqual(['client.archived', 'client.created'])
  })

  it('client.unarchived: POST /_mock/clients/{id}/unarchive', async () => {
    const w = await world()
    expect((await w.mock.control.post(`/clients/${w.client.id}/archive`)).status).toBe(204)
    w.mock.clock.advance(5 * MINUTE)
    const mark = w.mock.events.length
    expect((await w.mock.control.post(`/clients/${w.client.id}/unarchive`)).status).toBe(204)
    expect(typesSince(w.mock, mark)).toEqual(['client.unarchived'])
    expect(delivered(w.mock, only(w.mock, 'client.unarchived', mark)).data).toEqual({ client: clientLink(w.client.id) })
    expect(await ok(w.api.get(`/clients/${w.client.id}`))).toEqual({ ...w.client, updated_at: at(5), archived_at: null })
    // A client that is not archived is left as it is.
    expect((await w.mock.control.post(`/clients/${w.client.id}/unarchive`)).status).toBe(204)
    expect(w.mock.events).toHaveLength(mark + 1)
  })

  it('archive and unarchive of an unknown client are 404s that change nothing', async () => {
    const mock = createTestMock()
    for (const action of ['archive', 'unarchive']) {
      const res = await mock.control.post(`/clients/987654321/${action}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Client not found' })
    }
    expect(mock.events).toEqual([])
  })

  it('client.deleted: DELETE /clients/{id}, with only the id', async () => {
    const w = await world()
    const mark = w.mock.events.length
    await ok(w.api.delete(`/clients/${w.client.id}`), 204)
    expect(delivered(w.mock, only(w.mock, 'client.deleted', mark)).data).toEqual({ client: { id: w.client.id } })
  })

  it('client.organisations: joining an organisation', async () => {
    const w = await world()
    const mark = w.mock.events.length
    await createOrganisation(w.api, { name: 'Lee Holdings Ltd' }, [w.client.id])
    expect(delivered(w.mock, only(w.mock, 'client.organisations', mark)).data).toEqual({ client: clientLink(w.client.id) })
  })

  it('client.record: a new record for the client, after record.created', async () => {
    const w = await world()
    const mark = w.mock.events.length
    const record = await createRecord(w.api, w.client.id)
    expect(typesSince(w.mock, mark)).toEqual(['record.created', 'client.record'])
    expect(delivered(w.mock, only(w.mock, 'client.record', mark)).data).toEqual({ client: clientLink(w.client.id), record: recordLink(record.id) })
  })
})

describe('client deletion reminders', () => {
  it('client.deletion_reminder_updated: a client created with a deletion date, then the date changed', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const client = await ok(api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'reminder@example.com', deletion_date: '2026-08-01' }), 201)
    expect(typesSince(mock, 0)).toEqual(['client.created', 'client.deletion_reminder_updated'])
    expect(delivered(mock, only(mock, 'client.deletion_reminder_updated')).data).toEqual({ client: clientLink(client.id) })
    const mark = mock.events.length
    await ok(api.patch(`/clients/${client.id}`, { deletion_date: '2026-09-01' }))
    expect(typesSince(mock, mark)).toEqual(['client.updated', 'client.deletion_reminder_updated'])
    // The same date again changes nothing.
    await ok(api.patch(`/clients/${client.id}`, { deletion_date: '2026-09-01' }))
    expect(mock.events).toHaveLength(mark + 2)
  })

  it('client.deletion_reminder_deleted: the deletion date removed (PATCH null); the reminder never comes', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const client = await ok(api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'reminder@example.com', deletion_date: '2026-07-02' }), 201)
    const mark = mock.events.length
    await ok(api.patch(`/clients/${client.id}`, { deletion_date: null }))
    expect(typesSince(mock, mark)).toEqual(['client.updated', 'client.deletion_reminder_deleted'])
    expect(delivered(mock, only(mock, 'client.deletion_reminder_deleted', mark)).data).toEqual({ client: clientLink(client.id) })
    await advance(mock, 3 * 86_400)
    expect(typesSince(mock, mark)).toEqual(['client.updated', 'client.deletion_reminder_deleted'])
  })

  it('client.deletion_reminder_due: when the clock reaches the date (its first moment, UTC), once, and only for the date the client has then', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const client = await ok(api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'reminder@example.com', deletion_date: '2026-07-03' }), 201)
    const other = await ok(api.post('/clients', { name: { first_name: 'Bob', last_name: 'Lee' }, email: 'other@example.com', deletion_date: '2026-07-02' }), 201)
    // Moved later, so the first date passes in silence; the other client is deleted before its date.
    await ok(api.patch(`/clients/${client.id}`, { deletion_date: '2026-07-05' }))
    await ok(api.delete(`/clients/${other.id}`), 204)
    const mark = mock.events.length
    // 2026-07-04T12:00:00Z, then 2026-07-05T12:00:00Z.
    await advance(mock, 3 * 86_400)
    expect(typesSince(mock, mark)).toEqual([])
    await advance(mock, 86_400)
    expect(typesSince(mock, mark)).toEqual(['client.deletion_reminder_due'])
    const body = delivered(mock, only(mock, 'client.deletion_reminder_due', mark))
    expect(body).toEqual({ uuid: DELIVERY_UUID, event: 'client.deletion_reminder_due', sent_at: '2026-07-05T00:00:00Z', data: { client: clientLink(client.id) } })
    await advance(mock, 10 * 86_400)
    expect(typesSince(mock, mark)).toEqual(['client.deletion_reminder_due'])
  })

  it('a deletion date set to today or earlier is due at once, right after client.deletion_reminder_updated', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const client = await createClient(api)
    const mark = mock.events.length
    await ok(api.patch(`/clients/${client.id}`, { deletion_date: '2026-07-01' }))
    expect(typesSince(mock, mark)).toEqual(['client.updated', 'client.deletion_reminder_updated', 'client.deletion_reminder_due'])
    expect(only(mock, 'client.deletion_reminder_due', mark).occurredAt).toBe(NOW)
    expect(mock.scheduler.pending().filter((job) => job.kind === JOBS.deletionDue && job.subject === client.id)).toEqual([])
  })

  it('seeded deletion dates: those after the clock started are announced when reached, earlier ones never', async () => {
    const mock = createTestMock()
    expect(mock.events).toEqual([])
    const seeded = [...mock.store.allTeams()].flatMap((team) => team.clients.filter((client) => client.deletion_date !== null).map((client) => ({ team: team.id, client })))
    const later = seeded.filter(({ client }) => (client.deletion_date as string) > '2026-07-01').sort((a, b) => (a.client.deletion_date as string).localeCompare(b.client.deletion_date as string) || a.client.id - b.client.id)
    expect(later.length).toBeGreaterThan(0)
    expect(seeded.some(({ client }) => (client.deletion_date as string) <= '2026-07-01')).toBe(true)
    const first = later[0] as (typeof later)[number]
    const seconds = (Date.parse(`${first.client.deletion_date}T00:00:00Z`) - Date.parse(NOW)) / 1000
    await advance(mock, seconds)
    const due = mock.events.filter((event) => event.type === 'client.deletion_reminder_due')
    const expected = later.filter(({ client }) => client.deletion_date === first.client.deletion_date)
    expect(due.map((event) => [event.teamId, event.subjects.client, event.occurredAt])).toEqual(
      expected.map(({ team, client }) => [team, client.id, `${first.client.deletion_date}T00:00:00Z`]),
    )
  })
})

describe('record events', () => {
  it('record.created: POST /records, data.case null (a new record is in no case)', async () => {
    const w = await world()
    const mark = w.mock.events.length
    const record = await createRecord(w.api, w.client.id)
    const body = delivered(w.mock, only(w.mock, 'record.created', mark))
    expect(body).toEqual({ uuid: DELIVERY_UUID, event: 'record.created', sent_at: NOW, data: { record: typedRecordLink(record.id), client: clientLink(w.client.id), case: null } })
  })

  it('record.updated: PATCH /records/{id}, with data.case the case holding the record', async () => {
    const w = await caseWorld()
    const mark = w.mock.events.length
    await ok(w.api.patch(`/records/${w.record.id}`, { has_reminders: true }))
    expect(typesSince(w.mock, mark)).toEqual(['record.updated'])
    expect(delivered(w.mock, only(w.mock, 'record.updated', mark)).data).toEqual({ record: typedRecordLink(w.record.id), client: clientLink(w.client.id), case: caseLink(w.case.id) })
    // Out of the case again: case null.
    await ok(w.api.delete(`/cases/${w.case.id}/items/${w.item.id}`), 204)
    expect((deliveryData(w.mock.store, only(w.mock, 'record.updated', mark), BASE) as { case: unknown }).case).toBeNull()
  })

  it('record.finished: every step done and the checks back, after record.updated', async () => {
    const w = await world()
    const record = await createRecord(w.api, w.client.id)
    await ok(w.mock.control.post(`/records/${record.id}/complete`, {}))
    const mark = w.mock.events.length
    await advance(w.mock, 60)
    expect(typesSince(w.mock, mark)).toEqual(['record.updated', 'record.finished'])
    expect(delivered(w.mock, only(w.mock, 'record.finished', mark)).data).toEqual({ record: typedRecordLink(record.id), client: clientLink(w.client.id), case: null })
  })

  it('record.finished: expiry with steps left', async () => {
    const w = await world()
    const record = await createRecord(w.api, w.client.id)
    const mark = w.mock.events.length
    await ok(w.api.post(`/records/${record.id}/expire`))
    expect(typesSince(w.mock, mark)).toEqual(['record.updated', 'record.finished'])
    delivered(w.mock, only(w.mock, 'record.finished', mark))
  })

  it('record.reviewed and record.unreviewed: PATCH is_reviewed, each after record.updated', async () => {
    const w = await caseWorld()
    let mark = w.mock.events.length
    await ok(w.api.patch(`/records/${w.record.id}`, { is_reviewed: true }))
    expect(typesSince(w.mock, mark)).toEqual(['record.updated', 'record.reviewed'])
    expect(delivered(w.mock, only(w.mock, 'record.reviewed', mark)).data).toEqual({ record: typedRecordLink(w.record.id), client: clientLink(w.client.id), case: caseLink(w.case.id) })
    mark = w.mock.events.length
    await ok(w.api.patch(`/records/${w.record.id}`, { is_reviewed: false }))
    expect(typesSince(w.mock, mark)).toEqual(['record.updated', 'record.unreviewed'])
    delivered(w.mock, only(w.mock, 'record.unreviewed', mark))
  })
})

describe('case events', () => {
  it('case.created: POST /cases', async () => {
    const w = await world()
    const mark = w.mock.events.length
    const row = await ok(w.api.post('/cases', { client: w.client.id, name: 'Onboarding' }), 201)
    expect(delivered(w.mock, only(w.mock, 'case.created', mark)).data).toEqual({ case: caseLink(row.id), client: clientLink(w.client.id) })
  })

  it('case.updated: name or reference changed', async () => {
    const w = await caseWorld()
    const mark = w.mock.events.length
    await ok(w.api.patch(`/cases/${w.case.id}`, { name: 'Renamed', reference: 'C-1' }))
    expect(typesSince(w.mock, mark)).toEqual(['case.updated'])
    delivered(w.mock, only(w.mock, 'case.updated', mark))
  })

  it('case.archived and case.unarchived: PATCH is_archived', async () => {
    const w = await caseWorld()
    const mark = w.mock.events.length
    await ok(w.api.patch(`/cases/${w.case.id}`, { is_archived: true }))
    await ok(w.api.patch(`/cases/${w.case.id}`, { is_archived: false }))
    expect(typesSince(w.mock, mark)).toEqual(['case.archived', 'case.unarchived'])
    delivered(w.mock, only(w.mock, 'case.archived', mark))
    delivered(w.mock, only(w.mock, 'case.unarchived', mark))
  })

  it('case.status with case.approved, then with case.rejected: POST /cases/{id}/reviews', async () => {
    const w = await caseWorld()
    const mark = w.mock.events.length
    await ok(w.api.post(`/cases/${w.case.id}/reviews`, { status: 'approved' }), 201)
    await ok(w.api.post(`/cases/${w.case.id}/reviews`, { status: 'rejected' }), 201)
    expect(typesSince(w.mock, mark)).toEqual(['case.status', 'case.approved', 'case.status', 'case.rejected'])
    for (const event of w.mock.events.slice(mark)) expect(delivered(w.mock, event).data).toEqual({ case: caseLink(w.case.id), client: clientLink(w.client.id) })
  })

  it('case.item_added and case.item_removed: PATCH /cases/{id}/items and DELETE an item', async () => {
    const w = await world()
    const record = await createRecord(w.api, w.client.id)
    const row = await ok(w.api.post('/cases', { client: w.client.id, name: 'Onboarding' }), 201)
    const mark = w.mock.events.length
    const items = await ok(w.api.patch(`/cases/${row.id}/items`, [{ id: record.id, type: 'record' }]), 201)
    await ok(w.api.delete(`/cases/${row.id}/items/${items.data[0].id}`), 204)
    expect(typesSince(w.mock, mark)).toEqual(['case.item_added', 'case.item_removed'])
    expect(delivered(w.mock, only(w.mock, 'case.item_added', mark))).toEqual({ uuid: DELIVERY_UUID, event: 'case.item_added', sent_at: NOW, data: { case: caseLink(row.id), client: clientLink(w.client.id) } })
    delivered(w.mock, only(w.mock, 'case.item_removed', mark))
  })
})

describe('form events', () => {
  async function formWorld() {
    const w = await world()
    const template = await ok(
      w.api.post('/form-templates', { name: 'Questions', fields: [{ id: 'root', type: 'section', fields: ['q'] }, { id: 'q', type: 'text', label: 'Question' }] }),
      201,
    )
    return { ...w, template }
  }

  it('form.sent: one per form step of a new record, after record.created and before client.record', async () => {
    const w = await formWorld()
    const mark = w.mock.events.length
    const record = await createRecord(w.api, w.client.id, [{ type: 'form', preferences: { form: w.template.reference } }])
    expect(typesSince(w.mock, mark)).toEqual(['record.created', 'form.sent', 'client.record'])
    const reference = record.steps[0].form as string
    expect(delivered(w.mock, only(w.mock, 'form.sent', mark))).toEqual({
      uuid: DELIVERY_UUID,
      event: 'form.sent',
      sent_at: NOW,
      data: {
        form: { reference, show: `${BASE}/clients/${w.client.id}/forms/${reference}` },
        client: clientLink(w.client.id),
        record: recordLink(record.id),
        case: null,
      },
    })
  })

  it('form.submitted: the client submits the form step, with data.case the case holding the record', async () => {
    const w = await formWorld()
    const record = await createRecord(w.api, w.client.id, [{ type: 'form', preferences: { form: w.template.reference } }])
    const row = await ok(w.api.post('/cases', { client: w.client.id, name: 'Onboarding' }), 201)
    await ok(w.api.patch(`/cases/${row.id}/items`, [{ id: record.id, type: 'record' }]), 201)
    const mark = w.mock.events.length
    await ok(w.mock.control.post(`/records/${record.id}/complete`, {}))
    expect(typesSince(w.mock, mark)).toEqual(['form.submitted', 'record.updated', 'record.finished'])
    const reference = record.steps[0].form as string
    expect(delivered(w.mock, only(w.mock, 'form.submitted', mark)).data).toEqual({
      form: { reference, show: `${BASE}/clients/${w.client.id}/forms/${reference}` },
      client: clientLink(w.client.id),
      record: recordLink(record.id),
      case: caseLink(row.id),
    })
  })
})

describe('ping and the shapes of events the mock never publishes', () => {
  it('ping: data is ["ping"]', () => {
    const mock = createTestMock()
    const body = delivered(mock, { type: 'ping', teamId: 1, occurredAt: NOW, subjects: {} })
    expect(body.data).toEqual(['ping'])
  })

  it('form.deleted has no data.client; a form outside any record has no data.record or data.case', () => {
    const mock = createTestMock()
    const reference = '6f1d2c3b-4a59-4e68-9d7c-8b6a5f4e3d2c'
    const form = { reference, show: `${BASE}/clients/12/forms/${reference}` }
    expect(delivered(mock, { type: 'form.deleted', teamId: 1, occurredAt: NOW, subjects: { form: reference, client: 12 } }).data).toEqual({ form })
    expect(delivered(mock, { type: 'form.updated', teamId: 1, occurredAt: NOW, subjects: { form: reference, client: 12 } }).data).toEqual({ form, client: clientLink(12) })
  })

  it('watchlist.updated follows the record events with data.check', () => {
    const mock = createTestMock()
    const body = delivered(mock, { type: 'watchlist.updated', teamId: 1, occurredAt: NOW, subjects: { check: 7, record: 8, client: 9 } })
    expect(body.data).toEqual({ check: { id: 7, show: `${BASE}/checks/7` }, record: typedRecordLink(8), client: clientLink(9), case: null })
  })

  it('a trailing slash on the API base makes no double slash', () => {
    const mock = createTestMock()
    expect(deliveryData(mock.store, { type: 'client.created', teamId: 1, occurredAt: NOW, subjects: { client: 5 } }, `${BASE}/`)).toEqual({ client: clientLink(5) })
  })
})
