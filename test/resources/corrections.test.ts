// Name corrections a client proposes while completing a record (docs/specification-notes.md "Corrections",
// docs/specification-notes.md "States and transitions", docs/specification-notes.md "Status codes and bodies", docs/specification-notes.md "Wire details"): proposeCorrection,
// GET /clients/{id}/corrections and PATCH /clients/{clientId}/corrections/{correctionId}.
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { proposeCorrection } from '../../src/resources/corrections/index.ts'
import type { RecordRow } from '../../src/resources/records/index.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { assign } from '../support/requests.ts'
import { giveRecord } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'

const MINUTE = 60_000
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const COMPLETED = { message: 'Correction has already been completed' }
const CLIENT_NOT_FOUND = { message: 'Client not found' }
const CORRECTION_NOT_FOUND = { message: 'Correction not found' }

type NewTeam = ReturnType<TestMock['newTeam']>

const ANNE = { first_name: 'Anne', middle_name: 'Marie', last_name: 'Leigh' }

/** A fresh mock and team, the client Ann Lee with a record, and a pending correction on it proposed at NOW. */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const { client, record } = await clientWithRecord(mock, team, api)
  const correction = proposeCorrection(mock.teamContext(team.team), record, ANNE)
  return { mock, team, api, client, record, correction, ctx: mock.teamContext(team.team) }
}

async function clientWithRecord(mock: TestMock, team: NewTeam, api: ApiClient, first = 'Ann') {
  const res = await api.post('/clients', { name: { first_name: first, last_name: 'Lee' }, email: `${first.toLowerCase()}@example.com` })
  expect(res.status, res.text).toBe(201)
  const record = giveRecord(mock, team.team, res.body.id, { steps: [{ type: 'check.identity' }] })
  return { client: res.body.id as number, record }
}

const corrections = (client: number) => `/clients/${client}/corrections`
const correctionPath = (client: number, correction: number) => `/clients/${client}/corrections/${correction}`

function correctionJson(id: number, client: unknown, record: unknown, overrides: Record<string, unknown> = {}) {
  return { object: 'client_correction', id, client, record, status: 'pending', correction: ANNE, created_at: NOW, updated_at: NOW, ...overrides }
}

/** The wire record of a giveRecord record with one check.identity step, never reviewed. */
function recordJson(record: RecordRow, status: string, updatedAt: string) {
  const step = record.steps[0]!
  return {
    object: 'record',
    id: record.id,
    status,
    perform_url: `http://localhost/perform/${record.perform_token}`,
    email: record.email,
    client: record.client,
    name: { object: 'name', title: null, other_title: null, first_name: 'Ann', middle_name: null, last_name: 'Lee', name: 'Ann Lee', full_name: 'Ann Lee', complete_name: 'Ann Lee' },
    reference: null,
    steps: [{ object: 'step', id: step.id, type: 'check.identity', preferences: {}, check: step.check, cost: 0, completed_at: null, review: null }],
    has_reminders: false,
    is_declaration_required: false,
    created_at: NOW,
    updated_at: updatedAt,
    expired_at: record.expired_at,
    archived_at: null,
    declaration_confirmed_at: null,
  }
}

const recordUpdated = (team: NewTeam, record: RecordRow, time: string) => ({
  type: 'record.updated',
  teamId: team.team.id,
  occurredAt: time,
  subjects: { record: record.id, client: record.client },
})

function snapshot(mock: TestMock) {
  return { data: structuredClone(mock.store.data), events: mock.events.length }
}

function expectUnchanged(mock: TestMock, before: ReturnType<typeof snapshot>) {
  expect(mock.store.data).toEqual(before.data)
  expect(mock.events).toHaveLength(before.events)
}

/** The record's status as the corrections list shows it with expand=record. */
async function recordStatus(api: ApiClient, client: number): Promise<string> {
  const res = await api.get(corrections(client), { expand: 'record', limit: 1 })
  expect(res.status, res.text).toBe(200)
  return res.body.data[0].record.status
}

