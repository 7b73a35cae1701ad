// A client's organisation memberships: GET, POST (add), PUT (replace) and DELETE on
// /clients/{id}/organisations (docs/specification-notes.md "Clients", docs/specification-notes.md "Status codes and bodies"
// and docs/specification-notes.md "Wire details").
import { describe, expect, it } from 'vitest'
import type { ApiClient, RequestOptions } from '../../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../../support/mock.ts'
import { assign, createClient, createOrganisation } from '../../support/requests.ts'
import { singlePage } from '../../support/wire.ts'

const MINUTE = 60_000
/** Links and action-list URLs are absolute; in-process requests are answered as http://localhost. */
const BASE = 'http://localhost/api/v2'

type NewTeam = ReturnType<TestMock['newTeam']>
type Query = NonNullable<RequestOptions['query']>

function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  return { mock, ...team }
}

/** The wire organisation as created at NOW with only a name, with overrides. */
function orgJson(id: number, name: string, overrides: Record<string, unknown> = {}) {
  return {
    object: 'organisation',
    id,
    status: null,
    name,
    company_number: null,
    jurisdiction: null,
    reference: null,
    incorporated_at: null,
    address: null,
    assignees: null,
    clients: null,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...overrides,
  }
}

async function organisations(api: ApiClient, ...names: string[]): Promise<any[]> {
  const created = []
  for (const name of names) created.push(await createOrganisation(api, { name }))
  return created
}

/** The ids of the client's organisations as the caller sees them (first page of 100). */
async function memberships(api: ApiClient, clientId: number, query: Query = {}): Promise<number[]> {
  const res = await api.get(`/clients/${clientId}/organisations`, { limit: 100, ...query })
  expect(res.status, res.text).toBe(200)
  return res.body.data.map((organisation: { id: number }) => organisation.id)
}

/** The collapsed client ids of an organisation as the owner sees it. */
async function clientsOf(api: ApiClient, organisationId: number): Promise<number[] | null> {
  const res = await api.get(`/organisations/${organisationId}`)
  expect(res.status, res.text).toBe(200)
  return res.body.clients
}

const eventsSince = (mock: TestMock, mark: number) => mock.events.slice(mark)

const membershipEvent = (team: NewTeam, client: number, occurredAt = NOW) => ({
  type: 'client.organisations',
  teamId: team.team.id,
  occurredAt,
  subjects: { client },
})

const listUrl = (clientId: number) => `${BASE}/clients/${clientId}/organisations`

async function archive(mock: TestMock, id: number) {
  const res = await mock.control.post(`/organisations/${id}/archive`)
  expect(res.status, res.text).toBe(204)
}

