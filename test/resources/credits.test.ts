import { describe, expect, it } from 'vitest'
import type { UserRow } from '../../src/resources/me/rows.ts'
import { fixture } from '../support/contracts.ts'
import { createTestMock, TEST_NOW, type TestMock } from '../support/mock.ts'

const NOW = TEST_NOW.toISOString().replace(/\.\d+Z$/, 'Z')

interface CreditJson {
  object: 'credit_history'
  id: number
  credits: number
  reason: string | null
  created_at: string
  causer: { id: number; type: string } & Record<string, unknown>
}

/** A user as the API presents it (never the pending email or other stored-only fields). */
function userJson(user: UserRow) {
  return {
    object: 'user',
    id: user.id,
    name: user.name,
    email: user.email,
    is_verified: user.is_verified,
    is_disabled: user.is_disabled,
    created_at: user.created_at,
    updated_at: user.updated_at,
  }
}

function seededTeam(mock: TestMock, key: string) {
  const name = fixture.teams.find((t) => t.key === key)?.name
  const state = mock.store.data.teams.find((t) => t.team.name === name)
  if (!state) throw new Error(`no seeded team ${key}`)
  return state
}

/** Every entry of a seeded team's history, in one request. */
async function allCredits(mock: TestMock, token: string, query: Record<string, string | number | string[]> = {}): Promise<CreditJson[]> {
  const res = await mock.api(token).get('/credits', { limit: 100, ...query })
  expect(res.status).toBe(200)
  expect(res.body.total).toBe(res.body.count)
  return res.body.data
}

/** The single entry of a fresh team: the opening purchase, caused by its owner or admin. */
async function openingEntry(mock: TestMock) {
  const team = mock.newTeam()
  const res = await team.api().get('/credits')
  expect(res.status).toBe(200)
  const causerId = res.body.data[0]?.causer.id
  expect([team.users.owner.id, team.users.admin.id]).toContain(causerId)
  const causerRole = causerId === team.users.owner.id ? ('owner' as const) : ('admin' as const)
  return { team, res, causerRole }
}

