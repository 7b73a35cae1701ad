// GET /aggregates/case-status (docs/specification-notes.md "Case-status aggregate"): cases per status after the filters,
// every status listed once in the order of docs/specification-notes.md "Cases" (0 where none), the deprecated pending included; 403 for legacy
// teams before validation; assigned-only members count only the cases assigned to them.
import { describe, expect, it } from 'vitest'
import type { CaseStatusJson } from '../../src/contracts/generated.ts'
import type { CaseRow } from '../../src/resources/cases/rows.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'

type NewTeam = ReturnType<TestMock['newTeam']>

const FORBIDDEN = { message: 'This action is unauthorized.' }
const ORDER: CaseStatusJson[] = ['pending', 'awaiting_response', 'action_required', 'reviewed_pending_decision', 'approved', 'rejected', 'on_hold']

/** The expected body: the given counts, 0 for every other status. */
function aggregate(counts: Partial<Record<CaseStatusJson, number>> = {}) {
  return { object: 'case_status_aggregate', aggregates: ORDER.map((status) => ({ status, count: counts[status] ?? 0 })) }
}

/** A case row put straight into the team (the case operations are not needed to count). */
function giveCase(mock: TestMock, team: NewTeam, client: number, fields: Partial<CaseRow> & { assignedTo?: number[] } = {}): CaseRow {
  const { assignedTo = [], ...rest } = fields
  return team.team.cases.insert({
    id: mock.store.nextId('case'),
    client,
    name: 'A case',
    reference: null,
    status: 'action_required',
    status_changed_at: NOW,
    items: [],
    assignees: assignedTo.map((user) => ({ id: mock.store.nextId('assignee'), user, created_at: NOW })),
    created_by: team.users.owner.id,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...rest,
  })
}

/**
 * A fresh team with one client and seven cases: approved (Jan, member), approved (Feb, archived),
 * rejected (Mar, assigned-only and member), on_hold (Apr, none), pending (May, none),
 * awaiting_response (Jun, assigned-only), action_required (now, none).
 */
async function world() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const res = await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
  expect(res.status, res.text).toBe(201)
  const client = res.body.id as number
  const { member } = team.users
  const assigned = team.users['assigned-only']
  giveCase(mock, team, client, { status: 'approved', status_changed_at: '2026-01-10T09:00:00Z', assignedTo: [member.id] })
  giveCase(mock, team, client, { status: 'approved', status_changed_at: '2026-02-10T09:00:00Z', archived_at: '2026-02-11T09:00:00Z' })
  giveCase(mock, team, client, { status: 'rejected', status_changed_at: '2026-03-10T09:00:00Z', assignedTo: [assigned.id, member.id] })
  giveCase(mock, team, client, { status: 'on_hold', status_changed_at: '2026-04-10T09:00:00Z' })
  giveCase(mock, team, client, { status: 'pending', status_changed_at: '2026-05-10T09:00:00Z' })
  giveCase(mock, team, client, { status: 'awaiting_response', status_changed_at: '2026-06-10T09:00:00Z', assignedTo: [assigned.id] })
  giveCase(mock, team, client, { status: 'action_required' })
  return { mock, team, client }
}

const ALL = { pending: 1, awaiting_response: 1, action_required: 1, approved: 2, rejected: 1, on_hold: 1 }

