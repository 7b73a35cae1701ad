import { describe, expect, it } from 'vitest'
import type { ApiClient, RequestOptions } from '../../support/api.ts'
import { createTestMock, NOW, type TestMock } from '../../support/mock.ts'
import { fixture } from '../../support/contracts.ts'
import { assign, createOrganisation } from '../../support/requests.ts'

const MINUTE = 60_000
/** Links are absolute URLs; in-process requests are answered as http://localhost. */
const BASE = 'http://localhost/api/v2/clients'

type NewTeam = ReturnType<TestMock['newTeam']>
type Query = NonNullable<RequestOptions['query']>

interface NameInput {
  first_name: string
  last_name: string
  middle_name?: string | null
}

let emails = 0

async function create(api: ApiClient, name: NameInput, extra: Record<string, unknown> = {}): Promise<any> {
  emails += 1
  const res = await api.post('/clients', { name, email: `client${emails}@example.com`, ...extra })
  expect(res.status).toBe(201)
  return res.body
}

/** The ids of one page of GET /clients, after checking the status. */
async function ids(api: ApiClient, query: Query = {}): Promise<number[]> {
  const res = await api.get('/clients', query)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.map((client: { id: number }) => client.id)
}

/** The team-state row of a client, to set what the API cannot (archived_at). */
function row(team: NewTeam, id: number) {
  const client = team.team.clients.get(id)
  if (!client) throw new Error(`no client ${id}`)
  return client
}

