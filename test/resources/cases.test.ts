// Cases (rules 4 to 7 of docs/specification-notes.md "Rules of the service"; docs/specification-notes.md "Cases", docs/specification-notes.md "Events",
// docs/specification-notes.md "Wire details").
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { createClient } from '../support/requests.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { giveRecord } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'
import type { Role } from '../../src/kernel/roles.ts'
import { setCaseAssignees } from '../../src/resources/cases/index.ts'

const BASE = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const UNKNOWN = 987_654_321

type NewTeam = ReturnType<TestMock['newTeam']>

function setup(options: { casesEnabled?: boolean } = {}) {
  const mock = createTestMock()
  const team = mock.newTeam(options)
  return { mock, team, api: team.api }
}

async function createCase(api: ApiClient, body: Record<string, unknown>): Promise<any> {
  const res = await api.post('/cases', body)
  expect(res.status, res.text).toBe(201)
  return res.body
}

function caseJson(id: number, client: number, overrides: Record<string, unknown> = {}) {
  return {
    object: 'case',
    id,
    name: 'Onboarding',
    reference: null,
    status: 'action_required',
    client,
    items: null,
    assignees: null,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...overrides,
  }
}

const memberJson = (team: NewTeam, role: Role) => {
  const user = team.users[role]
  return { object: 'team_member', id: user.id, name: user.name, email: user.email, role }
}

/** A team with a client and a case for it; the client has two records. */
async function world() {
  const { mock, team, api } = setup()
  const client = await createClient(api())
  const made = await createCase(api(), { client: client.id, name: 'Onboarding' })
  const steps = [{ type: 'check.identity' as const }]
  const records = [giveRecord(mock, team.team, client.id, { steps }), giveRecord(mock, team.team, client.id, { steps })]
  return { mock, team, api, client: client.id, case: made.id as number, records: records.map((record) => record.id) }
}

const eventsOf = (mock: TestMock, from = 0) => mock.events.slice(from).map((event) => [event.type, event.subjects])