describe('GET /aggregates/case-status', () => {
  it('lists every status with 0 for a team with no cases', async () => {
    const mock = createTestMock()
    const res = await mock.newTeam().api().get('/aggregates/case-status')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(aggregate())
  })

  it('counts every case of the team, archived or not, by status', async () => {
    const { team } = await world()
    const res = await team.api().get('/aggregates/case-status')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(aggregate(ALL))
  })

  it('counts no case of another team', async () => {
    const { mock } = await world()
    const res = await mock.newTeam().api().get('/aggregates/case-status')
    expect(res.body).toEqual(aggregate())
  })

  it('filters by visibility', async () => {
    const { team } = await world()
    expect((await team.api().get('/aggregates/case-status', { visibility: 'active' })).body).toEqual(aggregate({ ...ALL, approved: 1 }))
    expect((await team.api().get('/aggregates/case-status', { visibility: 'archived' })).body).toEqual(aggregate({ approved: 1 }))
  })

  it('filters by assigned_to: a user id, or false for cases nobody is assigned to', async () => {
    const { team } = await world()
    const api = team.api()
    expect((await api.get('/aggregates/case-status', { assigned_to: team.users.member.id })).body).toEqual(aggregate({ approved: 1, rejected: 1 }))
    expect((await api.get('/aggregates/case-status', { assigned_to: team.users['assigned-only'].id })).body).toEqual(
      aggregate({ rejected: 1, awaiting_response: 1 }),
    )
    expect((await api.get('/aggregates/case-status', { assigned_to: false })).body).toEqual(
      aggregate({ approved: 1, on_hold: 1, pending: 1, action_required: 1 }),
    )
    expect((await api.get('/aggregates/case-status', { assigned_to: 987_654 })).body).toEqual(aggregate())
  })

  it('filters by start_date and end_date on when the status last changed, both inclusive', async () => {
    const { team } = await world()
    const api = team.api()
    const query = (q: Record<string, string>) => api.get('/aggregates/case-status', q)
    expect((await query({ start_date: '2026-03-10T09:00:00Z' })).body).toEqual(aggregate({ rejected: 1, on_hold: 1, pending: 1, awaiting_response: 1, action_required: 1 }))
    expect((await query({ end_date: '2026-02-10T09:00:00Z' })).body).toEqual(aggregate({ approved: 2 }))
    expect((await query({ start_date: '2026-02-10T09:00:00Z', end_date: '2026-04-10T09:00:00Z' })).body).toEqual(aggregate({ approved: 1, rejected: 1, on_hold: 1 }))
    // Offsets are honoured: 10:00+01:00 is 09:00Z.
    expect((await query({ start_date: '2026-06-10T10:00:00+01:00', end_date: '2026-06-10T10:00:00+01:00' })).body).toEqual(aggregate({ awaiting_response: 1 }))
    expect((await query({ start_date: '2026-06-10T09:00:01Z', end_date: '2026-06-30T00:00:00Z' })).body).toEqual(aggregate())
  })

  it('combines the filters', async () => {
    const { team } = await world()
    const res = await team.api().get('/aggregates/case-status', { assigned_to: false, visibility: 'active', end_date: '2026-04-30T00:00:00Z' })
    expect(res.body).toEqual(aggregate({ on_hold: 1 }))
  })

  it('answers 422 for dates that are not date-times, end_date before start_date, and a bad assigned_to or visibility', async () => {
    const { team, mock } = await world()
    const api = team.api()
    const before = structuredClone(mock.store.data)
    const cases: Array<[Record<string, string | number | boolean>, Record<string, string[]>]> = [
      [{ start_date: 'yesterday' }, { start_date: ['The start date field must be a valid date.'] }],
      [{ end_date: '2026-13-01T00:00:00Z' }, { end_date: ['The end date field must be a valid date.'] }],
      [{ start_date: '2026-05-01T00:00:00Z', end_date: '2026-04-01T00:00:00Z' }, { end_date: ['The end date field must be a date after or equal to start date.'] }],
      [{ assigned_to: true }, { assigned_to: ['The assigned_to parameter must be a team member id or false.'] }],
      [{ assigned_to: 'someone' }, { assigned_to: ['The assigned_to parameter must be a team member id or false.'] }],
      [{ visibility: 'all' }, { visibility: ['The selected visibility is invalid.'] }],
    ]
    for (const [query, errors] of cases) {
      const res = await api.get('/aggregates/case-status', query)
      expect(res.status, JSON.stringify(query)).toBe(422)
      expect(res.body, JSON.stringify(query)).toEqual(errors)
    }
    expect(mock.store.data).toEqual(before)
  })

  it('counts for an assigned-only member only the cases assigned to them, with every filter on top', async () => {
    const { team } = await world()
    const api = team.api('assigned-only')
    expect((await api.get('/aggregates/case-status')).body).toEqual(aggregate({ rejected: 1, awaiting_response: 1 }))
    expect((await api.get('/aggregates/case-status', { assigned_to: team.users.member.id })).body).toEqual(aggregate({ rejected: 1 }))
    expect((await api.get('/aggregates/case-status', { assigned_to: false })).body).toEqual(aggregate())
  })

  it('counts the whole team for read-only members, members and support users', async () => {
    const { team } = await world()
    for (const role of ['read-only', 'member', 'assumed'] as const) {
      const res = await team.api(role).get('/aggregates/case-status')
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(aggregate(ALL))
    }
  })

  it('answers 403 to a legacy team, before validating the query', async () => {
    const mock = createTestMock()
    const legacy = mock.newTeam({ casesEnabled: false })
    const queries: Array<Record<string, string | boolean>> = [{}, { start_date: 'yesterday' }, { assigned_to: true }]
    for (const query of queries) {
      const res = await legacy.api().get('/aggregates/case-status', query)
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    const initech = await mock.api('ivs_initech_owner').get('/aggregates/case-status')
    expect(initech.status).toBe(403)
    expect(initech.body).toEqual(FORBIDDEN)
  })

  it('answers 401 without a valid token', async () => {
    const mock = createTestMock()
    const res = await mock.api('nope').get('/aggregates/case-status')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })
})