describe('proposeCorrection', () => {
  it('makes a pending correction, gives its record the status amendments and publishes record.updated', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const { client, record } = await clientWithRecord(mock, team, api)
    expect(await (async () => (await api.get(corrections(client))).body)()).toEqual(singlePage([]))
    mock.clock.advance(2 * MINUTE)
    const before = mock.events.length
    const row = proposeCorrection(mock.teamContext(team.team), record, { first_name: 'Anne', last_name: 'Leigh' })
    expect(row).toEqual({
      id: row.id,
      client,
      record: record.id,
      status: 'pending',
      correction: { first_name: 'Anne', middle_name: null, last_name: 'Leigh' },
      created_at: at(2),
      updated_at: at(2),
    })
    expect(mock.events.slice(before)).toEqual([recordUpdated(team, record, at(2))])
    const res = await api.get(corrections(client), { expand: 'record' })
    expect(res.body).toEqual(
      singlePage([
        correctionJson(row.id, client, recordJson(record, 'amendments', at(2)), {
          correction: { first_name: 'Anne', middle_name: null, last_name: 'Leigh' },
          created_at: at(2),
          updated_at: at(2),
        }),
      ]),
    )
  })
})

describe('GET /clients/{id}/corrections', () => {
  it("lists the client's corrections with client and record ids, oldest first", async () => {
    const { mock, team, api, client, record, correction, ctx } = await setup()
    mock.clock.advance(MINUTE)
    const second = proposeCorrection(ctx, record, { first_name: 'Annie', middle_name: null, last_name: 'Lee' })
    const other = await clientWithRecord(mock, team, api, 'Bo')
    proposeCorrection(ctx, other.record, { first_name: 'Bob', last_name: 'Lee' })
    const res = await api.get(corrections(client))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      singlePage([
        correctionJson(correction.id, client, record.id),
        correctionJson(second.id, client, record.id, { correction: { first_name: 'Annie', middle_name: null, last_name: 'Lee' }, created_at: at(1), updated_at: at(1) }),
      ]),
    )
  })

  it('filters by status, sorts by created_at either way and pages with links that keep the query', async () => {
    const { mock, api, client, record, correction, ctx } = await setup()
    const ids = [correction.id]
    for (let index = 1; index < 4; index++) {
      mock.clock.advance(MINUTE)
      ids.push(proposeCorrection(ctx, record, { first_name: `Ann${index}`, last_name: 'Lee' }).id)
    }
    const patch = async (id: number, body: unknown) => expect((await api.patch(correctionPath(client, id), body)).status).toBe(200)
    await patch(ids[1]!, { status: 'accepted' })
    await patch(ids[2]!, { status: 'rejected' })
    const idsOf = async (query: Record<string, string | number>) => (await api.get(corrections(client), query)).body.data.map((row: { id: number }) => row.id)
    expect(await idsOf({})).toEqual(ids)
    expect(await idsOf({ order_by: 'desc' })).toEqual([...ids].reverse())
    expect(await idsOf({ sort_by: 'created_at', order_by: 'desc' })).toEqual([...ids].reverse())
    expect(await idsOf({ status: 'pending' })).toEqual([ids[0], ids[3]])
    expect(await idsOf({ status: 'accepted' })).toEqual([ids[1]])
    expect(await idsOf({ status: 'rejected' })).toEqual([ids[2]])
    const url = `${ORIGIN}${corrections(client)}`
    const page = await api.get(corrections(client), { status: 'pending', limit: 1, page: 2 })
    expect(page.body).toMatchObject({
      total: 2,
      count: 1,
      limit: 1,
      current_page: 2,
      total_pages: 2,
      links: { next: null, previous: `${url}?status=pending&limit=1&page=1` },
    })
    expect(page.body.data.map((row: { id: number }) => row.id)).toEqual([ids[3]])
  })

  it('expands client and record (the record with its own expandables collapsed)', async () => {
    const { api, client, record, correction } = await setup()
    const clientJson = (await api.get(`/clients/${client}`)).body
    const res = await api.get(corrections(client), { expand: 'client,record' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([correctionJson(correction.id, clientJson, recordJson(record, 'amendments', NOW))]))
    const onlyClient = await api.get(corrections(client), { expand: 'client' })
    expect(onlyClient.body.data).toEqual([correctionJson(correction.id, clientJson, record.id)])
  })

  it('answers 422 for a bad status, sort, expand or page', async () => {
    const { api, client } = await setup()
    const cases: Array<[Record<string, string | number>, Record<string, string[]>]> = [
      [{ status: 'completed' }, { status: ['The selected status is invalid.'] }],
      [{ sort_by: 'updated_at' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ expand: 'correction' }, { expand: ['The expand parameter must be one of: client, record'] }],
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
    ]
    for (const [query, errors] of cases) {
      const res = await api.get(corrections(client), query)
      expect(res.status, JSON.stringify(query)).toBe(422)
      expect(res.body).toEqual(errors)
    }
  })

  it('answers every role of the team; an assigned-only member only for a client assigned to them', async () => {
    const { team, api, client } = await setup()
    const expected = (await api.get(corrections(client))).body
    for (const role of ROLES.filter((r) => r !== 'assigned-only')) {
      const res = await team.api(role).get(corrections(client))
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(expected)
    }
    const mine = team.api('assigned-only')
    const forbidden = await mine.get(corrections(client))
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual(FORBIDDEN)
    await assign(api, `/clients/${client}/assignees`, [team.users['assigned-only'].id])
    expect((await mine.get(corrections(client))).body).toEqual(expected)
  })

  it('answers 404 Client not found (key error) for an unknown client and to every role of another team; 401 without a token', async () => {
    const { mock, api, client } = await setup()
    const unknown = await api.get(corrections(987_654_321))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    const other = mock.newTeam()
    for (const role of ROLES) {
      const res = await other.api(role).get(corrections(client))
      expect(res.status, role).toBe(404)
      expect(res.body).toEqual({ error: 'Client not found' })
    }
    const anonymous = await api.as(undefined).get(corrections(client))
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'Unauthenticated.' })
  })
})

