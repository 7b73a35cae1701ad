import { describe, expect, it } from 'vitest'
import { ownsTeam } from '../../src/kernel/roles.ts'
import type { CheckRow } from '../../src/resources/checks/index.ts'
import { fixture } from '../support/contracts.ts'
import type { Team } from '../../src/store/world.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { giveRecord } from '../support/rows.ts'

interface CreditJson {
  object: 'credit_history'
  id: number
  credits: number
  reason: string | null
  created_at: string
  causer: { id: number; type: string } | null
}

/** The entries the seed generates (purchases, goodwill, corrections): a user causer or none. */
const isGenerated = (entry: { causer: { type: string } | null }) => entry.causer === null || entry.causer.type === 'user'

/**
 * The usage a team's records debited: one entry per paid check step (docs/specification-notes.md "Records and steps": each
 * paid step debits the team's credits), made with its record, its causer the step's check; by check id.
 */
function expectedUsage(team: Team) {
  return team.records
    .all()
    .flatMap((record) =>
      record.steps
        .filter((step) => step.check !== null && step.cost > 0)
        .map((step) => ({
          object: 'credit_history',
          id: expect.any(Number),
          credits: -step.cost,
          reason: expect.any(String),
          created_at: record.created_at,
          causer: { id: step.check as number, type: 'check' },
        })),
    )
    .sort((a, b) => a.causer.id - b.causer.id)
}

function seededTeam(mock: TestMock, key: string) {
  const name = fixture.teams.find((t) => t.key === key)?.name
  const team = [...mock.store.allTeams()].find((t) => t.row.name === name)
  if (!team) throw new Error(`no seeded team ${key}`)
  return team
}

/** Every entry of a seeded team's history, in one request. */
async function allCredits(mock: TestMock, token: string, query: Record<string, string | number | string[]> = {}): Promise<CreditJson[]> {
  const res = await mock.api(token).get('/credits', { limit: 100, ...query })
  expect(res.status).toBe(200)
  expect(res.body.total).toBe(res.body.count)
  return res.body.data
}