describe('GET /clients/{id}/organisations', () => {
  it("lists the client's organisations only, in created order by default, exactly as GET /organisations/{id} shows them", async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const other = await createClient(api(), 'Bob', 'Ray')
    const [first] = await organisations(api(), 'First Ltd')
    mock.clock.advance(MINUTE)
    const [second, notJoined] = await organisations(api(), 'Second Ltd', 'Not Joined Ltd')
    mock.clock.advance(MINUTE)
    const [third] = await organisations(api(), 'Third Ltd')
    // Joined in another order than created.
    expect((await api().post(`/clients/${client.id}/organisations`, [third.id, first.id])).status).toBe(201)
    expect((await api().post(`/clients/${client.id}/organisations`, [second.id])).status).toBe(201)
    expect((await api().post(`/clients/${other.id}/organisations`, [notJoined.id, second.id])).status).toBe(201)
    const res = await api('read-only').get(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(200)
    const shown = await Promise.all([first, second, third].map(async (o) => (await api('read-only').get(`/organisations/${o.id}`)).body))
    expect(shown.map((o) => o.id)).toEqual([first.id, second.id, third.id])
    expect(res.body).toEqual({ object: 'paginated_list', data: shown, total: 3, count: 3, limit: 25, current_page: 1, total_pages: 1, links: null })
    expect(res.body.data[1]).toEqual(orgJson(second.id, 'Second Ltd', { clients: [other.id, client.id], created_at: at(1), updated_at: at(1) }))
  })

  it('orders by created_at by default, not by id', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [late] = await organisations(api(), 'Late Ltd')
    mock.clock.set(new Date('2026-06-30T08:00:00Z'))
    const [early] = await organisations(api(), 'Early Ltd')
    expect((await api().post(`/clients/${client.id}/organisations`, [late.id, early.id])).status).toBe(201)
    expect(await memberships(api(), client.id)).toEqual([early.id, late.id])
    expect(await memberships(api(), client.id, { order_by: 'desc' })).toEqual([late.id, early.id])
  })

  it('is an empty single page for a client in no organisation', async () => {
    const { api } = setup()
    const client = await createClient(api())
    await organisations(api(), 'Unrelated Ltd')
    const res = await api().get(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  describe('sorting', () => {
    /**
     *   id  name       created_at  updated_at
     *   o1  charlie    12:00       12:09
     *   o2  Alpha      12:01       12:01
     *   o3  bravo      12:02       12:05
     */
    async function world() {
      const { mock, api } = setup()
      const client = await createClient(api())
      const [o1] = await organisations(api(), 'charlie')
      mock.clock.advance(MINUTE)
      const [o2] = await organisations(api(), 'Alpha')
      mock.clock.advance(MINUTE)
      const [o3] = await organisations(api(), 'bravo')
      mock.clock.set(new Date(at(5)))
      expect((await api().patch(`/organisations/${o3.id}`, { name: 'bravo', reference: 'B' })).body.updated_at).toBe(at(5))
      mock.clock.set(new Date(at(9)))
      expect((await api().patch(`/organisations/${o1.id}`, { name: 'charlie', reference: 'C' })).body.updated_at).toBe(at(9))
      expect((await api().post(`/clients/${client.id}/organisations`, [o3.id, o1.id, o2.id])).status).toBe(201)
      return { api: api(), client: client.id, o1: o1.id, o2: o2.id, o3: o3.id }
    }

    it.each([
      ['name', ['o2', 'o3', 'o1']],
      ['created_at', ['o1', 'o2', 'o3']],
      ['updated_at', ['o2', 'o3', 'o1']],
      // Rule 9 of docs/specification-notes.md "Rules of the service": a client is never in an archived organisation, so all are null: id order.
      ['archived_at', ['o1', 'o2', 'o3']],
    ] as const)('sort_by=%s, ascending by default and with order_by=asc, reversed with desc', async (sortBy, order) => {
      const w = await world()
      const expected = order.map((key) => w[key])
      expect(await memberships(w.api, w.client, { sort_by: sortBy })).toEqual(expected)
      expect(await memberships(w.api, w.client, { sort_by: sortBy, order_by: 'asc' })).toEqual(expected)
      expect(await memberships(w.api, w.client, { sort_by: sortBy, order_by: 'desc' })).toEqual([...expected].reverse())
    })

    it('does not offer sort_by=reference (the specification lists name, created_at, updated_at, archived_at)', async () => {
      const w = await world()
      const res = await w.api.get(`/clients/${w.client}/organisations`, { sort_by: 'reference' })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ sort_by: ['The selected sort by is invalid.'] })
    })
  })

  it('expands assignees and clients as list objects', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    mock.clock.advance(MINUTE)
    const colleague = await createClient(api, 'Bob', 'Ray')
    const [organisation] = await organisations(api, 'Lee Holdings Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [organisation.id])).status).toBe(201)
    expect((await api.post(`/clients/${colleague.id}/organisations`, [organisation.id])).status).toBe(201)
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id])
    const user = team.users.member
    const assignees = {
      object: 'list',
      data: [{ object: 'team_member', id: user.id, name: user.name, email: user.email, role: 'member' }],
      total: 1,
      count: 1,
      limit: 25,
      has_more: false,
      url: `${BASE}/organisations/${organisation.id}/assignees`,
    }
    const clients = {
      object: 'list',
      data: [(await api.get(`/clients/${colleague.id}`)).body, (await api.get(`/clients/${client.id}`)).body],
      total: 2,
      count: 2,
      limit: 25,
      has_more: false,
      url: `${BASE}/organisations/${organisation.id}/clients`,
    }
    const base = { assignees: [user.id], clients: [colleague.id, client.id], created_at: at(1), updated_at: at(1) }
    const cases: Array<[Query, Record<string, unknown>]> = [
      [{}, base],
      [{ expand: 'assignees' }, { ...base, assignees }],
      [{ expand: 'clients' }, { ...base, clients }],
      [{ expand: ['clients', 'assignees'] }, { ...base, assignees, clients }],
    ]
    for (const [query, expected] of cases) {
      const res = await api.get(`/clients/${client.id}/organisations`, query)
      expect(res.status).toBe(200)
      expect(res.body.data, JSON.stringify(query)).toEqual([orgJson(organisation.id, 'Lee Holdings Ltd', expected)])
    }
    const bogus = await api.get(`/clients/${client.id}/organisations`, { expand: 'organisation' })
    expect(bogus.status).toBe(422)
    expect(bogus.body).toEqual({ expand: ['The expand parameter must be one of: assignees, clients'] })
  })

  it('pages by 25 by default with links to the collection, and answers an empty data past the end', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const created = (await organisations(api(), ...Array.from({ length: 27 }, (_, index) => `Organisation ${index}`))).map((o) => o.id)
    const add = await api().post(`/clients/${client.id}/organisations`, created)
    expect(add.status).toBe(201)
    const first = await api().get(`/clients/${client.id}/organisations`)
    expect(first.body.data.map((o: { id: number }) => o.id)).toEqual(created.slice(0, 25))
    expect(first.body).toMatchObject({ total: 27, count: 25, limit: 25, current_page: 1, total_pages: 2 })
    expect(first.body.links).toEqual({ next: `${listUrl(client.id)}?page=2`, previous: null })
    const second = await api().get(`/clients/${client.id}/organisations`, { page: 2 })
    expect(second.body.data.map((o: { id: number }) => o.id)).toEqual(created.slice(25))
    expect(second.body.links).toEqual({ next: null, previous: `${listUrl(client.id)}?page=1` })
    const past = await api().get(`/clients/${client.id}/organisations`, { page: 4, limit: 10, sort_by: 'name' })
    expect(past.body).toEqual({
      object: 'paginated_list',
      data: [],
      total: 27,
      count: 0,
      limit: 10,
      current_page: 4,
      total_pages: 3,
      links: { next: null, previous: `${listUrl(client.id)}?page=3&limit=10&sort_by=name` },
    })
  })

  it('answers 404 for an unknown client, a client of another team and a non-numeric id', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    for (const path of ['/clients/987654321/organisations', `/clients/${client.id}/organisations`]) {
      const res = await b.api().get(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Client not found' })
    }
    const route = await b.api().get('/clients/abc/organisations')
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
  })

  it('forbids an assigned-only member a client not assigned to them, and shows only their organisations of one that is', async () => {
    const team = setup()
    const api = team.api()
    const client = await createClient(api)
    const [mine, theirs] = await organisations(api, 'Mine Ltd', 'Theirs Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [mine.id, theirs.id])).status).toBe(201)
    const restricted = team.api('assigned-only')
    const forbidden = await restricted.get(`/clients/${client.id}/organisations`)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ message: 'This action is unauthorized.' })
    await assign(api, `/clients/${client.id}/assignees`, [team.users['assigned-only'].id])
    await assign(api, `/organisations/${mine.id}/assignees`, [team.users['assigned-only'].id])
    const res = await restricted.get(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([orgJson(mine.id, 'Mine Ltd', { assignees: [team.users['assigned-only'].id], clients: [client.id] })]))
  })

  it('answers 401 without a token', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().as(undefined).get(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })
})