describe('PATCH /clients/{clientId}/corrections/{correctionId}', () => {
  describe('accepting', () => {
    it("writes the proposed name into the client's name, publishes client.updated then record.updated, and ends the record's amendments", async () => {
      const { mock, team, api, client, record, correction } = await setup()
      mock.clock.advance(5 * MINUTE)
      const before = mock.events.length
      const res = await api.patch(correctionPath(client, correction.id), { status: 'accepted' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(correctionJson(correction.id, client, record.id, { status: 'accepted', updated_at: at(5) }))
      expect(mock.events.slice(before)).toEqual([
        { type: 'client.updated', teamId: team.team.id, occurredAt: at(5), subjects: { client } },
        recordUpdated(team, record, at(5)),
      ])
      const updated = (await api.get(`/clients/${client}`)).body
      expect(updated.name).toMatchObject({ first_name: 'Anne', middle_name: 'Marie', last_name: 'Leigh', full_name: 'Anne Marie Leigh' })
      expect(updated.updated_at).toBe(at(5))
      expect(await recordStatus(api, client)).toBe('pending')
      expect(team.team.records.get(record.id)?.updated_at).toBe(at(5))
    })

    it('applies a modified correction: its parts merge into the proposal, and the correction shows what was applied', async () => {
      const { api, client, record, correction } = await setup()
      const res = await api.patch(correctionPath(client, correction.id), { status: 'accepted', correction: { first_name: ' Annie ', middle_name: null, title: 'dr' } })
      expect(res.status).toBe(200)
      const applied = { first_name: 'Annie', middle_name: null, last_name: 'Leigh' }
      expect(res.body).toEqual(correctionJson(correction.id, client, record.id, { status: 'accepted', correction: applied }))
      expect((await api.get(`/clients/${client}`)).body.name).toMatchObject({ title: null, ...applied, full_name: 'Annie Leigh' })
      expect((await api.get(corrections(client))).body.data[0].correction).toEqual(applied)
    })

    it('publishes no client.updated and leaves updated_at alone when the name is the same already', async () => {
      const { mock, team, api, client, record, ctx } = await setup()
      const same = proposeCorrection(ctx, record, { first_name: 'Ann', middle_name: null, last_name: 'Lee' })
      mock.clock.advance(MINUTE)
      const before = mock.events.length
      expect((await api.patch(correctionPath(client, same.id), { status: 'accepted' })).status).toBe(200)
      expect(mock.events.slice(before)).toEqual([recordUpdated(team, record, at(1))])
      expect((await api.get(`/clients/${client}`)).body.updated_at).toBe(NOW)
    })

    it('lets the record keep its amendments status while another correction on it is pending', async () => {
      const { mock, api, client, record, correction, ctx } = await setup()
      mock.clock.advance(MINUTE)
      const second = proposeCorrection(ctx, record, { first_name: 'Annie', last_name: 'Lee' })
      expect((await api.patch(correctionPath(client, correction.id), { status: 'accepted' })).status).toBe(200)
      expect(await recordStatus(api, client)).toBe('amendments')
      expect((await api.patch(correctionPath(client, second.id), { status: 'rejected' })).status).toBe(200)
      expect(await recordStatus(api, client)).toBe('pending')
    })
  })

  describe('rejecting', () => {
    it('leaves the client alone (a correction in the body is ignored) and publishes record.updated only', async () => {
      const { mock, team, api, client, record, correction } = await setup()
      const clientBefore = (await api.get(`/clients/${client}`)).body
      mock.clock.advance(3 * MINUTE)
      const before = mock.events.length
      const res = await api.patch(correctionPath(client, correction.id), { status: 'rejected', correction: { first_name: 'Zed' } })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(correctionJson(correction.id, client, record.id, { status: 'rejected', updated_at: at(3) }))
      expect(mock.events.slice(before)).toEqual([recordUpdated(team, record, at(3))])
      expect((await api.get(`/clients/${client}`)).body).toEqual(clientBefore)
      expect(await recordStatus(api, client)).toBe('pending')
    })
  })

  it.each([
    ['accepted', { status: 'accepted' }],
    ['rejected', { status: 'rejected' }],
  ])('answers 405 once the correction is %s, whatever the decision, and changes nothing', async (_, decision) => {
    const { mock, api, client, correction } = await setup()
    expect((await api.patch(correctionPath(client, correction.id), decision)).status).toBe(200)
    const before = snapshot(mock)
    for (const body of [{ status: 'accepted' }, { status: 'rejected' }, { status: 'accepted', correction: { last_name: 'Other' } }]) {
      const res = await api.patch(correctionPath(client, correction.id), body)
      expect(res.status).toBe(405)
      expect(res.body).toEqual(COMPLETED)
    }
    expectUnchanged(mock, before)
  })

  describe('422', () => {
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['an empty body', {}, { status: ['The status field is required.'] }],
      ['status pending', { status: 'pending' }, { status: ['The selected status is invalid.'] }],
      ['a null status', { status: null }, { status: ['The selected status is invalid.'] }],
      ['an empty correction', { status: 'accepted', correction: {} }, { correction: ['The correction field must not be empty.'] }],
      ['a correction that is not an object', { status: 'accepted', correction: 'Anne' }, { correction: ['The correction field must be an object.'] }],
      ['a blank first name', { status: 'accepted', correction: { first_name: '  ' } }, { 'correction.first_name': ['The first name field is required.'] }],
      ['a null last name', { status: 'accepted', correction: { last_name: null } }, { 'correction.last_name': ['The last name field is required.'] }],
      ['a middle name of 256 characters', { status: 'accepted', correction: { middle_name: 'x'.repeat(256) } }, { 'correction.middle_name': ['The middle name field must not be greater than 255 characters.'] }],
      ['an array', [{ status: 'accepted' }], { errors: ['The request body must be a JSON object.'] }],
    ]

    it.each(cases)('answers 422 for %s and changes nothing', async (_, body, errors) => {
      const { mock, api, client, correction } = await setup()
      const before = snapshot(mock)
      const res = await api.patch(correctionPath(client, correction.id), body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expectUnchanged(mock, before)
    })

    it('validates the body before looking at whether the correction is still pending', async () => {
      const { api, client, correction } = await setup()
      expect((await api.patch(correctionPath(client, correction.id), { status: 'rejected' })).status).toBe(200)
      const res = await api.patch(correctionPath(client, correction.id), { status: 'pending' })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ status: ['The selected status is invalid.'] })
    })
  })

  describe('404 (key message, docs/specification-notes.md "Wire details")', () => {
    it('answers Client not found for an unknown client and for another team’s client, whatever the body', async () => {
      const { mock, client, correction } = await setup()
      const other = mock.newTeam()
      const before = snapshot(mock)
      for (const role of ROLES) {
        for (const body of [{ status: 'accepted' }, {}]) {
          const res = await other.api(role).patch(correctionPath(client, correction.id), body)
          expect(res.status, role).toBe(404)
          expect(res.body).toEqual(CLIENT_NOT_FOUND)
        }
      }
      const unknown = await other.api().patch(correctionPath(987_654_321, correction.id), { status: 'accepted' })
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual(CLIENT_NOT_FOUND)
      expectUnchanged(mock, before)
    })

    it("answers Correction not found for an unknown correction and for another client's", async () => {
      const { mock, team, api, client, ctx } = await setup()
      const other = await clientWithRecord(mock, team, api, 'Bo')
      const foreign = proposeCorrection(ctx, other.record, { first_name: 'Bob', last_name: 'Lee' })
      const before = snapshot(mock)
      for (const id of [987_654_321, foreign.id]) {
        const res = await api.patch(correctionPath(client, id), { status: 'accepted' })
        expect(res.status).toBe(404)
        expect(res.body).toEqual(CORRECTION_NOT_FOUND)
      }
      expectUnchanged(mock, before)
    })

    it('answers Not Found. (key error) for a non-numeric id: no such route', async () => {
      const { api, client } = await setup()
      const res = await api.patch(`/clients/${client}/corrections/abc`, { status: 'accepted' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Not Found.' })
    })
  })

  describe('roles', () => {
    it('forbids a read-only member after the 404s and before the body, changing nothing', async () => {
      const { mock, team, client, correction } = await setup()
      const readOnly = team.api('read-only')
      const before = snapshot(mock)
      for (const body of [{ status: 'accepted' }, { status: 'bogus' }]) {
        const res = await readOnly.patch(correctionPath(client, correction.id), body)
        expect(res.status).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      expect((await readOnly.patch(correctionPath(client, 987_654_321), { status: 'accepted' })).body).toEqual(CORRECTION_NOT_FOUND)
      expect((await readOnly.patch(correctionPath(987_654_321, correction.id), { status: 'accepted' })).body).toEqual(CLIENT_NOT_FOUND)
      expectUnchanged(mock, before)
    })

    it.each(['owner', 'member', 'assumed'] as const)('lets the %s decide', async (role) => {
      const { team, client, correction } = await setup()
      const res = await team.api(role).patch(correctionPath(client, correction.id), { status: 'accepted' })
      expect(res.status).toBe(200)
      expect(res.body.status).toBe('accepted')
    })

    it('lets an assigned-only member decide for a client assigned to them only', async () => {
      const { mock, team, api, client, correction } = await setup()
      const mine = team.api('assigned-only')
      const before = snapshot(mock)
      const forbidden = await mine.patch(correctionPath(client, correction.id), { status: 'accepted' })
      expect(forbidden.status).toBe(403)
      expect(forbidden.body).toEqual(FORBIDDEN)
      const unknown = await mine.patch(correctionPath(987_654_321, correction.id), { status: 'accepted' })
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual(CLIENT_NOT_FOUND)
      expectUnchanged(mock, before)
      await assign(api, `/clients/${client}/assignees`, [team.users['assigned-only'].id])
      const res = await mine.patch(correctionPath(client, correction.id), { status: 'rejected' })
      expect(res.status).toBe(200)
      expect(res.body.status).toBe('rejected')
    })

    it('answers 401 without a token', async () => {
      const { api, client, correction } = await setup()
      const res = await api.as(undefined).patch(correctionPath(client, correction.id), { status: 'accepted' })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    })
  })
})
