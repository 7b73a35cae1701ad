// The assignee collections of clients, organisations and records (docs/specification-notes.md "Assignees", docs/specification-notes.md "Roles",
// docs/specification-notes.md "Wire details", docs/specification-notes.md "Status codes and bodies"): one module serves
// every parent, so every test runs for each.
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { createTestMock, type TestMock } from '../support/mock.ts'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import type { UserRow } from '../../src/store/identity.ts'

type NewTeam = ReturnType<TestMock['newTeam']>

/** Links are absolute URLs; in-process requests are answered as http://localhost. */
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const SHAPE_ERROR = { errors: ['The submitted value must be an array of assignee objects'] }
const INVALID_MEMBER = ['The selected team member is invalid.']
const EMPTY_PAGE = { object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null }

interface Parent {
  /** The path segment. */
  name: 'clients' | 'organisations' | 'records'
  notFound: { error: string }
  /** Creates one in the caller's team (through the API where it is served) and answers its id. */
  create(api: ApiClient, mock: TestMock): Promise<number>
  /** GET /<name>?assignee= is served. */
  filterable: boolean
}

let made = 0

const PARENTS: Parent[] = [
  {
    name: 'clients',
    notFound: { error: 'Client not found' },
    filterable: true,
    async create(api) {
      made += 1
      const res = await api.post('/clients', { name: { first_name: 'Ann', last_name: `Lee ${made}` }, email: `ann${made}@example.com` })
      expect(res.status, res.text).toBe(201)
      return res.body.id
    },
  },
  {
    name: 'organisations',
    notFound: { error: 'Organisation not found' },
    filterable: true,
    async create(api) {
      made += 1
      const res = await api.post('/organisations', { name: `Lee Holdings ${made} Ltd` })
      expect(res.status, res.text).toBe(201)
      return res.body.id
    },
  },
  {
    name: 'records',
    notFound: { error: 'Record not found' },
    filterable: true,
    /** A record of a new client of the caller's team. */
    async create(api, mock) {
      const client = await PARENTS[0]!.create(api, mock)
      const res = await api.post('/records', { client, steps: [{ type: 'check.identity' }], notification: false })
      expect(res.status, res.text).toBe(201)
      return res.body.id
    },
  },
]

/** Body items naming users. */
const items = (...users: number[]) => users.map((user) => ({ type: 'team_member', team_member: user }))

/** The wire team member of a user. */
const teamMember = (user: UserRow, role: Role | null) => ({ object: 'team_member', id: user.id, name: user.name, email: user.email, role })

/** The wire assignee of a team role. */
const assignee = (id: number, team: NewTeam, role: Role, shownRole: Role | null = role) => ({
  object: 'assignee',
  id,
  type: 'team_member',
  team_member: teamMember(team.users[role], shownRole),
})

/** The assignee id the next assignment gets (ids come from one sequence for the whole service). */
const nextAssigneeId = (mock: TestMock) => (mock.store.data.sequences.assignee ?? 0) + 1

/** A copy of the whole world and the number of events so far, to check that nothing changed. */
function snapshot(mock: TestMock) {
  return { data: structuredClone(mock.store.data), events: mock.events.length }
}

function expectUnchanged(mock: TestMock, before: ReturnType<typeof snapshot>) {
  expect(mock.store.data).toEqual(before.data)
  expect(mock.events).toHaveLength(before.events)
}

const actionList = (url: string, data: unknown[]) => ({ object: 'list', data, total: data.length, count: data.length, limit: 100, has_more: false, url })