describe('POST /clients/{id}/organisations (add)', () => {
  it('answers 201 with a list of only the newly joined organisations, and emits one client.organisations', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const [a, b, c] = await organisations(api, 'A Ltd', 'B Ltd', 'C Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [b.id])).status).toBe(201)
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').post(`/clients/${client.id}/organisations`, [c.id, b.id, a.id])
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      object: 'list',
      data: [orgJson(c.id, 'C Ltd', { clients: [client.id] }), orgJson(a.id, 'A Ltd', { clients: [client.id] })],
      total: 2,
      count: 2,
      limit: 100,
      has_more: false,
      url: listUrl(client.id),
    })
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id, at(1))])
    expect(await memberships(api, client.id)).toEqual([a.id, b.id, c.id])
    expect(await clientsOf(api, b.id)).toEqual([client.id])
  })

  it('keeps the other clients of an organisation', async () => {
    const { mock, api } = setup()
    const first = await createClient(api())
    mock.clock.advance(MINUTE)
    const second = await createClient(api(), 'Bob', 'Ray')
    const [organisation] = await organisations(api(), 'Shared Ltd')
    expect((await api().post(`/clients/${first.id}/organisations`, [organisation.id])).status).toBe(201)
    const res = await api().post(`/clients/${second.id}/organisations`, [organisation.id])
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual([orgJson(organisation.id, 'Shared Ltd', { clients: [second.id, first.id], created_at: at(1), updated_at: at(1) })])
  })

  it('answers 204 with an empty body and emits nothing when every organisation is a membership already', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [a, b] = await organisations(api(), 'A Ltd', 'B Ltd')
    expect((await api().post(`/clients/${client.id}/organisations`, [a.id, b.id])).status).toBe(201)
    const mark = mock.events.length
    for (const body of [[a.id], [b.id, a.id], [a.id, a.id, b.id]]) {
      const res = await api().post(`/clients/${client.id}/organisations`, body)
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
    }
    expect(eventsSince(mock, mark)).toEqual([])
    expect(await memberships(api(), client.id)).toEqual([a.id, b.id])
    expect(await clientsOf(api(), a.id)).toEqual([client.id])
  })

  it('adds an organisation named twice once', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const [a] = await organisations(api, 'A Ltd')
    const mark = mock.events.length
    const res = await api.post(`/clients/${client.id}/organisations`, [a.id, a.id])
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ object: 'list', data: [orgJson(a.id, 'A Ltd', { clients: [client.id] })], total: 1, count: 1, limit: 100, has_more: false, url: listUrl(client.id) })
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
    expect(await memberships(api, client.id)).toEqual([a.id])
    expect(await clientsOf(api, a.id)).toEqual([client.id])
  })

  it('takes up to 100 ids', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const [a] = await organisations(api(), 'A Ltd')
    const res = await api().post(`/clients/${client.id}/organisations`, Array.from({ length: 100 }, () => a.id))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ total: 1, count: 1, limit: 100, has_more: false })
  })

  it.each(['owner', 'member', 'assumed'] as const)('lets the %s add', async (role) => {
    const { api } = setup()
    const client = await createClient(api())
    const [a] = await organisations(api(), 'A Ltd')
    const res = await api(role).post(`/clients/${client.id}/organisations`, [a.id])
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual([orgJson(a.id, 'A Ltd', { clients: [client.id] })])
  })

  describe('validation: nothing changes and nothing is emitted', () => {
    async function rejects(body: (ids: { a: number; b: number }) => unknown, errors: Record<string, unknown>, raw?: string) {
      const { mock, api } = setup()
      const client = await createClient(api())
      const [a, b] = await organisations(api(), 'A Ltd', 'B Ltd')
      expect((await api().post(`/clients/${client.id}/organisations`, [b.id])).status).toBe(201)
      const mark = mock.events.length
      const res =
        raw === undefined
          ? await api().post(`/clients/${client.id}/organisations`, body({ a: a.id, b: b.id }))
          : await api().request('POST', `/clients/${client.id}/organisations`, { raw, headers: { 'Content-Type': 'application/json' } })
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expect(await memberships(api(), client.id)).toEqual([b.id])
      expect(await clientsOf(api(), a.id)).toBeNull()
      expect(eventsSince(mock, mark)).toEqual([])
    }

    it('[] is "At least one organisation is required" (docs/specification-notes.md "Wire details")', () => rejects(() => [], { errors: ['At least one organisation is required'] }))

    it('101 ids are too many', () =>
      rejects(({ a }) => Array.from({ length: 101 }, () => a), { errors: ['The request body must not have more than 100 items.'] }))

    it.each([
      ['an object', () => ({ organisations: [1] })],
      ['a number', ({ a }: { a: number }) => a],
      ['a string', () => 'A Ltd'],
      ['null', () => null],
    ])('a body that is %s is not an array', (_, body) => rejects(body, { errors: ['The request body must be a JSON array.'] }))

    it('an empty body is not an array', () => rejects(() => undefined, { errors: ['The request body must be a JSON array.'] }, ''))

    it('malformed JSON', () => rejects(() => undefined, { errors: ['The request body must be valid JSON.'] }, '[1,'))

    it('an unknown organisation id, keyed by its index', () => rejects(({ a }) => [a, 987_654_321], { '1': ['The selected 1 is invalid.'] }))

    it('an archived organisation, keyed by its index', async () => {
      const { mock, api } = setup()
      const client = await createClient(api())
      const [a, archived] = await organisations(api(), 'A Ltd', 'Archived Ltd')
      await archive(mock, archived.id)
      const mark = mock.events.length
      const res = await api().post(`/clients/${client.id}/organisations`, [archived.id, a.id])
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ '0': ['The selected 0 is invalid.'] })
      expect(await memberships(api(), client.id)).toEqual([])
      expect(eventsSince(mock, mark)).toEqual([])
    })

    it("another team's organisation, keyed by its index, and every bad index at once", async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const other = mock.newTeam()
      const client = await createClient(team.api())
      const [a, archived] = await organisations(team.api(), 'A Ltd', 'Archived Ltd')
      const [foreign] = await organisations(other.api(), 'Foreign Ltd')
      const seeded = (await mock.api('ivs_acme_owner').get('/organisations')).body.data[0].id
      await archive(mock, archived.id)
      const mark = mock.events.length
      const res = await team.api().post(`/clients/${client.id}/organisations`, [a.id, foreign.id, archived.id, 987_654_321, seeded])
      expect(res.status).toBe(422)
      expect(res.body).toEqual({
        '1': ['The selected 1 is invalid.'],
        '2': ['The selected 2 is invalid.'],
        '3': ['The selected 3 is invalid.'],
        '4': ['The selected 4 is invalid.'],
      })
      expect(await memberships(team.api(), client.id)).toEqual([])
      expect(await clientsOf(other.api(), foreign.id)).toBeNull()
      expect(eventsSince(mock, mark)).toEqual([])
    })

    it('an id of 0 or below like any unknown id, as Laravel\'s exists rule words it', () =>
      rejects(({ a }) => [a, 0, -3], { '1': ['The selected 1 is invalid.'], '2': ['The selected 2 is invalid.'] }))

    it('ids that are not integers, keyed by their index', () =>
      rejects(({ a }) => [a, 'A Ltd', 1.5], { '1': ['The 1 field must be an integer.'], '2': ['The 2 field must be an integer.'] }))
  })

  it('answers 404 Client not found for an unknown client or one of another team, before validating the body', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    const [organisation] = await organisations(b.api(), 'B Ltd')
    const mark = mock.events.length
    for (const path of ['/clients/987654321/organisations', `/clients/${client.id}/organisations`]) {
      for (const body of [[organisation.id], [], 'not an array']) {
        const res = await b.api().post(path, body)
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ error: 'Client not found' })
      }
    }
    expect(eventsSince(mock, mark)).toEqual([])
    expect(await memberships(a.api(), client.id)).toEqual([])
  })

  it('forbids a read-only member (404 first for an unknown client), whatever the body', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [a] = await organisations(api(), 'A Ltd')
    const mark = mock.events.length
    for (const body of [[a.id], [], {}]) {
      const res = await api('read-only').post(`/clients/${client.id}/organisations`, body)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
    const unknown = await api('read-only').post('/clients/987654321/organisations', [a.id])
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    expect(await memberships(api(), client.id)).toEqual([])
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('lets an assigned-only member add their client to their organisations only', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const [mine, theirs] = await organisations(api, 'Mine Ltd', 'Theirs Ltd')
    const restricted = team.api('assigned-only')
    const me = team.users['assigned-only'].id
    const unassigned = await restricted.post(`/clients/${client.id}/organisations`, [mine.id])
    expect(unassigned.status).toBe(403)
    expect(unassigned.body).toEqual({ message: 'This action is unauthorized.' })
    await assign(api, `/clients/${client.id}/assignees`, [me])
    await assign(api, `/organisations/${mine.id}/assignees`, [me])
    const hidden = await restricted.post(`/clients/${client.id}/organisations`, [mine.id, theirs.id])
    expect(hidden.status).toBe(422)
    expect(hidden.body).toEqual({ '1': ['The selected 1 is invalid.'] })
    expect(await memberships(api, client.id)).toEqual([])
    const mark = mock.events.length
    const res = await restricted.post(`/clients/${client.id}/organisations`, [mine.id])
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      object: 'list',
      data: [orgJson(mine.id, 'Mine Ltd', { assignees: [me], clients: [client.id] })],
      total: 1,
      count: 1,
      limit: 100,
      has_more: false,
      url: listUrl(client.id),
    })
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
  })
})