describe('GET /clients on a fresh team', () => {
  it('is an empty single page for a team without clients', async () => {
    const mock = createTestMock()
    const res = await mock.newTeam().api().get('/clients')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  it('lists the clients created through the API, exactly as GET /clients/{id} shows them, in id order', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const created = [
      await create(team.api(), { first_name: 'Zara', last_name: 'Adams' }, { status: 'approved', reference: 'Z-1' }),
      await create(team.api('member'), { first_name: 'Abel', last_name: 'Young', middle_name: 'Q' }, { dob: '1970-01-01' }),
      await create(team.api('assumed'), { first_name: 'Mia', last_name: 'Moss' }, { deletion_date: '2027-01-01' }),
    ]
    const res = await team.api('member').get('/clients')
    expect(res.status).toBe(200)
    const shown = await Promise.all(created.map(async (client) => (await team.api('member').get(`/clients/${client.id}`)).body))
    expect(res.body).toEqual({ object: 'paginated_list', data: shown, total: 3, count: 3, limit: 25, current_page: 1, total_pages: 1, links: null })
    expect(shown.map((client) => client.id)).toEqual([...created.map((client) => client.id)].sort((a, b) => a - b))
  })

  it('answers 401 without a token', async () => {
    const mock = createTestMock()
    const res = await mock.newTeam().api().as(undefined).get('/clients')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })

  describe('search', () => {
    async function world() {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const jose = await create(api, { first_name: 'José', last_name: 'Álvarez' }, { reference: 'REF-001' })
      const joanna = await create(api, { first_name: 'Joanna', middle_name: 'Maria', last_name: 'Smith' }, { reference: 'ABC-123' })
      const peter = await create(api, { first_name: 'Peter', last_name: 'Jones' })
      const anna = await create(api, { first_name: 'Anna', last_name: 'Lee' }, { email: 'widgets.buyer@example.com' })
      const zoe = await create(api, { first_name: 'Zoe', last_name: 'Brontë' })
      await createOrganisation(api, { name: 'Globex Widgets Ltd' }, [peter.id])
      await createOrganisation(api, { name: 'Initrode Lettings' }, [joanna.id, peter.id])
      return { api, jose: jose.id, joanna: joanna.id, peter: peter.id, anna: anna.id, zoe: zoe.id }
    }

    it('matches first, middle and last names case-insensitively, and parts of them (fuzzy)', async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'PETER' })).toEqual([w.peter])
      expect(await ids(w.api, { search: 'smith' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: 'maria' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: 'ann' })).toEqual([w.joanna, w.anna])
      expect(await ids(w.api, { search: 'nes' })).toEqual([w.peter])
    })

    it('folds accents both ways', async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'jose' })).toEqual([w.jose])
      expect(await ids(w.api, { search: 'ALVAREZ' })).toEqual([w.jose])
      expect(await ids(w.api, { search: 'Jósé Álvarez' })).toEqual([w.jose])
      expect(await ids(w.api, { search: 'zoë' })).toEqual([w.zoe])
      expect(await ids(w.api, { search: 'bronte' })).toEqual([w.zoe])
    })

    it('matches the reference, in part and in any case', async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'ref-001' })).toEqual([w.jose])
      expect(await ids(w.api, { search: 'abc' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: '-1' })).toEqual([w.joanna])
    })

    it("matches the names of the client's organisations", async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'globex' })).toEqual([w.peter])
      expect(await ids(w.api, { search: 'lettings' })).toEqual([w.joanna, w.peter])
    })

    it('does not search the email', async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'widgets' })).toEqual([w.peter])
      expect(await ids(w.api, { search: 'buyer' })).toEqual([])
      expect(await ids(w.api, { search: 'example.com' })).toEqual([])
    })

    it('needs every word to match, each in any of the searched fields', async () => {
      const w = await world()
      expect(await ids(w.api, { search: 'joanna smith' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: '  smith   JOANNA ' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: 'joanna jones' })).toEqual([])
      expect(await ids(w.api, { search: 'peter globex' })).toEqual([w.peter])
      expect(await ids(w.api, { search: 'maria abc-123 lettings' })).toEqual([w.joanna])
      expect(await ids(w.api, { search: 'nobody' })).toEqual([])
    })

    it('answers total and pages of the matches only', async () => {
      const w = await world()
      const res = await w.api.get('/clients', { search: 'lettings', limit: 1 })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ total: 2, count: 1, limit: 1, current_page: 1, total_pages: 2 })
      expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([w.joanna])
      expect(res.body.links).toEqual({ next: `${BASE}?search=lettings&limit=1&page=2`, previous: null })
    })
  })

  describe('filters', () => {
    it('status: pending, approved or rejected', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const none = await create(api, { first_name: 'No', last_name: 'Status' })
      const pending = await create(api, { first_name: 'Pen', last_name: 'Ding' }, { status: 'pending' })
      const approved = await create(api, { first_name: 'Ap', last_name: 'Proved' })
      const rejected = await create(api, { first_name: 'Re', last_name: 'Jected' }, { status: 'approved' })
      expect((await api.patch(`/clients/${approved.id}`, { status: 'approved' })).status).toBe(200)
      expect((await api.patch(`/clients/${rejected.id}`, { status: 'rejected' })).status).toBe(200)
      expect(await ids(api, { status: 'pending' })).toEqual([pending.id])
      expect(await ids(api, { status: 'approved' })).toEqual([approved.id])
      expect(await ids(api, { status: 'rejected' })).toEqual([rejected.id])
      expect(await ids(api)).toEqual([none.id, pending.id, approved.id, rejected.id])
      expect((await api.patch(`/clients/${pending.id}`, { status: 'approved' })).status).toBe(200)
      expect(await ids(api, { status: 'pending' })).toEqual([])
      expect(await ids(api, { status: 'approved' })).toEqual([pending.id, approved.id])
    })

    it('visibility: active, archived, both by default', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const active = await create(api, { first_name: 'Act', last_name: 'Ive' })
      const archived = await create(api, { first_name: 'Arch', last_name: 'Ived' })
      const another = await create(api, { first_name: 'Also', last_name: 'Active' })
      team.team.clients.update(row(team, archived.id), { archived_at: '2026-06-30T10:00:00Z' })
      expect(await ids(api, { visibility: 'active' })).toEqual([active.id, another.id])
      expect(await ids(api, { visibility: 'archived' })).toEqual([archived.id])
      expect(await ids(api)).toEqual([active.id, archived.id, another.id])
      const res = await api.get('/clients', { visibility: 'archived' })
      expect(res.body.data[0].archived_at).toBe('2026-06-30T10:00:00Z')
    })

    it('assignee: clients assigned to a user id', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const other = mock.newTeam()
      const api = team.api()
      const one = await create(api, { first_name: 'One', last_name: 'Assignee' })
      const two = await create(api, { first_name: 'Two', last_name: 'Assignees' })
      await create(api, { first_name: 'No', last_name: 'Assignee' })
      await assign(api, `/clients/${one.id}/assignees`, [team.users.member.id])
      await assign(api, `/clients/${two.id}/assignees`, [team.users.member.id, team.users['read-only'].id])
      expect(await ids(api, { assignee: team.users.member.id })).toEqual([one.id, two.id])
      expect(await ids(api, { assignee: team.users['read-only'].id })).toEqual([two.id])
      expect(await ids(api, { assignee: team.users.owner.id })).toEqual([])
      expect(await ids(api, { assignee: other.users.member.id })).toEqual([])
      expect(await ids(api, { assignee: 987_654 })).toEqual([])
    })

    it('reference: exact, case-insensitive, not fuzzy (rule 8 of docs/specification-notes.md "Rules of the service")', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const exact = await create(api, { first_name: 'Exact', last_name: 'Ref' }, { reference: 'ABC-1' })
      const longer = await create(api, { first_name: 'Longer', last_name: 'Ref' }, { reference: 'abc-12' })
      const prefixed = await create(api, { first_name: 'Prefixed', last_name: 'Ref' }, { reference: 'xABC-1' })
      await create(api, { first_name: 'No', last_name: 'Ref' })
      expect(await ids(api, { reference: 'abc-1' })).toEqual([exact.id])
      expect(await ids(api, { reference: 'ABC-1' })).toEqual([exact.id])
      expect(await ids(api, { reference: 'ABC-12' })).toEqual([longer.id])
      expect(await ids(api, { reference: 'abc' })).toEqual([])
      expect(await ids(api, { reference: 'Abc 1' })).toEqual([])
      expect(await ids(api, { search: 'abc-1' })).toEqual([exact.id, longer.id, prefixed.id])
    })

    it('deletion_date: upcoming, today, overdue and not_set against the clock', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const overdue = await create(api, { first_name: 'Over', last_name: 'Due' }, { deletion_date: '2026-06-30' })
      const today = await create(api, { first_name: 'To', last_name: 'Day' }, { deletion_date: '2026-07-01' })
      const tomorrow = await create(api, { first_name: 'To', last_name: 'Morrow' }, { deletion_date: '2026-07-02' })
      const later = await create(api, { first_name: 'La', last_name: 'Ter' }, { deletion_date: '2027-03-01' })
      const unset = await create(api, { first_name: 'Not', last_name: 'Set' })
      expect(await ids(api, { deletion_date: 'overdue' })).toEqual([overdue.id])
      expect(await ids(api, { deletion_date: 'today' })).toEqual([today.id])
      expect(await ids(api, { deletion_date: 'upcoming' })).toEqual([tomorrow.id, later.id])
      expect(await ids(api, { deletion_date: 'not_set' })).toEqual([unset.id])
      expect(await ids(api)).toEqual([overdue.id, today.id, tomorrow.id, later.id, unset.id])

      // The last second of the day is still today (UTC); the next one is tomorrow.
      mock.clock.set(new Date('2026-07-01T23:59:59Z'))
      expect(await ids(api, { deletion_date: 'today' })).toEqual([today.id])
      mock.clock.advance(1000)
      expect(await ids(api, { deletion_date: 'overdue' })).toEqual([overdue.id, today.id])
      expect(await ids(api, { deletion_date: 'today' })).toEqual([tomorrow.id])
      expect(await ids(api, { deletion_date: 'upcoming' })).toEqual([later.id])

      // Setting a deletion date through PATCH moves a client between buckets.
      expect((await api.patch(`/clients/${unset.id}`, { deletion_date: '2026-07-02' })).status).toBe(200)
      expect(await ids(api, { deletion_date: 'today' })).toEqual([tomorrow.id, unset.id])
      expect(await ids(api, { deletion_date: 'not_set' })).toEqual([])
    })

    it('combines filters: a client must pass every one', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const a = await create(api, { first_name: 'Ann', last_name: 'Lee' }, { status: 'pending', reference: 'R-1', deletion_date: '2026-08-01' })
      const b = await create(api, { first_name: 'Ann', last_name: 'Law' }, { status: 'pending', deletion_date: '2026-06-01' })
      const c = await create(api, { first_name: 'Ann', last_name: 'Ray' }, { status: 'approved', deletion_date: '2026-08-01' })
      const d = await create(api, { first_name: 'Bob', last_name: 'Lee' }, { status: 'pending', deletion_date: '2026-08-01' })
      team.team.clients.update(row(team, d.id), { archived_at: NOW })
      await assign(api, `/clients/${a.id}/assignees`, [team.users['read-only'].id])
      expect(await ids(api, { search: 'ann', status: 'pending' })).toEqual([a.id, b.id])
      expect(await ids(api, { search: 'ann', status: 'pending', deletion_date: 'upcoming' })).toEqual([a.id])
      expect(await ids(api, { status: 'pending', deletion_date: 'upcoming' })).toEqual([a.id, d.id])
      expect(await ids(api, { status: 'pending', deletion_date: 'upcoming', visibility: 'active' })).toEqual([a.id])
      expect(await ids(api, { search: 'lee', visibility: 'archived' })).toEqual([d.id])
      expect(await ids(api, { assignee: team.users['read-only'].id, reference: 'r-1', status: 'pending' })).toEqual([a.id])
      expect(await ids(api, { assignee: team.users['read-only'].id, status: 'approved' })).toEqual([])
      expect(await ids(api, { search: 'ann', deletion_date: 'upcoming' })).toEqual([a.id, c.id])
    })
  })

  describe('sorting', () => {
    /**
     * Sorting compares case-insensitively (a byte order would put Charlie before bob and Young
     * before brown). Four clients with distinct values for every sort key, in orders that differ from id order:
     *   id  first    last    deletion_date  created_at  updated_at  archived_at
     *   c1  Charlie  Young   2026-08-01     12:00       12:10       06-15
     *   c2  Alice    zimmer  null           12:01       12:01       null
     *   c3  bob      Adams   2026-07-15     12:02       12:05       06-20
     *   c4  dave     brown   2026-07-20     12:03       12:03       06-01
     */
    async function world() {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const c1 = await create(api, { first_name: 'Charlie', last_name: 'Young' }, { deletion_date: '2026-08-01' })
      mock.clock.advance(MINUTE)
      const c2 = await create(api, { first_name: 'Alice', last_name: 'zimmer' })
      mock.clock.advance(MINUTE)
      const c3 = await create(api, { first_name: 'bob', last_name: 'Adams' }, { deletion_date: '2026-07-15' })
      mock.clock.advance(MINUTE)
      const c4 = await create(api, { first_name: 'dave', last_name: 'brown' }, { deletion_date: '2026-07-20' })
      mock.clock.set(new Date('2026-07-01T12:05:00Z'))
      expect((await api.patch(`/clients/${c3.id}`, { mobile: '07700 900001' })).body.updated_at).toBe('2026-07-01T12:05:00Z')
      mock.clock.set(new Date('2026-07-01T12:10:00Z'))
      expect((await api.patch(`/clients/${c1.id}`, { mobile: '07700 900002' })).body.updated_at).toBe('2026-07-01T12:10:00Z')
      team.team.clients.update(row(team, c1.id), { archived_at: '2026-06-15T09:00:00Z' })
      team.team.clients.update(row(team, c3.id), { archived_at: '2026-06-20T09:00:00Z' })
      team.team.clients.update(row(team, c4.id), { archived_at: '2026-06-01T09:00:00Z' })
      return { api, c1: c1.id, c2: c2.id, c3: c3.id, c4: c4.id }
    }

    it('is in id order by default, ascending, or descending with order_by=desc', async () => {
      const w = await world()
      expect(await ids(w.api)).toEqual([w.c1, w.c2, w.c3, w.c4])
      expect(await ids(w.api, { order_by: 'asc' })).toEqual([w.c1, w.c2, w.c3, w.c4])
      expect(await ids(w.api, { order_by: 'desc' })).toEqual([w.c4, w.c3, w.c2, w.c1])
    })

    it.each([
      ['name.first_name', ['c2', 'c3', 'c1', 'c4']],
      ['name.last_name', ['c3', 'c4', 'c1', 'c2']],
      ['deletion_date', ['c2', 'c3', 'c4', 'c1']],
      ['created_at', ['c1', 'c2', 'c3', 'c4']],
      ['updated_at', ['c2', 'c4', 'c3', 'c1']],
      ['archived_at', ['c2', 'c4', 'c1', 'c3']],
    ] as const)('sort_by=%s, ascending by default and with order_by=asc, reversed with desc', async (sortBy, order) => {
      const w = await world()
      const expected = order.map((key) => w[key])
      expect(await ids(w.api, { sort_by: sortBy })).toEqual(expected)
      expect(await ids(w.api, { sort_by: sortBy, order_by: 'asc' })).toEqual(expected)
      expect(await ids(w.api, { sort_by: sortBy, order_by: 'desc' })).toEqual([...expected].reverse())
    })

    it('puts nulls first in ascending order and last in descending order', async () => {
      const w = await world()
      expect((await ids(w.api, { sort_by: 'deletion_date' }))[0]).toBe(w.c2)
      expect((await ids(w.api, { sort_by: 'deletion_date', order_by: 'desc' })).at(-1)).toBe(w.c2)
      expect((await ids(w.api, { sort_by: 'archived_at' }))[0]).toBe(w.c2)
      expect((await ids(w.api, { sort_by: 'archived_at', order_by: 'desc' })).at(-1)).toBe(w.c2)
    })

    it('sorts then filters then pages', async () => {
      const w = await world()
      const res = await w.api.get('/clients', { sort_by: 'name.last_name', order_by: 'desc', visibility: 'archived', limit: 2, page: 2 })
      expect(res.status).toBe(200)
      expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([w.c3])
      expect(res.body).toMatchObject({ total: 3, count: 1, limit: 2, current_page: 2, total_pages: 2 })
    })
  })

  describe('pagination', () => {
    async function teamWith(count: number) {
      const mock = createTestMock()
      const team = mock.newTeam()
      const created: number[] = []
      for (let index = 0; index < count; index++) {
        created.push((await create(team.api(), { first_name: `Client${String(index).padStart(2, '0')}`, last_name: 'Paged' })).id)
      }
      return { mock, team, api: team.api(), created }
    }

    it('pages by 25 by default', async () => {
      const { api, created } = await teamWith(27)
      const first = await api.get('/clients')
      expect(first.status).toBe(200)
      expect(first.body.data.map((c: { id: number }) => c.id)).toEqual(created.slice(0, 25))
      expect(first.body).toMatchObject({ total: 27, count: 25, limit: 25, current_page: 1, total_pages: 2 })
      expect(first.body.links).toEqual({ next: `${BASE}?page=2`, previous: null })
      const second = await api.get('/clients', { page: 2 })
      expect(second.body.data.map((c: { id: number }) => c.id)).toEqual(created.slice(25))
      expect(second.body).toMatchObject({ total: 27, count: 2, limit: 25, current_page: 2, total_pages: 2 })
      expect(second.body.links).toEqual({ next: null, previous: `${BASE}?page=1` })
    })

    it('has links null when everything fits on one page', async () => {
      const { api, created } = await teamWith(3)
      for (const query of [{}, { limit: 3 }, { limit: 100 }, { page: 1, limit: 25 }] as Query[]) {
        const res = await api.get('/clients', query)
        expect(res.body).toEqual({
          object: 'paginated_list',
          data: expect.any(Array),
          total: 3,
          count: 3,
          limit: query.limit ?? 25,
          current_page: 1,
          total_pages: 1,
          links: null,
        })
        expect(res.body.data.map((c: { id: number }) => c.id)).toEqual(created)
      }
    })

    it('walks one client at a time with limit=1: first, middle and last pages', async () => {
      const { api, created } = await teamWith(3)
      const pages = []
      for (const page of [1, 2, 3]) pages.push((await api.get('/clients', { limit: 1, page })).body)
      expect(pages.map((p) => p.data.map((c: { id: number }) => c.id))).toEqual([[created[0]], [created[1]], [created[2]]])
      expect(pages.map((p) => [p.total, p.count, p.limit, p.current_page, p.total_pages])).toEqual([
        [3, 1, 1, 1, 3],
        [3, 1, 1, 2, 3],
        [3, 1, 1, 3, 3],
      ])
      expect(pages.map((p) => p.links)).toEqual([
        { next: `${BASE}?limit=1&page=2`, previous: null },
        { next: `${BASE}?limit=1&page=3`, previous: `${BASE}?limit=1&page=1` },
        { next: null, previous: `${BASE}?limit=1&page=2` },
      ])
    })

    it('answers an empty data for a page past the end', async () => {
      const { api } = await teamWith(3)
      const res = await api.get('/clients', { limit: 2, page: 5 })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        object: 'paginated_list',
        data: [],
        total: 3,
        count: 0,
        limit: 2,
        current_page: 5,
        total_pages: 2,
        links: { next: null, previous: `${BASE}?limit=2&page=4` },
      })
      const single = await api.get('/clients', { page: 2 })
      expect(single.body).toEqual({ object: 'paginated_list', data: [], total: 3, count: 0, limit: 25, current_page: 2, total_pages: 1, links: null })
    })

    it('carries every query parameter into the links, with only page changed', async () => {
      const { api, team } = await teamWith(5)
      for (const client of team.team.clients.all()) team.team.clients.update(client, { status: 'pending' })
      const res = await api.get('/clients', {
        search: 'client paged',
        status: 'pending',
        visibility: 'active',
        deletion_date: 'not_set',
        sort_by: 'name.first_name',
        order_by: 'desc',
        page: 2,
        limit: 2,
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ total: 5, count: 2, current_page: 2, total_pages: 3 })
      const rest = 'search=client+paged&status=pending&visibility=active&deletion_date=not_set&sort_by=name.first_name&order_by=desc'
      expect(res.body.links).toEqual({ next: `${BASE}?${rest}&page=3&limit=2`, previous: `${BASE}?${rest}&page=1&limit=2` })
      const params = new URL(res.body.links.next as string).searchParams
      expect(Object.fromEntries(params)).toEqual({
        search: 'client paged',
        status: 'pending',
        visibility: 'active',
        deletion_date: 'not_set',
        sort_by: 'name.first_name',
        order_by: 'desc',
        page: '3',
        limit: '2',
      })
    })

    it('following the next links visits every client once, in order', async () => {
      const { api, created } = await teamWith(7)
      const seen: number[] = []
      let path: string | null = '/clients?limit=3&sort_by=created_at'
      for (let guard = 0; path !== null && guard < 10; guard++) {
        const res: any = await api.request('GET', path)
        expect(res.status).toBe(200)
        seen.push(...res.body.data.map((c: { id: number }) => c.id))
        const next: string | null = res.body.links?.next ?? null
        path = next === null ? null : next.slice('http://localhost/api/v2'.length)
      }
      expect(path).toBeNull()
      expect(seen).toEqual(created)
    })
  })

  describe('invalid query parameters answer 422', () => {
    it.each([
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
      [{ limit: 0 }, { limit: ['The limit field must be at least 1.'] }],
      [{ limit: -5 }, { limit: ['The limit field must be at least 1.'] }],
      [{ limit: 'abc' }, { limit: ['The limit field must be an integer.'] }],
      [{ limit: '2.5' }, { limit: ['The limit field must be an integer.'] }],
      [{ limit: '1e1' }, { limit: ['The limit field must be an integer.'] }],
      [{ limit: '0x10' }, { limit: ['The limit field must be an integer.'] }],
      [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
      [{ page: 'last' }, { page: ['The page field must be an integer.'] }],
      [{ status: 'bogus' }, { status: ['The selected status is invalid.'] }],
      [{ status: 'APPROVED' }, { status: ['The selected status is invalid.'] }],
      [{ sort_by: 'bogus' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ sort_by: 'email' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ sort_by: 'id' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ order_by: 'descending' }, { order_by: ['The selected order by is invalid.'] }],
      [{ visibility: 'all' }, { visibility: ['The selected visibility is invalid.'] }],
      [{ deletion_date: 'later' }, { deletion_date: ['The selected deletion date is invalid.'] }],
      [{ deletion_date: '2026-07-01' }, { deletion_date: ['The selected deletion date is invalid.'] }],
      [{ assignee: 'me' }, { assignee: ['The assignee field must be an integer.'] }],
      [{ assignee: 0 }, { assignee: ['The assignee field must be at least 1.'] }],
    ] as Array<[Query, Record<string, string[]>]>)('%j', async (query, errors) => {
      const mock = createTestMock()
      const res = await mock.newTeam().api().get('/clients', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    })

    it('reports every bad parameter at once', async () => {
      const mock = createTestMock()
      const res = await mock.newTeam().api().get('/clients', { limit: 101, page: 0, status: 'bogus', sort_by: 'bogus', deletion_date: 'later' })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        limit: ['The limit field must not be greater than 100.'],
        page: ['The page field must be at least 1.'],
        status: ['The selected status is invalid.'],
        sort_by: ['The selected sort by is invalid.'],
        deletion_date: ['The selected deletion date is invalid.'],
      })
    })
  })

  describe('repeated and empty query parameters', () => {
    it('treats an empty parameter as absent', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const a = await create(team.api(), { first_name: 'Ann', last_name: 'Lee' }, { status: 'approved' })
      const b = await create(team.api(), { first_name: 'Bob', last_name: 'Ray' })
      const res = await team.api().get('/clients', { search: '', status: '', visibility: '', reference: '', deletion_date: '', sort_by: '', order_by: '', limit: '', page: '' })
      expect(res.status).toBe(200)
      expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([a.id, b.id])
      expect(res.body).toMatchObject({ total: 2, count: 2, limit: 25, current_page: 1, total_pages: 1, links: null })
    })

    it('uses the last value of a repeated parameter', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const api = team.api()
      const a = await create(api, { first_name: 'Ann', last_name: 'Lee' }, { status: 'approved' })
      const b = await create(api, { first_name: 'Bob', last_name: 'Ray' }, { status: 'pending' })
      const c = await create(api, { first_name: 'Cy', last_name: 'Zed' }, { status: 'pending' })
      expect(await ids(api, { status: ['approved', 'pending'] })).toEqual([b.id, c.id])
      expect(await ids(api, { status: ['pending', 'approved'] })).toEqual([a.id])
      const res = await api.get('/clients', { limit: [1, 2] })
      expect(res.body).toMatchObject({ limit: 2, count: 2, total: 3, total_pages: 2 })
      const bad = await api.get('/clients', { status: ['approved', 'bogus'] })
      expect(bad.status).toBe(422)
      expect(bad.body).toEqual({ status: ['The selected status is invalid.'] })
    })

    it('ignores unknown parameters', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const a = await create(team.api(), { first_name: 'Ann', last_name: 'Lee' })
      expect(await ids(team.api(), { foo: 'bar', per_page: 1 })).toEqual([a.id])
    })
  })

  describe('isolation', () => {
    it("never shows another team's clients", async () => {
      const mock = createTestMock()
      const teamA = mock.newTeam()
      const teamB = mock.newTeam()
      const a1 = await create(teamA.api(), { first_name: 'Isolated', last_name: 'Alpha' }, { reference: 'SHARED-REF' })
      const a2 = await create(teamA.api(), { first_name: 'Isolated', last_name: 'Beta' })
      const b1 = await create(teamB.api(), { first_name: 'Isolated', last_name: 'Gamma' }, { reference: 'SHARED-REF' })
      for (const role of ['owner', 'member', 'read-only', 'assumed'] as const) {
        expect(await ids(teamA.api(role))).toEqual([a1.id, a2.id])
        expect(await ids(teamB.api(role))).toEqual([b1.id])
      }
      expect(await ids(teamA.api(), { search: 'isolated' })).toEqual([a1.id, a2.id])
      expect(await ids(teamB.api(), { reference: 'shared-ref' })).toEqual([b1.id])
      const acme = await mock.api('ivs_acme_owner').get('/clients', { search: 'isolated', limit: 100 })
      expect(acme.body.total).toBe(0)
      const acmeAll = await mock.api('ivs_acme_owner').get('/clients', { limit: 100 })
      const acmeIds = acmeAll.body.data.map((c: { id: number }) => c.id)
      expect(acmeIds).not.toContain(a1.id)
      expect(acmeIds).not.toContain(b1.id)
    })

    it("does not match another team's clients by assignee or organisation", async () => {
      const mock = createTestMock()
      const teamA = mock.newTeam()
      const teamB = mock.newTeam()
      const a = await create(teamA.api(), { first_name: 'Ann', last_name: 'Lee' })
      await assign(teamA.api(), `/clients/${a.id}/assignees`, [teamA.users.member.id])
      await createOrganisation(teamA.api(), { name: 'Umbrella Holdings' }, [a.id])
      expect(await ids(teamA.api(), { search: 'umbrella' })).toEqual([a.id])
      expect(await ids(teamB.api(), { search: 'umbrella' })).toEqual([])
      expect(await ids(teamB.api(), { assignee: teamA.users.member.id })).toEqual([])
    })
  })
})