describe('POST /cases', () => {
  it('creates a case that starts action_required with no items, and publishes case.created', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const before = mock.events.length
    const res = await api().post('/cases', { client: client.id, name: 'Onboarding', reference: 'CASE-1' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(caseJson(res.body.id, client.id, { reference: 'CASE-1' }))
    expect(eventsOf(mock, before)).toEqual([['case.created', { case: res.body.id, client: client.id }]])
    expect((await api().get(`/cases/${res.body.id}`)).body).toEqual(res.body)
  })

  it('never deduplicates (rule 7 of docs/specification-notes.md "Rules of the service")', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const a = await createCase(api(), { client: client.id, name: 'Onboarding' })
    const b = await createCase(api(), { client: client.id, name: 'Onboarding' })
    expect(a.id).not.toBe(b.id)
  })

  it.each([
    ['unknown', () => UNKNOWN],
    ['another team', (mock: TestMock) => mock.store.allTeams().next().value?.clients.all()[0]?.id],
  ])('answers 422 keyed client for a client of %s', async (_, clientOf) => {
    const { mock, api } = setup()
    const res = await api().post('/cases', { client: clientOf(mock), name: 'Onboarding' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ client: ['The selected client is invalid.'] })
  })

  it('takes the client id as a string of digits and returns the number (docs/behaviour-notes.md "Validation (422)")', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().post('/cases', { client: String(client.id), name: 'Onboarding' })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual(caseJson(res.body.id, client.id))
  })

  it('answers an unknown client and a blank name in one 422', async () => {
    const { mock, api } = setup()
    const before = structuredClone(mock.store.data)
    const res = await api().post('/cases', { client: String(UNKNOWN), name: '  ', reference: 5 })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ client: ['The selected client is invalid.'], name: ['The name field is required.'], reference: ['The reference field must be a string.'] })
    expect(mock.store.data).toEqual(before)
  })

  it('answers 422 for a client an assigned-only member is not assigned to', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api('assigned-only').post('/cases', { client: client.id, name: 'Onboarding' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ client: ['The selected client is invalid.'] })
  })

  it('requires client and name, and takes reference only as a string', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const missing = await api().post('/cases', {})
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({ client: ['The client field is required.'], name: ['The name field is required.'] })
    const nullReference = await api().post('/cases', { client: client.id, name: 'Onboarding', reference: null })
    expect(nullReference.status).toBe(422)
    // The validator's wording for null where the contract takes no null (docs/behaviour-notes.md "Validation (422)").
    expect(nullReference.body).toEqual({ reference: ['The reference field is required.'] })
  })

  it('assigns an assigned-only creator, who can then read the case', async () => {
    const { team, api } = setup()
    const client = await createClient(api())
    await api().post(`/clients/${client.id}/assignees`, [{ type: 'team_member', team_member: team.users['assigned-only'].id }])
    const created = await createCase(api('assigned-only'), { client: client.id, name: 'Mine' })
    expect(created.assignees).toEqual([team.users['assigned-only'].id])
    expect((await api('assigned-only').get(`/cases/${created.id}`)).body).toEqual(created)
    expect((await api('assigned-only').get(`/cases/${created.id}/assignees`)).body.data[0].team_member).toEqual(memberJson(team, 'assigned-only'))
  })

  it('is refused to read-only members', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api('read-only').post('/cases', { client: client.id, name: 'Onboarding' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('GET /cases/{id}', () => {
  it('answers 403 to an assigned-only member not assigned to the case', async () => {
    const w = await world()
    const res = await w.api('assigned-only').get(`/cases/${w.case}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  it('expands client, items (entity collapsed) and assignees (a list object of 10)', async () => {
    const w = await world()
    const added = await w.api().patch(`/cases/${w.case}/items`, w.records.map((id) => ({ id, type: 'record' })))
    expect(added.status).toBe(201)
    const row = w.team.team.cases.get(w.case)!
    w.mock.store.changing(() => setCaseAssignees(w.mock.teamContext(w.team.team), row, [w.team.users.owner.id, w.team.users.member.id]))
    const itemIds = added.body.data.map((item: { id: number }) => item.id)
    const collapsed = await w.api().get(`/cases/${w.case}`)
    expect(collapsed.body).toEqual(caseJson(w.case, w.client, { items: itemIds, assignees: [w.team.users.owner.id, w.team.users.member.id] }))
    const res = await w.api().get(`/cases/${w.case}`, { expand: 'client,items,assignees' })
    expect(res.status).toBe(200)
    expect(res.body.client).toEqual((await w.api().get(`/clients/${w.client}`)).body)
    expect(res.body.items).toEqual(
      w.records.map((record, index) => ({ object: 'case_item', id: itemIds[index], entity: { id: record, type: 'record' }, created_at: NOW, updated_at: NOW })),
    )
    expect(res.body.assignees).toEqual({
      object: 'list',
      data: [memberJson(w.team, 'owner'), memberJson(w.team, 'member')],
      total: 2,
      count: 2,
      limit: 10,
      has_more: false,
      url: `${BASE}/cases/${w.case}/assignees`,
    })
  })
})

describe('PATCH /cases/{id}', () => {
  it('changes name and reference, publishing case.updated', async () => {
    const w = await world()
    w.mock.clock.advance(60_000)
    const before = w.mock.events.length
    const res = await w.api().patch(`/cases/${w.case}`, { name: 'Renamed', reference: 'R-1' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(caseJson(w.case, w.client, { name: 'Renamed', reference: 'R-1', updated_at: at(1) }))
    expect(eventsOf(w.mock, before)).toEqual([['case.updated', { case: w.case, client: w.client }]])
    const cleared = await w.api().patch(`/cases/${w.case}`, { reference: null })
    expect(cleared.body.reference).toBeNull()
  })

  it('archives and unarchives, publishing case.archived / case.unarchived; a no-op changes nothing', async () => {
    const w = await world()
    w.mock.clock.advance(60_000)
    const before = w.mock.events.length
    const archived = await w.api().patch(`/cases/${w.case}`, { is_archived: true })
    expect(archived.body).toEqual(caseJson(w.case, w.client, { updated_at: at(1), archived_at: at(1) }))
    const again = await w.api().patch(`/cases/${w.case}`, { is_archived: true, name: 'Onboarding' })
    expect(again.body).toEqual(archived.body)
    w.mock.clock.advance(60_000)
    const unarchived = await w.api().patch(`/cases/${w.case}`, { is_archived: false })
    expect(unarchived.body).toEqual(caseJson(w.case, w.client, { updated_at: at(2), archived_at: null }))
    expect(eventsOf(w.mock, before)).toEqual([
      ['case.archived', { case: w.case, client: w.client }],
      ['case.unarchived', { case: w.case, client: w.client }],
    ])
  })

  it('needs at least one property', async () => {
    const w = await world()
    const res = await w.api().patch(`/cases/${w.case}`, {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('answers 404 before 422, and 403 to read-only members', async () => {
    const w = await world()
    const unknown = await w.api().patch(`/cases/${UNKNOWN}`, {})
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Case not found' })
    const readOnly = await w.api('read-only').patch(`/cases/${w.case}`, { name: 'X' })
    expect(readOnly.status).toBe(403)
    expect(readOnly.body).toEqual(FORBIDDEN)
  })
})

describe('case reviews', () => {
  it('set any status, store from_status and reviewed_by, and publish case.status plus case.approved / case.rejected', async () => {
    const w = await world()
    const before = w.mock.events.length
    const subjects = { case: w.case, client: w.client }
    w.mock.clock.advance(60_000)
    const approved = await w.api('member').post(`/cases/${w.case}/reviews`, { status: 'approved' })
    expect(approved.status).toBe(201)
    expect(approved.body).toEqual({
      object: 'case_review',
      id: approved.body.id,
      reviewed_by: w.team.users.member.id,
      status: 'approved',
      from_status: 'action_required',
      created_at: at(1),
      updated_at: at(1),
    })
    expect(w.team.team.cases.get(w.case)?.status_changed_at).toBe(at(1))
    w.mock.clock.advance(60_000)
    const rejected = await w.api().post(`/cases/${w.case}/reviews`, { status: 'rejected' })
    expect(rejected.body).toMatchObject({ status: 'rejected', from_status: 'approved', reviewed_by: w.team.users.owner.id })
    const onHold = await w.api().post(`/cases/${w.case}/reviews`, { status: 'on_hold' })
    expect(onHold.body).toMatchObject({ status: 'on_hold', from_status: 'rejected' })
    expect(eventsOf(w.mock, before)).toEqual([
      ['case.status', subjects],
      ['case.approved', subjects],
      ['case.status', subjects],
      ['case.rejected', subjects],
      ['case.status', subjects],
    ])
    expect((await w.api().get(`/cases/${w.case}`)).body).toEqual(caseJson(w.case, w.client, { status: 'on_hold', updated_at: at(2) }))
    expect(w.team.team.cases.get(w.case)?.status_changed_at).toBe(at(2))
  })

  it('record a review to the current status without changing the case or publishing', async () => {
    const w = await world()
    const before = w.mock.events.length
    w.mock.clock.advance(60_000)
    const res = await w.api().post(`/cases/${w.case}/reviews`, { status: 'action_required' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'action_required', from_status: 'action_required' })
    expect(w.mock.events.length).toBe(before)
    expect((await w.api().get(`/cases/${w.case}`)).body.updated_at).toBe(NOW)
  })

  it('list oldest first, with reviewed_by expanded to the team member', async () => {
    const w = await world()
    const first = (await w.api('member').post(`/cases/${w.case}/reviews`, { status: 'awaiting_response' })).body
    const second = (await w.api().post(`/cases/${w.case}/reviews`, { status: 'reviewed_pending_decision' })).body
    const list = await w.api().get(`/cases/${w.case}/reviews`)
    expect(list.body).toEqual(singlePage([first, second]))
    const expanded = await w.api().get(`/cases/${w.case}/reviews`, { expand: 'reviewed_by' })
    expect(expanded.body.data.map((review: { reviewed_by: unknown }) => review.reviewed_by)).toEqual([memberJson(w.team, 'member'), memberJson(w.team, 'owner')])
  })

  it('reject an unknown status and answer `Case not found.` for an unknown case', async () => {
    const w = await world()
    const bad = await w.api().post(`/cases/${w.case}/reviews`, { status: 'done' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ status: ['The selected status is invalid.'] })
    for (const res of [await w.api().get(`/cases/${UNKNOWN}/reviews`), await w.api().post(`/cases/${UNKNOWN}/reviews`, { status: 'done' })]) {
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Case not found.' })
    }
  })
})

describe('case items', () => {
  it('PATCH adds only new records: 201 with a list object of the new items, 204 when nothing is new', async () => {
    const w = await world()
    const [first, second] = w.records as [number, number]
    const before = w.mock.events.length
    const one = await w.api().patch(`/cases/${w.case}/items`, [{ id: first, type: 'record' }, { id: first, type: 'record' }])
    expect(one.status).toBe(201)
    const item = { object: 'case_item', id: one.body.data[0].id, entity: { id: first, type: 'record' }, created_at: NOW, updated_at: NOW }
    expect(one.body).toEqual({ object: 'list', data: [item], total: 1, count: 1, limit: 100, has_more: false, url: `${BASE}/cases/${w.case}/items` })
    const both = await w.api().patch(`/cases/${w.case}/items`, [{ id: first, type: 'record' }, { id: second, type: 'record' }])
    expect(both.status).toBe(201)
    expect(both.body.data.map((row: { entity: { id: number } }) => row.entity.id)).toEqual([second])
    const none = await w.api().patch(`/cases/${w.case}/items`, [{ id: second, type: 'record' }])
    expect(none.status).toBe(204)
    expect(none.text).toBe('')
    expect(eventsOf(w.mock, before)).toEqual([
      ['case.item_added', { case: w.case, client: w.client, record: first }],
      ['case.item_added', { case: w.case, client: w.client, record: second }],
    ])
  })

  it('never change the case status, even of a reviewed case (rule 6 of docs/specification-notes.md "Rules of the service")', async () => {
    const w = await world()
    await w.api().post(`/cases/${w.case}/reviews`, { status: 'approved' })
    const before = w.mock.events.length
    await w.api().patch(`/cases/${w.case}/items`, [{ id: w.records[0], type: 'record' }])
    expect((await w.api().get(`/cases/${w.case}`)).body.status).toBe('approved')
    expect(eventsOf(w.mock, before).map(([type]) => type)).toEqual(['case.item_added'])
  })

  it('leave the record without a case property (rules 4 and 5 of docs/specification-notes.md "Rules of the service")', async () => {
    const w = await world()
    const record = w.records[0] as number
    const before = (await w.api().get(`/records/${record}`)).body
    await w.api().patch(`/cases/${w.case}/items`, [{ id: record, type: 'record' }])
    const after = (await w.api().get(`/records/${record}`)).body
    expect(after).toEqual(before)
    expect(after).not.toHaveProperty('case')
  })

  it('cannot be used to filter records: GET /records ignores a case parameter (rule 5 of docs/specification-notes.md "Rules of the service")', async () => {
    const w = await world()
    await w.api().patch(`/cases/${w.case}/items`, [{ id: w.records[0], type: 'record' }])
    const all = await w.api().get('/records')
    const filtered = await w.api().get('/records', { case: w.case })
    expect(filtered.status).toBe(200)
    expect(filtered.body.data).toEqual(all.body.data)
    expect(all.body.total).toBe(2)
  })

  it('refuse records of another client, of another team or unknown, keyed by the entry, and change nothing', async () => {
    const w = await world()
    const other = await createClient(w.api(), 'Bo', 'Hart')
    const othersRecord = giveRecord(w.mock, w.team.team, other.id)
    const otherTeam = w.mock.newTeam()
    const otherClient = await createClient(otherTeam.api())
    const foreign = giveRecord(w.mock, otherTeam.team, otherClient.id)
    const before = w.mock.events.length
    const res = await w.api().patch(`/cases/${w.case}/items`, [
      { id: w.records[0], type: 'record' },
      { id: othersRecord.id, type: 'record' },
      { id: foreign.id, type: 'record' },
      { id: UNKNOWN, type: 'record' },
    ])
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      '1.id': ['The selected 1.id is invalid.'],
      '2.id': ['The selected 2.id is invalid.'],
      '3.id': ['The selected 3.id is invalid.'],
    })
    expect(w.team.team.cases.get(w.case)?.items).toEqual([])
    expect(w.mock.events.length).toBe(before)
  })

  it('refuse a body that is not a list of record references', async () => {
    const w = await world()
    const res = await w.api().patch(`/cases/${w.case}/items`, [{ id: w.records[0], type: 'client' }])
    expect(res.status).toBe(422)
    expect(Object.keys(res.body)).toEqual(['0.type'])
  })

  it('list in the order added, with entity expanded to the record (one level)', async () => {
    const w = await world()
    const [first, second] = w.records as [number, number]
    await w.api().patch(`/cases/${w.case}/items`, [{ id: second, type: 'record' }])
    await w.api().patch(`/cases/${w.case}/items`, [{ id: first, type: 'record' }])
    const list = await w.api().get(`/cases/${w.case}/items`)
    expect(list.status).toBe(200)
    expect(list.body.data.map((item: { entity: unknown }) => item.entity)).toEqual([
      { id: second, type: 'record' },
      { id: first, type: 'record' },
    ])
    const expanded = await w.api().get(`/cases/${w.case}/items`, { expand: 'entity' })
    expect(expanded.body.data.map((item: { entity: unknown }) => item.entity)).toEqual([
      (await w.api().get(`/records/${second}`)).body,
      (await w.api().get(`/records/${first}`)).body,
    ])
  })

  it('DELETE removes one item (the record stays) and publishes case.item_removed', async () => {
    const w = await world()
    const added = await w.api().patch(`/cases/${w.case}/items`, w.records.map((id) => ({ id, type: 'record' })))
    const [firstItem, secondItem] = added.body.data.map((item: { id: number }) => item.id)
    const before = w.mock.events.length
    const res = await w.api().delete(`/cases/${w.case}/items/${firstItem}`)
    expect(res.status).toBe(204)
    expect((await w.api().get(`/cases/${w.case}`)).body.items).toEqual([secondItem])
    expect((await w.api().get(`/records/${w.records[0]}`)).status).toBe(200)
    expect(eventsOf(w.mock, before)).toEqual([['case.item_removed', { case: w.case, client: w.client, record: w.records[0] }]])
    const again = await w.api().delete(`/cases/${w.case}/items/${firstItem}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ error: 'Case item not found' })
  })

  it('DELETE of an item of another case is 404 Case item not found; an unknown case is `Case not found.`', async () => {
    const w = await world()
    const added = await w.api().patch(`/cases/${w.case}/items`, [{ id: w.records[0], type: 'record' }])
    const other = await createCase(w.api(), { client: w.client, name: 'Other' })
    const res = await w.api().delete(`/cases/${other.id}/items/${added.body.data[0].id}`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Case item not found' })
    for (const unknown of [
      await w.api().get(`/cases/${UNKNOWN}/items`),
      await w.api().patch(`/cases/${UNKNOWN}/items`, []),
      await w.api().delete(`/cases/${UNKNOWN}/items/${added.body.data[0].id}`),
    ]) {
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual({ error: 'Case not found.' })
    }
  })

  it('go with the client: deleting the client deletes its records, cases and case reviews, leaving nothing behind', async () => {
    const w = await world()
    await w.api().patch(`/cases/${w.case}/items`, w.records.map((id) => ({ id, type: 'record' })))
    await w.api().post(`/cases/${w.case}/reviews`, { status: 'approved' })
    const res = await w.api().delete(`/clients/${w.client}`)
    expect(res.status).toBe(204)
    expect(w.team.team.cases.all()).toEqual([])
    expect(w.team.team.caseReviews.all()).toEqual([])
    expect((await w.api().get(`/cases/${w.case}`)).status).toBe(404)
    expect((await w.api().get('/cases')).body.data).toEqual([])
  })
})

describe('GET /cases/{id}/assignees', () => {
  it('lists the assignees set outside the API; 404 Case not found for an unknown case', async () => {
    const w = await world()
    expect((await w.api().get(`/cases/${w.case}/assignees`)).body).toEqual(singlePage([]))
    const [added] = w.mock.store.changing(() => setCaseAssignees(w.mock.teamContext(w.team.team), w.team.team.cases.get(w.case)!, [w.team.users.member.id]))
    const res = await w.api().get(`/cases/${w.case}/assignees`)
    expect(res.body).toEqual(singlePage([{ object: 'assignee', id: added?.id, type: 'team_member', team_member: memberJson(w.team, 'member') }]))
    const unknown = await w.api().get(`/cases/${UNKNOWN}/assignees`)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Case not found' })
  })

  it('setCaseAssignees keeps assignees named again and refuses non-members', () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const ctx = mock.teamContext(team.team)
    const row = team.team.cases.insert({ id: mock.store.nextId('case'), client: 1, name: 'x', reference: null, status: 'action_required', status_changed_at: NOW, items: [], assignees: [], created_by: null, created_at: NOW, updated_at: NOW, archived_at: null })
    const [first] = setCaseAssignees(ctx, row, [team.users.owner.id])
    setCaseAssignees(ctx, row, [team.users.owner.id, team.users.member.id, team.users.owner.id])
    expect(row.assignees.map((assignee) => [assignee.id === first?.id, assignee.user])).toEqual([
      [true, team.users.owner.id],
      [false, team.users.member.id],
    ])
    expect(() => setCaseAssignees(ctx, row, [UNKNOWN])).toThrow()
    expect(row.assignees).toHaveLength(2)
  })
})

describe('GET /cases', () => {
  async function listWorld() {
    const { mock, team, api } = setup()
    const ann = await createClient(api(), 'Ann', 'Zed')
    const bo = await createClient(api(), 'Bo', 'Abbott')
    const a = await createCase(api(), { client: ann.id, name: 'Alpha onboarding', reference: 'REF-A' })
    mock.clock.advance(60_000)
    const b = await createCase(api('member'), { client: bo.id, name: 'Bravo review' })
    mock.clock.advance(60_000)
    const c = await createCase(api(), { client: ann.id, name: 'Charlie', reference: 'ref-c' })
    const ids = async (query: Record<string, string | number | boolean | string[]> = {}) => {
      const res = await api().get('/cases', query)
      expect(res.status, res.text).toBe(200)
      return res.body.data.map((row: { id: number }) => row.id)
    }
    return { mock, team, api, ann: ann.id, bo: bo.id, a: a.id, b: b.id, c: c.id, ids }
  }

  it('lists by created_at by default, with order_by', async () => {
    const w = await listWorld()
    expect(await w.ids()).toEqual([w.a, w.b, w.c])
    expect(await w.ids({ order_by: 'desc' })).toEqual([w.c, w.b, w.a])
    const res = await w.api().get('/cases', { limit: 2, page: 2 })
    expect(res.body).toMatchObject({ total: 3, count: 1, current_page: 2, total_pages: 2 })
  })

  it('sorts by every sort_by', async () => {
    const w = await listWorld()
    expect(await w.ids({ sort_by: 'name', order_by: 'desc' })).toEqual([w.c, w.b, w.a])
    expect(await w.ids({ sort_by: 'reference' })).toEqual([w.b, w.a, w.c])
    expect(await w.ids({ sort_by: 'client.name.first_name' })).toEqual([w.a, w.c, w.b])
    expect(await w.ids({ sort_by: 'client.name.last_name' })).toEqual([w.b, w.a, w.c])
    expect(await w.ids({ sort_by: 'updated_at', order_by: 'desc' })).toEqual([w.c, w.b, w.a])
    await w.api().patch(`/cases/${w.b}`, { is_archived: true })
    // Descending: null last, ties by id descending too.
    expect(await w.ids({ sort_by: 'archived_at', order_by: 'desc' })).toEqual([w.b, w.c, w.a])
    expect(await w.ids({ sort_by: 'created_at' })).toEqual([w.a, w.b, w.c])
  })

  it('filters by status (one or several), visibility, created_by, client and reference', async () => {
    const w = await listWorld()
    await w.api().post(`/cases/${w.a}/reviews`, { status: 'approved' })
    await w.api().post(`/cases/${w.b}/reviews`, { status: 'on_hold' })
    expect(await w.ids({ status: 'approved' })).toEqual([w.a])
    expect(await w.ids({ status: ['approved', 'on_hold'] })).toEqual([w.a, w.b])
    expect(await w.ids({ status: 'approved,action_required' })).toEqual([w.a, w.c])
    await w.api().patch(`/cases/${w.c}`, { is_archived: true })
    expect(await w.ids({ visibility: 'archived' })).toEqual([w.c])
    expect(await w.ids({ visibility: 'active' })).toEqual([w.a, w.b])
    expect(await w.ids({ created_by: w.team.users.member.id })).toEqual([w.b])
    expect(await w.ids({ client: w.ann })).toEqual([w.a, w.c])
    expect(await w.ids({ reference: 'REF-C' })).toEqual([w.c])
    expect(await w.ids({ reference: 'REF' })).toEqual([])
    const bad = await w.api().get('/cases', { status: 'done' })
    expect(bad.status).toBe(422)
  })

  it('filters by assigned_to: a user id, true or false', async () => {
    const w = await listWorld()
    w.mock.store.changing(() => setCaseAssignees(w.mock.teamContext(w.team.team), w.team.team.cases.get(w.b)!, [w.team.users.member.id]))
    expect(await w.ids({ assigned_to: w.team.users.member.id })).toEqual([w.b])
    expect(await w.ids({ assigned_to: true })).toEqual([w.b])
    expect(await w.ids({ assigned_to: false })).toEqual([w.a, w.c])
  })

  it('filters by client_visibility', async () => {
    const w = await listWorld()
    w.team.team.clients.update(w.team.team.clients.get(w.bo)!, { archived_at: NOW })
    expect(await w.ids({ client_visibility: 'archived' })).toEqual([w.b])
    expect(await w.ids({ client_visibility: 'active' })).toEqual([w.a, w.c])
  })

  it('searches case name and client name, case- and accent-insensitively, every word', async () => {
    const w = await listWorld()
    expect(await w.ids({ search: 'ALPHA' })).toEqual([w.a])
    expect(await w.ids({ search: 'zed' })).toEqual([w.a, w.c])
    expect(await w.ids({ search: 'abbott review' })).toEqual([w.b])
    expect(await w.ids({ search: 'chárlie ann' })).toEqual([w.c])
    expect(await w.ids({ search: 'nobody' })).toEqual([])
  })

  it('expands client, items and assignees on every case', async () => {
    const w = await listWorld()
    const res = await w.api().get('/cases', { expand: ['client', 'items', 'assignees'] })
    expect(res.status).toBe(200)
    expect(res.body.data[0]).toEqual((await w.api().get(`/cases/${w.a}`, { expand: 'client,items,assignees' })).body)
    expect(res.body.data[1].client.id).toBe(w.bo)
    const bad = await w.api().get('/cases', { expand: 'entity' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ expand: ['The expand parameter must be one of: client, items, assignees'] })
  })

  it('shows an assigned-only member only the cases they are assigned to', async () => {
    const w = await listWorld()
    expect((await w.api('assigned-only').get('/cases')).body).toEqual(singlePage([]))
    w.mock.store.changing(() => setCaseAssignees(w.mock.teamContext(w.team.team), w.team.team.cases.get(w.c)!, [w.team.users['assigned-only'].id]))
    const res = await w.api('assigned-only').get('/cases')
    expect(res.body).toEqual(singlePage([(await w.api().get(`/cases/${w.c}`)).body]))
    expect((await w.api('assigned-only').get(`/cases/${w.c}/items`)).status).toBe(200)
    expect((await w.api('assigned-only').get(`/cases/${w.a}/items`)).status).toBe(403)
  })
})

describe('teams without cases (legacy)', () => {
  const requests: Array<[string, string, unknown?]> = [
    ['GET', '/cases'],
    ['POST', '/cases', {}],
    ['GET', `/cases/${UNKNOWN}`],
    ['PATCH', `/cases/${UNKNOWN}`, {}],
    ['GET', `/cases/${UNKNOWN}/reviews`],
    ['POST', `/cases/${UNKNOWN}/reviews`, { status: 'nope' }],
    ['GET', `/cases/${UNKNOWN}/items`],
    ['PATCH', `/cases/${UNKNOWN}/items`, 'not an array'],
    ['DELETE', `/cases/${UNKNOWN}/items/${UNKNOWN}`],
    ['GET', `/cases/${UNKNOWN}/assignees`],
  ]

  it.each(requests)('%s %s answers 403 before the 404 of an unknown id and before validation', async (method, path, body) => {
    const { api } = setup({ casesEnabled: false })
    for (const role of ['owner', 'read-only', 'assigned-only'] as const) {
      const res = await api(role).request(method, path, { body, query: method === 'GET' ? { limit: 500 } : undefined })
      expect(res.status, `${role} ${res.text}`).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
  })

  it('answers 403 to the seeded legacy team Initech, and 401 without a token first', async () => {
    const mock = createTestMock()
    const res = await mock.api('ivs_initech_owner').get('/cases')
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    const anonymous = await mock.api('ivs_initech_owner').as(undefined).get('/cases')
    expect(anonymous.status).toBe(401)
  })
})