describe('PUT /clients/{id}/organisations (replace)', () => {
  it('leaves the client in exactly the organisations named, answering 201 with only the new ones', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const other = await createClient(api, 'Bob', 'Ray')
    const [a, b, c, d] = await organisations(api, 'A Ltd', 'B Ltd', 'C Ltd', 'D Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id, b.id])).status).toBe(201)
    expect((await api.post(`/clients/${other.id}/organisations`, [a.id])).status).toBe(201)
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').put(`/clients/${client.id}/organisations`, [d.id, b.id, c.id, d.id])
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      object: 'list',
      data: [orgJson(d.id, 'D Ltd', { clients: [client.id] }), orgJson(c.id, 'C Ltd', { clients: [client.id] })],
      total: 2,
      count: 2,
      limit: 100,
      has_more: false,
      url: listUrl(client.id),
    })
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id, at(1))])
    expect(await memberships(api, client.id)).toEqual([b.id, c.id, d.id])
    expect(await clientsOf(api, a.id)).toEqual([other.id])
    expect(await memberships(api, other.id)).toEqual([a.id])
  })

  it('answers 204 when nothing is new, even though some memberships were removed, and emits client.organisations', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const [a, b, c] = await organisations(api, 'A Ltd', 'B Ltd', 'C Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id, b.id, c.id])).status).toBe(201)
    const mark = mock.events.length
    const res = await api.put(`/clients/${client.id}/organisations`, [b.id])
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
    expect(await memberships(api, client.id)).toEqual([b.id])
    expect(await clientsOf(api, a.id)).toBeNull()
    expect(await clientsOf(api, c.id)).toBeNull()
  })

  it('answers 204 and emits nothing when the named set is the current one', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [a, b] = await organisations(api(), 'A Ltd', 'B Ltd')
    expect((await api().post(`/clients/${client.id}/organisations`, [a.id, b.id])).status).toBe(201)
    const mark = mock.events.length
    const res = await api().put(`/clients/${client.id}/organisations`, [b.id, a.id, b.id])
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([])
    expect(await memberships(api(), client.id)).toEqual([a.id, b.id])
  })

  it('answers 201 with every organisation for a client in none', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const [a, b] = await organisations(api, 'A Ltd', 'B Ltd')
    const mark = mock.events.length
    const res = await api.put(`/clients/${client.id}/organisations`, [a.id, b.id])
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      object: 'list',
      data: [orgJson(a.id, 'A Ltd', { clients: [client.id] }), orgJson(b.id, 'B Ltd', { clients: [client.id] })],
      total: 2,
      count: 2,
      limit: 100,
      has_more: false,
      url: listUrl(client.id),
    })
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
  })

  it('validates like add and changes nothing on failure', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const other = mock.newTeam()
    const api = team.api()
    const client = await createClient(api)
    const [a, b, archived] = await organisations(api, 'A Ltd', 'B Ltd', 'Archived Ltd')
    const [foreign] = await organisations(other.api(), 'Foreign Ltd')
    await archive(mock, archived.id)
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id])).status).toBe(201)
    const mark = mock.events.length
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [[], { errors: ['At least one organisation is required'] }],
      [{ id: b.id }, { errors: ['The request body must be a JSON array.'] }],
      [Array.from({ length: 101 }, () => b.id), { errors: ['The request body must not have more than 100 items.'] }],
      [[b.id, 987_654_321], { '1': ['The selected 1 is invalid.'] }],
      [[archived.id, b.id], { '0': ['The selected 0 is invalid.'] }],
      [[b.id, foreign.id], { '1': ['The selected 1 is invalid.'] }],
    ]
    for (const [body, errors] of cases) {
      const res = await api.put(`/clients/${client.id}/organisations`, body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(res.body).toEqual(errors)
    }
    expect(await memberships(api, client.id)).toEqual([a.id])
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('answers 404 Client not found before validating the body, and 403 to read-only and to assigned-only on an unassigned client', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [a] = await organisations(api(), 'A Ltd')
    const mark = mock.events.length
    const unknown = await api().put('/clients/987654321/organisations', [])
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    for (const role of ['read-only', 'assigned-only'] as const) {
      const res = await api(role).put(`/clients/${client.id}/organisations`, [a.id])
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
    expect(await memberships(api(), client.id)).toEqual([])
    expect(eventsSince(mock, mark)).toEqual([])
  })
})