/** The single entry of a fresh team: the opening purchase, caused by its owner. */
async function openingEntry(mock: TestMock) {
  const team = mock.newTeam()
  const res = await team.api().get('/credits')
  expect(res.status).toBe(200)
  expect(res.body.data[0]?.causer).toEqual({ id: team.users.owner.id, type: 'user' })
  return { team, res }
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
          id: team.team.credits.all()[0]?.id,
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

  it.each(['owner', 'assumed'] as const)('answers the %s (docs/specification-notes.md "Roles")', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const res = await team.api(role).get('/credits')
    expect(res.status).toBe(200)
    expect(res.body).toEqual((await team.api('owner').get('/credits')).body)
  })

  it.each([['member'], ['read-only'], ['assigned-only'], ['ivs_acme_member'], ['ivs_shared_globex'], ['ivs_acme_readonly'], ['ivs_globex_assigned']])(
    'forbids anyone but an owner (%s)',
    async (who) => {
    const mock = createTestMock()
    const api = who.startsWith('ivs_') ? mock.api(who) : mock.newTeam().api(who as 'member')
    const res = await api.get('/credits')
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    },
  )

  it('answers the seeded history of the token\'s team only', async () => {
    const mock = createTestMock()
    for (const [key, token] of [
      ['acme', 'ivs_acme_owner'],
      ['globex', 'ivs_globex_support'],
      ['initech', 'ivs_initech_owner'],
    ] as const) {
      const team = seededTeam(mock, key)
      const entries = await allCredits(mock, token)
      expect(entries.map((e) => e.id).sort((a, b) => a - b)).toEqual(team.credits.all().map((row) => row.id).sort((a, b) => a - b))
      expect(entries[0]).toMatchObject({ credits: 500, reason: 'Initial credit purchase' })
      // Generated: top-ups by owners, goodwill by support acting in the team, corrections by the service itself (no causer).
      const generated = entries.filter(isGenerated)
      expect(generated).toHaveLength(fixture.teams.find((t) => t.key === key)?.generate.credit_entries ?? -1)
      const owners = team.members.filter((m) => m.role !== null && ownsTeam(m.role)).map((m) => m.user)
      for (const entry of generated) {
        if (entry.causer !== null) expect(owners).toContain(entry.causer.id)
        expect(Number.isInteger(entry.credits) && entry.credits !== 0).toBe(true)
      }
      // Usage: one debit per paid check step of the team's seeded records, caused by its check.
      const usage = entries.filter((entry) => !isGenerated(entry)).sort((a, b) => (a.causer?.id ?? 0) - (b.causer?.id ?? 0))
      expect(usage.length).toBeGreaterThan(0)
      expect(usage).toEqual(expectedUsage(team))
      expect(entries).toHaveLength(generated.length + usage.length)
    }
  })

  it('shows a null reason and a null causer as null (docs/specification-notes.md "Credits")', async () => {
    const mock = createTestMock()
    const entries = [...(await allCredits(mock, 'ivs_acme_owner')), ...(await allCredits(mock, 'ivs_globex_owner')), ...(await allCredits(mock, 'ivs_initech_owner'))]
    expect(entries.some((e) => e.reason === null)).toBe(true)
    expect(entries.some((e) => e.causer === null && e.credits < 0)).toBe(true)
  })

  describe('order', () => {
    it('is created_at ascending by default', async () => {
      const mock = createTestMock()
      const entries = await allCredits(mock, 'ivs_acme_support')
      const times = entries.map((e) => e.created_at)
      expect(times).toEqual([...times].sort())
      // The debits of one record share its created_at; ties go by id.
      expect(new Set(times).size).toBeLessThan(times.length)
      for (let index = 1; index < entries.length; index++) {
        const [before, after] = [entries[index - 1] as CreditJson, entries[index] as CreditJson]
        if (before.created_at === after.created_at) expect(before.id, `${before.id} before ${after.id}`).toBeLessThan(after.id)
      }
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
    it('collapses the causer to {id, type}, or null, without expand', async () => {
      const mock = createTestMock()
      for (const entry of await allCredits(mock, 'ivs_acme_owner')) {
        expect(entry.causer === null || JSON.stringify(Object.keys(entry.causer)) === '["id","type"]').toBe(true)
      }
    })

    it('keeps a user causer as {id, type} with expand=causer: only check causers expand (docs/specification-notes.md "Credits")', async () => {
      const mock = createTestMock()
      const { team, res } = await openingEntry(mock)
      expect((await team.api().get('/credits', { expand: 'causer' })).body).toEqual(res.body)
      for (const token of ['ivs_acme_owner', 'ivs_globex_owner', 'ivs_initech_owner']) {
        const collapsed = await allCredits(mock, token)
        const expanded = await allCredits(mock, token, { expand: 'causer' })
        expect(expanded.map(({ causer: _causer, ...entry }) => entry)).toEqual(collapsed.map(({ causer: _causer, ...entry }) => entry))
        collapsed.forEach((entry, index) => {
          const causer = expanded[index]?.causer
          if (entry.causer?.type === 'check') expect(causer, `credit ${entry.id}`).toMatchObject({ object: 'check', id: entry.causer.id })
          else expect(causer, `credit ${entry.id}`).toEqual(entry.causer)
        })
        expect(collapsed.some((entry) => entry.causer?.type === 'user')).toBe(true)
        expect(collapsed.some((entry) => entry.causer?.type === 'check')).toBe(true)
      }
    })

    it('expands a check causer to the Check, its record and response collapsed (one level); a user causer stays {id, type}', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const client = await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
      expect(client.status).toBe(201)
      const record = giveRecord(mock, team.team, client.body.id, {
        steps: [
          { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'], facial_similarity: true }, cost: 2, completed_at: NOW },
          { type: 'check.identity', cost: 1 },
        ],
      })
      const [photo, identity] = record.steps.map((step) => team.team.checks.get(step.check ?? 0) as CheckRow)
      if (!photo || !identity) throw new Error('no checks')
      Object.assign(photo, { status: 'accepted', outcome: 'clear', response: { at: NOW, seed: 1, dob: null } })
      const debit = (causer: number, credits: number, created_at: string) =>
        team.team.credits.insert({ id: mock.store.nextId('credit'), credits, reason: null, causer: { id: causer, type: 'check' }, created_at })
      const photoDebit = debit(photo.id, -2, '2026-07-01T12:00:01Z')
      const identityDebit = debit(identity.id, -1, '2026-07-01T12:00:02Z')
      // A check that no longer exists (its client was deleted) stays {id, type}.
      const goneDebit = debit(999_999, -1, '2026-07-01T12:00:03Z')
      const checkJson = (check: CheckRow, response: true | null) => ({
        object: 'check',
        id: check.id,
        type: check.type,
        record: record.id,
        status: check.status,
        response,
        allow_replay: false,
        allow_cancel: false,
        requires_consent: false,
        created_at: NOW,
        updated_at: NOW,
      })
      const collapsed = await team.api().get('/credits')
      const expanded = await team.api().get('/credits', { expand: 'causer' })
      expect(expanded.status).toBe(200)
      const [opening, ...debits] = expanded.body.data
      expect(opening).toEqual(collapsed.body.data[0])
      expect(opening.causer).toEqual({ id: team.users.owner.id, type: 'user' })
      expect(debits).toEqual([
        { object: 'credit_history', id: photoDebit.id, credits: -2, reason: null, created_at: '2026-07-01T12:00:01Z', causer: checkJson(photo, true) },
        { object: 'credit_history', id: identityDebit.id, credits: -1, reason: null, created_at: '2026-07-01T12:00:02Z', causer: checkJson(identity, null) },
        { object: 'credit_history', id: goneDebit.id, credits: -1, reason: null, created_at: '2026-07-01T12:00:03Z', causer: { id: 999_999, type: 'check' } },
      ])
      expect(collapsed.body.data.slice(1).map((entry: CreditJson) => entry.causer)).toEqual([
        { id: photo.id, type: 'check' },
        { id: identity.id, type: 'check' },
        { id: 999_999, type: 'check' },
      ])
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
      const acme = seededTeam(mock, 'acme')
      const total = (fixture.teams.find((t) => t.key === 'acme')?.generate.credit_entries ?? 0) + expectedUsage(acme).length
      expect(all).toHaveLength(total)
      const last = Math.ceil(total / 5)
      expect(last).toBeGreaterThan(2)
      const link = (page: number) => `http://localhost/api/v2/credits?limit=5&page=${page}`
      const api = mock.api('ivs_acme_owner')
      const pages = []
      for (let page = 1; page <= last; page++) pages.push((await api.get('/credits', { limit: 5, page })).body)
      expect(pages[0]).toEqual({
        object: 'paginated_list',
        data: all.slice(0, 5),
        total,
        count: 5,
        limit: 5,
        current_page: 1,
        total_pages: last,
        links: { next: link(2), previous: null },
      })
      expect(pages[1]).toMatchObject({ data: all.slice(5, 10), count: 5, current_page: 2, links: { next: link(3), previous: link(1) } })
      expect(pages[last - 1]).toEqual({
        object: 'paginated_list',
        data: all.slice((last - 1) * 5),
        total,
        count: total - (last - 1) * 5,
        limit: 5,
        current_page: last,
        total_pages: last,
        links: { next: null, previous: link(last - 1) },
      })
      expect(pages.flatMap((page) => page.data)).toEqual(all)
    })

    it('keeps order_by and expand in the links', async () => {
      const mock = createTestMock()
      const api = mock.api('ivs_globex_owner')
      const all = await allCredits(mock, 'ivs_globex_owner', { order_by: 'desc', expand: 'causer' })
      const last = Math.ceil(all.length / 10)
      expect(last).toBeGreaterThan(2)
      const link = (page: number) => `http://localhost/api/v2/credits?order_by=desc&expand=causer&limit=10&page=${page}`
      const pages = []
      for (let page = 1; page <= last; page++) {
        const res = await api.get('/credits', { order_by: 'desc', expand: 'causer', limit: 10, page })
        expect(res.status).toBe(200)
        expect(res.body.links).toEqual({ next: page < last ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null })
        pages.push(res.body)
      }
      expect(pages[last - 1]?.count).toBe(all.length - (last - 1) * 10)
      expect(pages.flatMap((page) => page.data)).toEqual(all)
    })

    it('answers an empty page past the end', async () => {
      const mock = createTestMock()
      const res = await mock.newTeam().api().get('/credits', { page: 2 })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 1, count: 0, limit: 25, current_page: 2, total_pages: 1, links: null })
    })

    it('reads a page beyond 2^53 as Laravel does (an integer in PHP\'s range): an empty page, not a 422', async () => {
      const api = createTestMock().newTeam().api()
      const res = await api.get('/credits', { page: '9007199254740992' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        object: 'paginated_list',
        data: [],
        total: 1,
        count: 0,
        limit: 25,
        current_page: 9007199254740992,
        total_pages: 1,
        links: null,
      })
      const largest = await api.get('/credits', { page: '9223372036854775807' })
      expect(largest.status).toBe(200)
      expect(largest.body.data).toEqual([])
    })

    it.each([
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
      [{ limit: 0 }, { limit: ['The limit field must be at least 1.'] }],
      [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
      [{ page: 'two' }, { page: ['The page field must be an integer.'] }],
      [{ page: '-9007199254740993' }, { page: ['The page field must be at least 1.'] }],
      [{ page: '9223372036854775808' }, { page: ['The page field must be an integer.'] }],
    ])('refuses %j', async (query, errors) => {
      const res = await createTestMock().api().get('/credits', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    })
  })
})