describe('GET /credits', () => {
  it('gives a fresh team exactly one opening entry of +500', async () => {
    const mock = createTestMock()
    const { team, res } = await openingEntry(mock)
    expect(res.body).toEqual({
      object: 'paginated_list',
      data: [
        {
          object: 'credit_history',
          id: team.team.credits[0]?.id,
          credits: 500,
          reason: 'Initial credit purchase',
          created_at: NOW,
          causer: { id: res.body.data[0].causer.id, type: 'user' },
        },
      ],
      total: 1,
      count: 1,
      limit: 25,
      current_page: 1,
      total_pages: 1,
      links: null,
    })
  })

  it.each(['owner', 'admin'] as const)('answers the %s', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const res = await team.api(role).get('/credits')
    expect(res.status).toBe(200)
    expect(res.body).toEqual((await team.api('owner').get('/credits')).body)
  })

  it.each([['new team member'], ['ivs_acme_member'], ['ivs_shared_globex']])('forbids a member (%s)', async (who) => {
    const mock = createTestMock()
    const api = who === 'new team member' ? mock.newTeam().api('member') : mock.api(who)
    const res = await api.get('/credits')
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
  })

  it('answers the seeded history of the token\'s team only', async () => {
    const mock = createTestMock()
    for (const [key, token] of [
      ['acme', 'ivs_acme_owner'],
      ['globex', 'ivs_globex_admin'],
      ['initech', 'ivs_initech_owner'],
    ] as const) {
      const team = seededTeam(mock, key)
      const entries = await allCredits(mock, token)
      expect(entries).toHaveLength(fixture.teams.find((t) => t.key === key)?.generate.credit_entries ?? -1)
      expect(entries.map((e) => e.id).sort((a, b) => a - b)).toEqual(team.credits.map((row) => row.id).sort((a, b) => a - b))
      expect(entries[0]).toMatchObject({ credits: 500, reason: 'Initial credit purchase' })
      // Seeded top-ups and corrections are all caused by the team's owners and admins.
      const managers = team.members.filter((m) => m.role !== 'member').map((m) => m.user)
      for (const entry of entries) {
        expect(entry.causer.type).toBe('user')
        expect(managers).toContain(entry.causer.id)
        expect(Number.isInteger(entry.credits) && entry.credits !== 0).toBe(true)
      }
    }
  })

  it('shows a null reason as null', async () => {
    const mock = createTestMock()
    const entries = await allCredits(mock, 'ivs_initech_owner')
    expect(entries.filter((e) => e.reason === null)).toHaveLength(1)
    expect(entries.some((e) => e.credits < 0)).toBe(true)
  })

  describe('order', () => {
    it('is created_at ascending by default', async () => {
      const mock = createTestMock()
      const entries = await allCredits(mock, 'ivs_acme_admin')
      const times = entries.map((e) => e.created_at)
      expect(times).toEqual([...times].sort())
      expect(new Set(times).size).toBe(times.length)
    })

    it('is the same with sort_by=created_at and with order_by=asc', async () => {
      const mock = createTestMock()
      const byDefault = await allCredits(mock, 'ivs_acme_owner')
      expect(await allCredits(mock, 'ivs_acme_owner', { sort_by: 'created_at' })).toEqual(byDefault)
      expect(await allCredits(mock, 'ivs_acme_owner', { sort_by: 'created_at', order_by: 'asc' })).toEqual(byDefault)
      expect(await allCredits(mock, 'ivs_acme_owner', { order_by: 'asc' })).toEqual(byDefault)
    })

    it('reverses with order_by=desc', async () => {
      const mock = createTestMock()
      const ascending = await allCredits(mock, 'ivs_globex_owner')
      expect(await allCredits(mock, 'ivs_globex_owner', { order_by: 'desc' })).toEqual([...ascending].reverse())
      expect(await allCredits(mock, 'ivs_globex_owner', { sort_by: 'created_at', order_by: 'desc' })).toEqual([...ascending].reverse())
    })

    it('refuses an unknown sort_by or order_by', async () => {
      const api = createTestMock().api()
      const sort = await api.get('/credits', { sort_by: 'bogus' })
      expect(sort.status).toBe(422)
      expect(sort.body).toEqual({ sort_by: ['The selected sort by is invalid.'] })
      const credits = await api.get('/credits', { sort_by: 'credits' })
      expect(credits.status).toBe(422)
      expect(credits.body).toEqual({ sort_by: ['The selected sort by is invalid.'] })
      const order = await api.get('/credits', { order_by: 'up' })
      expect(order.status).toBe(422)
      expect(order.body).toEqual({ order_by: ['The selected order by is invalid.'] })
    })
  })

  describe('expand', () => {
    it('collapses the causer to {id, type} without expand', async () => {
      const mock = createTestMock()
      for (const entry of await allCredits(mock, 'ivs_acme_owner')) {
        expect(entry.causer).toEqual({ id: entry.causer.id, type: 'user' })
      }
    })

    it('gives the User object of the causer with expand=causer', async () => {
      const mock = createTestMock()
      const { team, res, causerRole } = await openingEntry(mock)
      const expanded = await team.api().get('/credits', { expand: 'causer' })
      expect(expanded.status).toBe(200)
      const me = await team.api(causerRole).get('/me')
      expect(expanded.body).toEqual({ ...res.body, data: [{ ...res.body.data[0], causer: me.body }] })
      expect(expanded.body.data[0].causer).toEqual({
        object: 'user',
        id: team.users[causerRole].id,
        name: team.users[causerRole].name,
        email: `${causerRole}@team-${team.team.team.id}.example`,
        is_verified: true,
        is_disabled: false,
        created_at: NOW,
        updated_at: NOW,
      })
    })

    it('expands every causer of a seeded history, and nothing else', async () => {
      const mock = createTestMock()
      const collapsed = await allCredits(mock, 'ivs_acme_owner')
      const expanded = await allCredits(mock, 'ivs_acme_owner', { expand: 'causer' })
      expect(expanded).toHaveLength(collapsed.length)
      // Users with a token: the expanded causer is exactly what GET /me answers them.
      const meOf = new Map<number, unknown>()
      for (const token of ['ivs_acme_owner', 'ivs_acme_admin', 'ivs_shared_acme']) {
        const me = await mock.api(token).get('/me')
        meOf.set(me.body.id, me.body)
      }
      collapsed.forEach((entry, index) => {
        const user = mock.store.user(entry.causer.id) as UserRow
        expect(expanded[index]).toEqual({ ...entry, causer: meOf.get(user.id) ?? userJson(user) })
        expect(expanded[index]?.causer).toEqual(userJson(user))
      })
      // The seeded history has causers with and without tokens.
      expect(collapsed.some((e) => meOf.has(e.causer.id))).toBe(true)
      expect(collapsed.some((e) => !meOf.has(e.causer.id))).toBe(true)
    })

    it('shows the causer as it is now (renamed) and never a pending email', async () => {
      const mock = createTestMock()
      const { team, causerRole } = await openingEntry(mock)
      const api = team.api(causerRole)
      mock.clock.advance(60_000)
      expect((await api.patch('/me', { name: 'Renamed Causer', email: 'new.address@example.com' })).status).toBe(200)
      const res = await team.api('owner').get('/credits', { expand: 'causer' })
      expect(res.body.data[0].causer).toEqual({
        object: 'user',
        id: team.users[causerRole].id,
        name: 'Renamed Causer',
        email: `${causerRole}@team-${team.team.team.id}.example`,
        is_verified: true,
        is_disabled: false,
        created_at: NOW,
        updated_at: '2026-07-01T12:01:00Z',
      })
    })

    it.each([
      ['a comma list', { expand: 'causer,causer' }],
      ['repeated values', { expand: ['causer', 'causer'] }],
      ['the [] form', { 'expand[]': 'causer' }],
      ['spaces around values', { expand: ' causer , causer ' }],
    ])('accepts %s', async (_label, query) => {
      const mock = createTestMock()
      const plain = await allCredits(mock, 'ivs_acme_owner', { expand: 'causer' })
      expect(await allCredits(mock, 'ivs_acme_owner', query)).toEqual(plain)
    })

    it('ignores an empty expand', async () => {
      const mock = createTestMock()
      const collapsed = await allCredits(mock, 'ivs_acme_owner')
      expect(await allCredits(mock, 'ivs_acme_owner', { expand: '' })).toEqual(collapsed)
    })

    it.each([
      ['bogus', { expand: 'bogus' }],
      ['a comma list with one bad value', { expand: 'causer,bogus' }],
      ['repeated values with one bad value', { expand: ['bogus', 'causer'] }],
      ['a valid expand of another endpoint', { expand: 'client' }],
    ])('refuses %s', async (_label, query) => {
      const res = await createTestMock().api().get('/credits', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ expand: ['The expand parameter must be one of: causer'] })
    })
  })

  describe('paging', () => {
    it('splits the history into pages that add up to the whole', async () => {
      const mock = createTestMock()
      const all = await allCredits(mock, 'ivs_acme_owner')
      expect(all).toHaveLength(14)
      const api = mock.api('ivs_acme_owner')
      const pages = []
      for (let page = 1; page <= 3; page++) pages.push(await api.get('/credits', { limit: 5, page }))
      expect(pages[0]?.body).toEqual({
        object: 'paginated_list',
        data: all.slice(0, 5),
        total: 14,
        count: 5,
        limit: 5,
        current_page: 1,
        total_pages: 3,
        links: { next: 'http://localhost/api/v2/credits?limit=5&page=2', previous: null },
      })
      expect(pages[1]?.body).toMatchObject({
        data: all.slice(5, 10),
        count: 5,
        current_page: 2,
        links: { next: 'http://localhost/api/v2/credits?limit=5&page=3', previous: 'http://localhost/api/v2/credits?limit=5&page=1' },
      })
      expect(pages[2]?.body).toEqual({
        object: 'paginated_list',
        data: all.slice(10),
        total: 14,
        count: 4,
        limit: 5,
        current_page: 3,
        total_pages: 3,
        links: { next: null, previous: 'http://localhost/api/v2/credits?limit=5&page=2' },
      })
    })

    it('keeps order_by and expand in the links', async () => {
      const mock = createTestMock()
      const res = await mock.api('ivs_globex_owner').get('/credits', { order_by: 'desc', expand: 'causer', limit: 10 })
      expect(res.status).toBe(200)
      expect(res.body.links).toEqual({ next: 'http://localhost/api/v2/credits?order_by=desc&expand=causer&limit=10&page=2', previous: null })
      const next = await mock.api('ivs_globex_owner').get('/credits', { order_by: 'desc', expand: 'causer', limit: 10, page: 2 })
      expect(next.body.count).toBe(2)
      expect([...res.body.data, ...next.body.data]).toEqual(await allCredits(mock, 'ivs_globex_owner', { order_by: 'desc', expand: 'causer' }))
    })

    it('answers an empty page past the end', async () => {
      const mock = createTestMock()
      const res = await mock.newTeam().api().get('/credits', { page: 2 })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 1, count: 0, limit: 25, current_page: 2, total_pages: 1, links: null })
    })

    it.each([
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
      [{ limit: 0 }, { limit: ['The limit field must be at least 1.'] }],
      [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
      [{ page: 'two' }, { page: ['The page field must be an integer.'] }],
    ])('refuses %j', async (query, errors) => {
      const res = await createTestMock().api().get('/credits', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    })
  })
})