describe('DELETE /clients/{id}/organisations (all)', () => {
  it('answers 204, takes the client out of every organisation and emits one client.organisations', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const other = await createClient(api, 'Bob', 'Ray')
    const [a, b] = await organisations(api, 'A Ltd', 'B Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id, b.id])).status).toBe(201)
    expect((await api.post(`/clients/${other.id}/organisations`, [b.id])).status).toBe(201)
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').delete(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id, at(1))])
    expect(await memberships(api, client.id)).toEqual([])
    expect(await clientsOf(api, a.id)).toBeNull()
    expect(await clientsOf(api, b.id)).toEqual([other.id])
  })

  it('answers 204 and emits nothing for a client in no organisation', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const mark = mock.events.length
    const res = await api().delete(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('answers 404 for an unknown client or one of another team, and 403 to read-only and to assigned-only on an unassigned client', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const other = mock.newTeam()
    const client = await createClient(team.api())
    const [a] = await organisations(team.api(), 'A Ltd')
    expect((await team.api().post(`/clients/${client.id}/organisations`, [a.id])).status).toBe(201)
    const mark = mock.events.length
    for (const [api, path] of [
      [team.api(), '/clients/987654321/organisations'],
      [other.api(), `/clients/${client.id}/organisations`],
    ] as const) {
      const res = await api.delete(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Client not found' })
    }
    for (const role of ['read-only', 'assigned-only'] as const) {
      const res = await team.api(role).delete(`/clients/${client.id}/organisations`)
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
    expect(await memberships(team.api(), client.id)).toEqual([a.id])
    expect(eventsSince(mock, mark)).toEqual([])
  })
})

describe('DELETE /clients/{clientId}/organisations/{organisationId} (one)', () => {
  it('answers 204, removes only that membership and emits one client.organisations', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const other = await createClient(api, 'Bob', 'Ray')
    const [a, b] = await organisations(api, 'A Ltd', 'B Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id, b.id])).status).toBe(201)
    expect((await api.post(`/clients/${other.id}/organisations`, [a.id])).status).toBe(201)
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').delete(`/clients/${client.id}/organisations/${a.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id, at(1))])
    expect(await memberships(api, client.id)).toEqual([b.id])
    expect(await clientsOf(api, a.id)).toEqual([other.id])
    const again = await api.delete(`/clients/${client.id}/organisations/${a.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ error: 'Organisation not found' })
    expect(eventsSince(mock, mark)).toHaveLength(1)
  })

  it('answers 404 Organisation not found when the client is not in it, it is unknown, or it is of another team', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const other = mock.newTeam()
    const client = await createClient(team.api())
    const [joined, notJoined] = await organisations(team.api(), 'Joined Ltd', 'Not Joined Ltd')
    const [foreign] = await organisations(other.api(), 'Foreign Ltd')
    expect((await team.api().post(`/clients/${client.id}/organisations`, [joined.id])).status).toBe(201)
    const mark = mock.events.length
    for (const organisationId of [notJoined.id, 987_654_321, foreign.id]) {
      const res = await team.api().delete(`/clients/${client.id}/organisations/${organisationId}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Organisation not found' })
    }
    const route = await team.api().delete(`/clients/${client.id}/organisations/abc`)
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    expect(await memberships(team.api(), client.id)).toEqual([joined.id])
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('answers 404 Client not found for an unknown client or one of another team', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const other = mock.newTeam()
    const client = await createClient(team.api())
    const [a] = await organisations(team.api(), 'A Ltd')
    expect((await team.api().post(`/clients/${client.id}/organisations`, [a.id])).status).toBe(201)
    for (const [api, path] of [
      [team.api(), `/clients/987654321/organisations/${a.id}`],
      [other.api(), `/clients/${client.id}/organisations/${a.id}`],
    ] as const) {
      const res = await api.delete(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Client not found' })
    }
    expect(await memberships(team.api(), client.id)).toEqual([a.id])
  })

  it('forbids read-only, and assigned-only on a client not assigned to them', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const [a] = await organisations(api(), 'A Ltd')
    expect((await api().post(`/clients/${client.id}/organisations`, [a.id])).status).toBe(201)
    const mark = mock.events.length
    for (const role of ['read-only', 'assigned-only'] as const) {
      const res = await api(role).delete(`/clients/${client.id}/organisations/${a.id}`)
      expect(res.status, role).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
    expect(await memberships(api(), client.id)).toEqual([a.id])
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('lets an assigned-only member remove their client from their organisation', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const me = team.users['assigned-only'].id
    const client = await createClient(api)
    const [a] = await organisations(api, 'A Ltd')
    expect((await api.post(`/clients/${client.id}/organisations`, [a.id])).status).toBe(201)
    await assign(api, `/clients/${client.id}/assignees`, [me])
    await assign(api, `/organisations/${a.id}/assignees`, [me])
    const mark = mock.events.length
    const res = await team.api('assigned-only').delete(`/clients/${client.id}/organisations/${a.id}`)
    expect(res.status).toBe(204)
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
    expect(await memberships(api, client.id)).toEqual([])
  })
})

describe('an assigned-only member and organisations they cannot see', () => {
  /** Client C (assigned to the assigned-only member) in S (assigned to them) and H (not). */
  async function hiddenMembership() {
    const { mock, ...team } = setup()
    const api = team.api()
    const me = team.users['assigned-only'].id
    const client = await createClient(api)
    const [seen, hidden, other] = await organisations(api, 'Seen Ltd', 'Hidden Ltd', 'Other Ltd')
    await assign(api, `/clients/${client.id}/assignees`, [me])
    for (const organisation of [seen, other]) await assign(api, `/organisations/${organisation.id}/assignees`, [me])
    expect((await api.post(`/clients/${client.id}/organisations`, [seen.id, hidden.id])).status).toBe(201)
    return { mock, team, api, restricted: team.api('assigned-only'), client, seen, hidden, other }
  }

  it('PUT replaces only the memberships they can see: the hidden one stays', async () => {
    const { mock, team, api, restricted, client, hidden, other } = await hiddenMembership()
    const mark = mock.events.length
    const res = await restricted.put(`/clients/${client.id}/organisations`, [other.id])
    expect(res.status).toBe(201)
    expect(res.body.data.map((organisation: { id: number }) => organisation.id)).toEqual([other.id])
    expect(await memberships(restricted, client.id)).toEqual([other.id])
    expect(await memberships(api, client.id)).toEqual([hidden.id, other.id])
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
  })

  it('DELETE of all removes only the memberships they can see', async () => {
    const { mock, team, api, restricted, client, hidden } = await hiddenMembership()
    const mark = mock.events.length
    const res = await restricted.delete(`/clients/${client.id}/organisations`)
    expect(res.status).toBe(204)
    expect(await memberships(api, client.id)).toEqual([hidden.id])
    expect(eventsSince(mock, mark)).toEqual([membershipEvent(team, client.id)])
  })

  it('DELETE of one they cannot see is 403 and changes nothing', async () => {
    const { mock, api, restricted, client, seen, hidden } = await hiddenMembership()
    const mark = mock.events.length
    const res = await restricted.delete(`/clients/${client.id}/organisations/${hidden.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    expect(await memberships(api, client.id)).toEqual([seen.id, hidden.id])
    expect(eventsSince(mock, mark)).toEqual([])
  })
})

describe('which error comes first for one membership', () => {
  it('answers 404 Organisation not found before a read-only 403, as Laravel binds both ids of the path first', async () => {
    const { ...team } = setup()
    const client = await createClient(team.api())
    const [member, outside] = await organisations(team.api(), 'Member Ltd', 'Outside Ltd')
    expect((await team.api().post(`/clients/${client.id}/organisations`, [member.id])).status).toBe(201)
    for (const id of [outside.id, 987_654]) {
      const res = await team.api('read-only').delete(`/clients/${client.id}/organisations/${id}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Organisation not found' })
    }
    const known = await team.api('read-only').delete(`/clients/${client.id}/organisations/${member.id}`)
    expect(known.status).toBe(403)
    expect(known.body).toEqual({ message: 'This action is unauthorized.' })
  })
})