describe('GET /clients on the seeded Acme team', () => {
  it('pages through all of its clients with limit=100', async () => {
    const mock = createTestMock()
    const api = mock.api('ivs_acme_owner')
    const acme = mock.store.data.teams.find((state) => state.team.identifier === 'acme-recruitment')
    const expectedCount = fixture.teams.find((team) => team.key === 'acme')?.generate.clients
    expect(expectedCount).toBe(50)
    const seen: any[] = []
    let page = 1
    for (; page <= 10; page++) {
      const res = await api.get('/clients', { limit: 100, page })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ total: expectedCount, limit: 100, current_page: page, total_pages: 1 })
      seen.push(...res.body.data)
      if (res.body.links === null || res.body.links.next === null) break
    }
    expect(page).toBe(1)
    expect(seen).toHaveLength(50)
    const seenIds = seen.map((client) => client.id)
    expect(seenIds).toEqual([...seenIds].sort((a, b) => a - b))
    expect(new Set(seenIds).size).toBe(50)
    expect(seenIds).toEqual(acme?.clients.map((client) => client.id).sort((a, b) => a - b))
    expect(seen.every((client) => client.object === 'client' && client.is_deletable === true)).toBe(true)
    // Both visibilities by default: the seeded world has archived clients too.
    expect(seen.some((client) => client.archived_at !== null)).toBe(true)
    expect(seen.some((client) => client.archived_at === null)).toBe(true)
    const detail = await api.get(`/clients/${seenIds[0] as number}`)
    expect(detail.body).toEqual(seen[0])
  })
})