describe.each(PARENTS)('$name assignees', (parent) => {
  const collection = (id: number) => `/${parent.name}/${id}/assignees`
  const collectionUrl = (id: number) => `${ORIGIN}${collection(id)}`

  /** A fresh mock, a fresh team and one parent made by its owner. */
  async function setup() {
    const mock = createTestMock()
    const team = mock.newTeam()
    const id = await parent.create(team.api(), mock)
    return { mock, team, id, api: team.api() }
  }

  /** Adds users through the API and answers the new assignees' ids. */
  async function add(api: ApiClient, id: number, users: number[]): Promise<number[]> {
    const res = await api.post(collection(id), items(...users))
    expect(res.status, res.text).toBe(201)
    return res.body.data.map((row: { id: number }) => row.id)
  }

  /** Every assignee on the first page of 100. */
  async function assignees(api: ApiClient, id: number): Promise<unknown[]> {
    const res = await api.get(collection(id), { limit: 100 })
    expect(res.status, res.text).toBe(200)
    return res.body.data
  }

  describe(`GET /${parent.name}/{id}/assignees`, () => {
    it('is an empty page when nobody is assigned', async () => {
      const { api, id } = await setup()
      const res = await api.get(collection(id))
      expect(res.status).toBe(200)
      expect(res.body).toEqual(EMPTY_PAGE)
    })

    it('lists assignees in the order they were added, each with its own id and the team member with their role', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      await add(api, id, [team.users['read-only'].id, team.users.owner.id])
      await add(api, id, [team.users['assigned-only'].id])
      const res = await api.get(collection(id))
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        ...EMPTY_PAGE,
        data: [assignee(first, team, 'read-only'), assignee(first + 1, team, 'owner'), assignee(first + 2, team, 'assigned-only')],
        total: 3,
        count: 3,
      })
    })

    it('answers the same to every role of the team (the assigned-only member being assigned)', async () => {
      const { team, id, api } = await setup()
      await add(api, id, [team.users['assigned-only'].id, team.users.assumed.id])
      const expected = (await api.get(collection(id))).body
      expect(expected.total).toBe(2)
      for (const role of ROLES) {
        const res = await team.api(role).get(collection(id))
        expect(res.status, role).toBe(200)
        expect(res.body, role).toEqual(expected)
      }
    })

    describe('paging', () => {
      /** A team of 35 current members (5 roles and 30 generated), all assigned. */
      async function crowded() {
        const mock = createTestMock()
        const team = mock.newTeam({ generate: { members: 30 } })
        const id = await parent.create(team.api(), mock)
        const users = team.team.members.map((member) => member.user)
        expect(users).toHaveLength(35)
        await add(team.api(), id, users)
        const all = await assignees(team.api(), id)
        expect(all).toHaveLength(35)
        return { team, id, api: team.api(), all }
      }

      it('shows 25 a page by default, with a link to the next page', async () => {
        const { id, api, all } = await crowded()
        const first = await api.get(collection(id))
        expect(first.status).toBe(200)
        expect(first.body).toEqual({
          object: 'paginated_list',
          data: all.slice(0, 25),
          total: 35,
          count: 25,
          limit: 25,
          current_page: 1,
          total_pages: 2,
          links: { next: `${collectionUrl(id)}?page=2`, previous: null },
        })
        const second = await api.get(collection(id), { page: 2 })
        expect(second.status).toBe(200)
        expect(second.body).toEqual({
          object: 'paginated_list',
          data: all.slice(25),
          total: 35,
          count: 10,
          limit: 25,
          current_page: 2,
          total_pages: 2,
          links: { next: null, previous: `${collectionUrl(id)}?page=1` },
        })
      })

      it('pages with limit, the last page short and a page past the end empty', async () => {
        const { id, api, all } = await crowded()
        const middle = await api.get(collection(id), { limit: 10, page: 2 })
        expect(middle.status).toBe(200)
        expect(middle.body).toEqual({
          object: 'paginated_list',
          data: all.slice(10, 20),
          total: 35,
          count: 10,
          limit: 10,
          current_page: 2,
          total_pages: 4,
          links: { next: `${collectionUrl(id)}?limit=10&page=3`, previous: `${collectionUrl(id)}?limit=10&page=1` },
        })
        const last = await api.get(collection(id), { limit: 10, page: 4 })
        expect(last.body).toEqual({
          object: 'paginated_list',
          data: all.slice(30),
          total: 35,
          count: 5,
          limit: 10,
          current_page: 4,
          total_pages: 4,
          links: { next: null, previous: `${collectionUrl(id)}?limit=10&page=3` },
        })
        const past = await api.get(collection(id), { limit: 10, page: 5 })
        expect(past.status).toBe(200)
        expect(past.body).toEqual({
          object: 'paginated_list',
          data: [],
          total: 35,
          count: 0,
          limit: 10,
          current_page: 5,
          total_pages: 4,
          links: { next: null, previous: `${collectionUrl(id)}?limit=10&page=4` },
        })
      })

      it('answers one assignee a page with limit=1 and everything with limit=100', async () => {
        const { id, api, all } = await crowded()
        const one = await api.get(collection(id), { limit: 1, page: 35 })
        expect(one.body).toEqual({
          object: 'paginated_list',
          data: [all[34]],
          total: 35,
          count: 1,
          limit: 1,
          current_page: 35,
          total_pages: 35,
          links: { next: null, previous: `${collectionUrl(id)}?limit=1&page=34` },
        })
        const everything = await api.get(collection(id), { limit: 100 })
        expect(everything.body).toEqual({ object: 'paginated_list', data: all, total: 35, count: 35, limit: 100, current_page: 1, total_pages: 1, links: null })
      })

      it('answers 422 for a limit or page out of range', async () => {
        const { id, api } = await setup()
        const res = await api.get(collection(id), { limit: 101, page: 0 })
        expect(res.status).toBe(422)
        expect(res.body).toEqual({ limit: ['The limit field must not be greater than 100.'], page: ['The page field must be at least 1.'] })
        const zero = await api.get(collection(id), { limit: 0 })
        expect(zero.status).toBe(422)
        expect(zero.body).toEqual({ limit: ['The limit field must be at least 1.'] })
      })
    })

    it(`answers 404 for an unknown id and for another team's ${parent.name}`, async () => {
      const { mock, id } = await setup()
      const other = mock.newTeam()
      for (const path of [collection(987_654_321), collection(id)]) {
        const res = await other.api().get(path)
        expect(res.status, path).toBe(404)
        expect(res.body).toEqual(parent.notFound)
      }
    })

    it('answers 401 without a token', async () => {
      const { id, api } = await setup()
      const res = await api.as(undefined).get(collection(id))
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    })
  })

  describe(`POST /${parent.name}/{id}/assignees`, () => {
    it('adds team members and answers 201 with a list object of them and the collection url', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const res = await api.post(collection(id), items(team.users.member.id, team.users.assumed.id))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'member'), assignee(first + 1, team, 'assumed')]))
      expect(await assignees(api, id)).toEqual(res.body.data)
    })

    it('merges with the assignees already there and answers only the newly added', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      await add(api, id, [team.users.owner.id, team.users.member.id])
      const res = await api.post(collection(id), items(team.users.member.id, team.users['read-only'].id, team.users.owner.id))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first + 2, team, 'read-only')]))
      expect(await assignees(api, id)).toEqual([assignee(first, team, 'owner'), assignee(first + 1, team, 'member'), assignee(first + 2, team, 'read-only')])
    })

    it('adds a user named twice once', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const { member, owner } = team.users
      const res = await api.post(collection(id), items(member.id, owner.id, member.id, member.id))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'member'), assignee(first + 1, team, 'owner')]))
      expect(await assignees(api, id)).toEqual(res.body.data)
    })

    it('accepts exactly 100 items', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const users = Array.from({ length: 100 }, (_, index) => team.users[ROLES[index % ROLES.length] as Role].id)
      const res = await api.post(collection(id), items(...users))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), ROLES.map((role, index) => assignee(first + index, team, role))))
    })

    it('answers 204 with no body when everyone named is assigned already, and changes nothing', async () => {
      const { mock, team, id, api } = await setup()
      await add(api, id, [team.users.owner.id, team.users.member.id])
      const before = snapshot(mock)
      const res = await api.post(collection(id), items(team.users.member.id, team.users.owner.id, team.users.member.id))
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expectUnchanged(mock, before)
    })

    it('trims the type as Laravel trims every string', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const res = await api.post(collection(id), [{ type: ' team_member ', team_member: team.users.member.id }])
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'member')]))
    })

    it('takes a team member id sent as a string of digits, as Laravel reads an integer (docs/behaviour-notes.md "Validation (422)")', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const res = await api.post(collection(id), [{ type: 'team_member', team_member: String(team.users.member.id) }, { type: 'team_member', team_member: ` ${team.users.owner.id} ` }])
      expect(res.status, res.text).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'member'), assignee(first + 1, team, 'owner')]))
      expect(await assignees(api, id)).toEqual(res.body.data)
    })

    describe('a body that is not an array of 1 to 100 assignee objects', () => {
      const cases: Array<[string, (users: NewTeam['users']) => unknown]> = [
        ['an object', () => ({})],
        ['one assignee object, not in an array', (users) => ({ type: 'team_member', team_member: users.member.id })],
        ['an empty array', () => []],
        ['an item without team_member', () => [{ type: 'team_member' }]],
        ['an item without type', (users) => [{ team_member: users.member.id }]],
        ['an item with an extra key', (users) => [{ type: 'team_member', team_member: users.member.id, role: 'owner' }]],
        ['an item of type user', (users) => [{ type: 'user', team_member: users.member.id }]],
        ['an item with a null type', (users) => [{ type: null, team_member: users.member.id }]],
        ['a valid item followed by an empty object', (users) => [...items(users.member.id), {}]],
        ['101 items', (users) => items(...Array.from({ length: 101 }, () => users.member.id))],
        ['bare user ids', (users) => [users.member.id, users.owner.id]],
        ['a team member id with a fraction', (users) => [{ type: 'team_member', team_member: `${users.member.id}.5` }]],
        ['a string', () => 'team_member'],
        ['a number', (users) => users.member.id],
        ['null', () => null],
      ]

      it.each(cases)('answers 422 for %s and changes nothing', async (_, body) => {
        const { mock, team, id, api } = await setup()
        await add(api, id, [team.users.owner.id])
        const before = snapshot(mock)
        for (const method of ['POST', 'PUT']) {
          const res = await api.request(method, collection(id), { body: body(team.users) })
          expect(res.status, method).toBe(422)
          expect(res.body, method).toEqual(SHAPE_ERROR)
        }
        expectUnchanged(mock, before)
      })

      it('answers 422 for no body at all', async () => {
        const { mock, id, api } = await setup()
        const before = snapshot(mock)
        for (const method of ['POST', 'PUT']) {
          const res = await api.request(method, collection(id))
          expect(res.status, method).toBe(422)
          expect(res.body, method).toEqual(SHAPE_ERROR)
        }
        expectUnchanged(mock, before)
      })
    })

    describe('a team_member who is not a current member of the team', () => {
      it('answers 422 keyed by the path of each such item, and adds nobody', async () => {
        const { mock, team, id, api } = await setup()
        const other = mock.newTeam()
        const left = team.users.member
        team.team.updateMember(team.members.member, { role: null })
        const acmeOwner = mock.store.userByEmail('olivia.bennett@acme-recruitment.example') as UserRow
        const before = snapshot(mock)
        const res = await api.post(collection(id), items(team.users.owner.id, 987_654_321, team.users.assumed.id, other.users.owner.id, left.id, acmeOwner.id))
        expect(res.status).toBe(422)
        expect(res.body).toEqual({
          '1.team_member': INVALID_MEMBER,
          '3.team_member': INVALID_MEMBER,
          '4.team_member': INVALID_MEMBER,
          '5.team_member': INVALID_MEMBER,
        })
        expectUnchanged(mock, before)
        expect(await assignees(api, id)).toEqual([])
      })

      it.each([
        ['an unknown user id', () => 987_654_321],
        ["another team's user", (mock: TestMock) => mock.newTeam().users.owner.id],
        ['someone who left the team', (_: TestMock, team: NewTeam) => {
          team.team.updateMember(team.members['read-only'], { role: null })
          return team.users['read-only'].id
        }],
      ])('refuses %s in the second item, for POST and PUT alike', async (_, user) => {
        const { mock, team, id, api } = await setup()
        await add(api, id, [team.users.owner.id])
        const named = user(mock, team)
        const before = snapshot(mock)
        for (const method of ['POST', 'PUT']) {
          const res = await api.request(method, collection(id), { body: items(team.users.member.id, named) })
          expect(res.status, method).toBe(422)
          expect(res.body, method).toEqual({ '1.team_member': INVALID_MEMBER })
        }
        expectUnchanged(mock, before)
      })
    })

    it(`checks the ${parent.name} before the body: 404 for an unknown id whatever the body`, async () => {
      const { mock, team, api } = await setup()
      const before = snapshot(mock)
      for (const method of ['POST', 'PUT']) {
        for (const body of [items(team.users.member.id), [], 'nonsense', items(987_654_321)]) {
          const res = await api.request(method, collection(987_654_321), { body })
          expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(404)
          expect(res.body).toEqual(parent.notFound)
        }
      }
      expectUnchanged(mock, before)
    })
  })

  describe(`PUT /${parent.name}/{id}/assignees`, () => {
    it('makes the set exactly the named users: those named again keep their assignee id and are left out of the answer', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      await add(api, id, [team.users.owner.id, team.users.member.id, team.users['read-only'].id])
      const res = await api.put(collection(id), items(team.users.assumed.id, team.users.member.id, team.users['assigned-only'].id))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first + 3, team, 'assumed'), assignee(first + 4, team, 'assigned-only')]))
      expect(await assignees(api, id)).toEqual([assignee(first + 1, team, 'member'), assignee(first + 3, team, 'assumed'), assignee(first + 4, team, 'assigned-only')])
    })

    it('assigns everyone named on an empty collection', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      const res = await api.put(collection(id), items(team.users.member.id, team.users.member.id, team.users.owner.id))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'member'), assignee(first + 1, team, 'owner')]))
      expect(await assignees(api, id)).toEqual(res.body.data)
    })

    it('answers 204 when nobody is new, even when some were removed', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      await add(api, id, [team.users.owner.id, team.users.member.id, team.users.assumed.id])
      const res = await api.put(collection(id), items(team.users.assumed.id, team.users.owner.id))
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect(await assignees(api, id)).toEqual([assignee(first, team, 'owner'), assignee(first + 2, team, 'assumed')])
    })

    it('answers 204 and changes nothing when the same set is named again', async () => {
      const { mock, team, id, api } = await setup()
      await add(api, id, [team.users.owner.id, team.users.member.id])
      const before = snapshot(mock)
      const res = await api.put(collection(id), items(team.users.member.id, team.users.owner.id))
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expectUnchanged(mock, before)
    })
  })

  describe(`DELETE /${parent.name}/{id}/assignees`, () => {
    it('removes every assignee and answers 204 with no body, also when there are none', async () => {
      const { team, id, api } = await setup()
      await add(api, id, [team.users.owner.id, team.users.member.id])
      for (let time = 0; time < 2; time++) {
        const res = await api.delete(collection(id))
        expect(res.status).toBe(204)
        expect(res.text).toBe('')
        expect((await api.get(collection(id))).body).toEqual(EMPTY_PAGE)
      }
    })

    it(`leaves the assignees of other ${parent.name} alone`, async () => {
      const { mock, team, id, api } = await setup()
      const other = await parent.create(api, mock)
      await add(api, id, [team.users.owner.id])
      const kept = await add(api, other, [team.users.owner.id])
      expect((await api.delete(collection(id))).status).toBe(204)
      expect(await assignees(api, other)).toEqual([assignee(kept[0] as number, team, 'owner')])
    })

    it(`answers 404 for an unknown ${parent.name}`, async () => {
      const { api } = await setup()
      const res = await api.delete(collection(987_654_321))
      expect(res.status).toBe(404)
      expect(res.body).toEqual(parent.notFound)
    })
  })

  describe(`DELETE /${parent.name}/{id}/assignees/{assigneeId}`, () => {
    it("removes one assignee by the assignee's own id and keeps the others", async () => {
      const { team, id, api } = await setup()
      const [owner, member, assumed] = await add(api, id, [team.users.owner.id, team.users.member.id, team.users.assumed.id])
      const res = await api.delete(`${collection(id)}/${member as number}`)
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect(await assignees(api, id)).toEqual([assignee(owner as number, team, 'owner'), assignee(assumed as number, team, 'assumed')])
    })

    it(`answers 404 Assignee not found for an unknown id, a user id, an assignee removed already and one of another ${parent.name}`, async () => {
      const { mock, team, id, api } = await setup()
      const other = await parent.create(api, mock)
      const [foreign] = await add(api, other, [team.users.member.id])
      const [removed, kept] = await add(api, id, [team.users.member.id, team.users.owner.id])
      expect((await api.delete(`${collection(id)}/${removed as number}`)).status).toBe(204)
      const before = snapshot(mock)
      const userId = team.users.owner.id
      expect([removed, kept, foreign]).not.toContain(userId)
      for (const assigneeId of [987_654_321, userId, removed, foreign]) {
        const res = await api.delete(`${collection(id)}/${assigneeId as number}`)
        expect(res.status, String(assigneeId)).toBe(404)
        expect(res.body).toEqual({ error: 'Assignee not found' })
      }
      expectUnchanged(mock, before)
      expect(await assignees(api, id)).toEqual([assignee(kept as number, team, 'owner')])
      expect(await assignees(api, other)).toEqual([assignee(foreign as number, team, 'member')])
    })

    it(`answers 404 for an unknown ${parent.name} before looking at the assignee`, async () => {
      const { team, id, api } = await setup()
      const [owner] = await add(api, id, [team.users.owner.id])
      const res = await api.delete(`${collection(987_654_321)}/${owner as number}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(parent.notFound)
    })

    it('answers 404 Not Found. for a non-numeric assignee id (no such route)', async () => {
      const { id, api } = await setup()
      const res = await api.delete(`${collection(id)}/abc`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Not Found.' })
    })
  })

  describe('a member who left the team', () => {
    it('still shows where they were assigned, with role null, and can be removed', async () => {
      const { mock, team, id, api } = await setup()
      const first = nextAssigneeId(mock)
      await add(api, id, [team.users.owner.id, team.users.member.id])
      team.team.updateMember(team.members.member, { role: null })
      expect(await assignees(api, id)).toEqual([assignee(first, team, 'owner'), assignee(first + 1, team, 'member', null)])
      const res = await api.delete(`${collection(id)}/${first + 1}`)
      expect(res.status).toBe(204)
      expect(await assignees(api, id)).toEqual([assignee(first, team, 'owner')])
    })
  })

  describe('roles', () => {
    /** One request of each write operation on the collection, naming an existing assignee. */
    const writes = (id: number, assigneeId: number, users: NewTeam['users']): Array<[string, string, unknown?]> => [
      ['POST', collection(id), items(users.member.id)],
      ['PUT', collection(id), items(users.member.id)],
      ['DELETE', collection(id)],
      ['DELETE', `${collection(id)}/${assigneeId}`],
    ]

    it('forbids a read-only member every write, changing nothing, but lets them read', async () => {
      const { mock, team, id, api } = await setup()
      const [owner] = await add(api, id, [team.users.owner.id])
      const before = snapshot(mock)
      for (const [method, path, body] of writes(id, owner as number, team.users)) {
        const res = await team.api('read-only').request(method, path, { body })
        expect(res.status, `${method} ${path}`).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      expectUnchanged(mock, before)
      const read = await team.api('read-only').get(collection(id))
      expect(read.status).toBe(200)
      expect(read.body).toEqual({ ...EMPTY_PAGE, data: [assignee(owner as number, team, 'owner')], total: 1, count: 1 })
    })

    it('forbids a read-only member before validating the body', async () => {
      const { mock, id, team } = await setup()
      const before = snapshot(mock)
      for (const method of ['POST', 'PUT']) {
        const res = await team.api('read-only').request(method, collection(id), { body: 'nonsense' })
        expect(res.status, method).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      expectUnchanged(mock, before)
    })

    it(`answers a read-only member 404 for an unknown ${parent.name} first`, async () => {
      const { team } = await setup()
      for (const [method, path, body] of writes(987_654_321, 1, team.users)) {
        const res = await team.api('read-only').request(method, path, { body })
        expect(res.status, `${method} ${path}`).toBe(404)
        expect(res.body).toEqual(parent.notFound)
      }
    })

    it.each(['owner', 'member', 'assumed'] as const)('lets the %s manage assignees', async (role) => {
      const { mock, team, id } = await setup()
      const api = team.api(role)
      const first = nextAssigneeId(mock)
      const added = await api.post(collection(id), items(team.users['read-only'].id, team.users.owner.id))
      expect(added.status).toBe(201)
      expect(added.body).toEqual(actionList(collectionUrl(id), [assignee(first, team, 'read-only'), assignee(first + 1, team, 'owner')]))
      const replaced = await api.put(collection(id), items(team.users.owner.id, team.users.member.id))
      expect(replaced.status).toBe(201)
      expect(replaced.body).toEqual(actionList(collectionUrl(id), [assignee(first + 2, team, 'member')]))
      expect((await api.delete(`${collection(id)}/${first + 1}`)).status).toBe(204)
      expect(await assignees(api, id)).toEqual([assignee(first + 2, team, 'member')])
      expect((await api.delete(collection(id))).status).toBe(204)
      expect(await assignees(api, id)).toEqual([])
    })

    it(`lets an assigned-only member manage the assignees of a ${parent.name} they are assigned to`, async () => {
      const { mock, team, id, api } = await setup()
      const [self] = await add(api, id, [team.users['assigned-only'].id])
      const mine = team.api('assigned-only')
      const next = nextAssigneeId(mock)
      const added = await mine.post(collection(id), items(team.users.member.id, team.users.owner.id))
      expect(added.status).toBe(201)
      expect(added.body).toEqual(actionList(collectionUrl(id), [assignee(next, team, 'member'), assignee(next + 1, team, 'owner')]))
      const replaced = await mine.put(collection(id), items(team.users['assigned-only'].id, team.users.owner.id, team.users.assumed.id))
      expect(replaced.status).toBe(201)
      expect(replaced.body).toEqual(actionList(collectionUrl(id), [assignee(next + 2, team, 'assumed')]))
      expect((await mine.delete(`${collection(id)}/${next + 1}`)).status).toBe(204)
      const list = await mine.get(collection(id))
      expect(list.status).toBe(200)
      expect(list.body).toEqual({ ...EMPTY_PAGE, data: [assignee(self as number, team, 'assigned-only'), assignee(next + 2, team, 'assumed')], total: 2, count: 2 })
    })

    it('takes an assigned-only member out once they remove themselves', async () => {
      const { team, id, api } = await setup()
      const [self, owner] = await add(api, id, [team.users['assigned-only'].id, team.users.owner.id])
      const mine = team.api('assigned-only')
      expect((await mine.delete(`${collection(id)}/${self as number}`)).status).toBe(204)
      const res = await mine.get(collection(id))
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
      expect(await assignees(api, id)).toEqual([assignee(owner as number, team, 'owner')])
    })

    it(`forbids an assigned-only member everything on a ${parent.name} they are not assigned to, and answers 404 for an unknown one`, async () => {
      const { mock, team, id, api } = await setup()
      const [member] = await add(api, id, [team.users.member.id])
      const mine = team.api('assigned-only')
      const before = snapshot(mock)
      for (const [method, path, body] of [['GET', collection(id)], ...writes(id, member as number, team.users)] as Array<[string, string, unknown?]>) {
        const res = await mine.request(method, path, { body })
        expect(res.status, `${method} ${path}`).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      for (const [method, path, body] of [['GET', collection(987_654_321)], ...writes(987_654_321, 1, team.users)] as Array<[string, string, unknown?]>) {
        const res = await mine.request(method, path, { body })
        expect(res.status, `${method} ${path}`).toBe(404)
        expect(res.body).toEqual(parent.notFound)
      }
      expectUnchanged(mock, before)
    })

    it(`answers 404 to every role of another team`, async () => {
      const { mock, team, id, api } = await setup()
      const [member] = await add(api, id, [team.users.member.id])
      const other = mock.newTeam()
      const before = snapshot(mock)
      for (const role of ROLES) {
        for (const [method, path, body] of [['GET', collection(id)], ...writes(id, member as number, other.users)] as Array<[string, string, unknown?]>) {
          const res = await other.api(role).request(method, path, { body })
          expect(res.status, `${role} ${method} ${path}`).toBe(404)
          expect(res.body).toEqual(parent.notFound)
        }
      }
      expectUnchanged(mock, before)
    })
  })

  describe.runIf(parent.filterable)(`GET /${parent.name}?assignee=`, () => {
    async function assignedTo(api: ApiClient, user: number): Promise<number[]> {
      const res = await api.get(`/${parent.name}`, { assignee: user, limit: 100 })
      expect(res.status, res.text).toBe(200)
      return res.body.data.map((row: { id: number }) => row.id)
    }

    it('follows every change of the assignees', async () => {
      const { mock, team, id, api } = await setup()
      const second = await parent.create(api, mock)
      const { owner, member, assumed } = team.users
      expect(await assignedTo(api, member.id)).toEqual([])
      await add(api, id, [member.id, owner.id])
      await add(api, second, [member.id])
      expect(await assignedTo(api, member.id)).toEqual([id, second])
      expect(await assignedTo(api, owner.id)).toEqual([id])
      expect((await api.put(collection(id), items(assumed.id))).status).toBe(201)
      expect(await assignedTo(api, member.id)).toEqual([second])
      expect(await assignedTo(api, owner.id)).toEqual([])
      expect(await assignedTo(api, assumed.id)).toEqual([id])
      const [memberOfSecond] = (await assignees(api, second)) as Array<{ id: number }>
      expect((await api.delete(`${collection(second)}/${(memberOfSecond as { id: number }).id}`)).status).toBe(204)
      expect(await assignedTo(api, member.id)).toEqual([])
      expect((await api.delete(collection(id))).status).toBe(204)
      expect(await assignedTo(api, assumed.id)).toEqual([])
    })

    it('shows an assigned-only member exactly what they are assigned to, as it changes', async () => {
      const { mock, team, id, api } = await setup()
      const second = await parent.create(api, mock)
      const mine = team.api('assigned-only')
      const listed = async () => {
        const res = await mine.get(`/${parent.name}`)
        expect(res.status).toBe(200)
        return res.body.data.map((row: { id: number }) => row.id)
      }
      expect(await listed()).toEqual([])
      await add(api, second, [team.users['assigned-only'].id])
      expect(await listed()).toEqual([second])
      await add(api, id, [team.users['assigned-only'].id])
      expect(await listed()).toEqual([id, second])
      expect((await api.put(collection(second), items(team.users.owner.id))).status).toBe(201)
      expect(await listed()).toEqual([id])
      expect((await mine.get(`/${parent.name}/${second}`)).status).toBe(403)
      expect((await mine.get(`/${parent.name}/${id}`)).status).toBe(200)
    })
  })
})

describe('organisation assignees on the organisation itself', () => {
  it('shows the user ids in assignees, null when there are none, and the team members with expand=assignees', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const org = await PARENTS[1]!.create(api, mock)
    expect((await api.get(`/organisations/${org}`)).body.assignees).toBeNull()
    expect((await api.post(`/organisations/${org}/assignees`, items(team.users.member.id, team.users.owner.id))).status).toBe(201)
    expect((await api.get(`/organisations/${org}`)).body.assignees).toEqual([team.users.member.id, team.users.owner.id])
    const expanded = await api.get(`/organisations/${org}`, { expand: 'assignees' })
    expect(expanded.status).toBe(200)
    expect(expanded.body.assignees).toEqual({
      object: 'list',
      data: [teamMember(team.users.member, 'member'), teamMember(team.users.owner, 'owner')],
      total: 2,
      count: 2,
      limit: 25,
      has_more: false,
      url: `${ORIGIN}/organisations/${org}/assignees`,
    })
    expect((await api.delete(`/organisations/${org}/assignees`)).status).toBe(204)
    expect((await api.get(`/organisations/${org}`)).body.assignees).toBeNull()
  })
})

describe('seeded Acme', () => {
  it('shows Dan Whitaker, who left, with role null where he is still assigned, and refuses to assign him again', async () => {
    const mock = createTestMock()
    const api = mock.api('ivs_acme_owner')
    const acme = [...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')
    const dan = mock.store.userByEmail('dan.whitaker@acme-recruitment.example') as UserRow
    expect(acme?.membership(dan.id)?.role).toBeNull()
    const clients = acme?.clients.filter((client) => client.assignees.some((row) => row.user === dan.id)) ?? []
    expect(clients.length).toBeGreaterThan(0)
    for (const client of clients) {
      const row = client.assignees.find((assigneeRow) => assigneeRow.user === dan.id)
      const res = await api.get(`/clients/${client.id}/assignees`, { limit: 100 })
      expect(res.status).toBe(200)
      expect(res.body.data).toContainEqual({ object: 'assignee', id: row?.id, type: 'team_member', team_member: teamMember(dan, null) })
    }
    const fresh = await PARENTS[0]!.create(api, mock)
    const res = await api.post(`/clients/${fresh}/assignees`, items(dan.id))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ '0.team_member': INVALID_MEMBER })
  })
})

describe.each(PARENTS)('$name assignees: the value of team_member', (parent) => {
  it.each([['a string of letters', 'five'], ['a fraction in a string', '5.5'], ['a fraction', 1.5], ['a boolean', true], ['null', null]])(
    'is part of the body shape: %s is the whole-body message (docs/specification-notes.md "Wire details")',
    async (_, value) => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const id = await parent.create(team.api(), mock)
      const before = snapshot(mock)
      const res = await team.api().post(`/${parent.name}/${id}/assignees`, [{ type: 'team_member', team_member: value }])
      expect(res.status).toBe(422)
      expect(res.body).toEqual(SHAPE_ERROR)
      expectUnchanged(mock, before)
    },
  )

  it('names no member when it is 0 or negative, like any unknown user, keyed by the item', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const id = await parent.create(team.api(), mock)
    const res = await team.api().post(`/${parent.name}/${id}/assignees`, items(team.users.member.id, 0, -3))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ '1.team_member': INVALID_MEMBER, '2.team_member': INVALID_MEMBER })
  })
})

describe.each(PARENTS)('$name assignees: which error comes first for one assignee', (parent) => {
  it('answers 404 Assignee not found before a read-only 403, as Laravel binds both ids of the path first', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const id = await parent.create(team.api(), mock)
    const unknown = await team.api('read-only').delete(`/${parent.name}/${id}/assignees/987654`)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Assignee not found' })
    const res = await team.api().post(`/${parent.name}/${id}/assignees`, items(team.users.member.id))
    const known = await team.api('read-only').delete(`/${parent.name}/${id}/assignees/${res.body.data[0].id}`)
    expect(known.status).toBe(403)
    expect(known.body).toEqual(FORBIDDEN)
  })
})

describe('record assignees', () => {
  it("are the record's own: its client's assignees neither give nor take access, and assigning publishes nothing", async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const record = await PARENTS[2]!.create(api, mock)
    const stored = team.team.records.get(record)
    const client = stored?.client as number
    const mine = team.api('assigned-only')
    const self = team.users['assigned-only'].id
    const before = { events: mock.events.length, updated: stored?.updated_at }
    expect((await api.post(`/clients/${client}/assignees`, items(self))).status).toBe(201)
    expect((await mine.get(`/records/${record}/assignees`)).status).toBe(403)
    expect((await api.post(`/records/${record}/assignees`, items(self, team.users.member.id))).status).toBe(201)
    expect((await mine.get(`/records/${record}/assignees`)).status).toBe(200)
    expect((await api.delete(`/clients/${client}/assignees`)).status).toBe(204)
    const list = await mine.get(`/records/${record}/assignees`)
    expect(list.status).toBe(200)
    expect(list.body.data.map((row: { team_member: { id: number } }) => row.team_member.id)).toEqual([self, team.users.member.id])
    expect(stored?.assignees.map((row) => row.user)).toEqual([self, team.users.member.id])
    expect(mock.events).toHaveLength(before.events)
    expect(stored?.updated_at).toBe(before.updated)
  })
})
