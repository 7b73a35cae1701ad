// The seeded world: fixtures/world.json checked against its schema, built deterministically by
// seedWorld, holding what tests and demos need, and presented through the API within contract.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRandom } from '../../src/kernel/random.ts'
import { ownsTeam, ROLES } from '../../src/kernel/roles.ts'
import { fixturesDir, prebuiltWorldPath } from '../../src/paths.ts'
import { checkWorldFixture, loadWorldFixture } from '../../src/seed/fixture.ts'
import { addTeam, seedWorld } from '../../src/seed/index.ts'
import type { CreditRow } from '../../src/resources/credits/rows.ts'
import { Store, WORLD_FORMAT, type TeamState } from '../../src/store/world.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { createTestMock, NOW, TEST_NOW } from '../support/mock.ts'
import { TABLES } from '../../src/tables.ts'

const EPOCH_DATE = fixture.epoch.slice(0, 10)
const TODAY = NOW.slice(0, 10)

const world = seedWorld(fixture)
const store = new Store(structuredClone(world), TABLES)

function teamOf(key: string): TeamState {
  const entry = fixture.teams.find((team) => team.key === key)
  const state = store.data.teams.find((team) => team.team.identifier === entry?.identifier)
  if (!state) throw new Error(`no seeded team ${key}`)
  return state
}

const EMPTY_ADDRESS = Object.fromEntries(
  ['unit', 'house_name', 'house_number', 'street_name', 'second_street', 'district', 'city', 'province', 'postcode', 'country'].map((field) => [field, null]),
)

/** store.resolveToken at a fixed moment. */
const resolve = (target: Store, token: string, at: string) => target.resolveToken(token, () => at)

const duplicates = (values: number[]) => values.filter((value, index) => values.indexOf(value) !== index)

/** The entries the seed generates (purchases, goodwill, corrections): a user causer or none. */
const isGenerated = (entry: CreditRow) => entry.causer === null || entry.causer.type === 'user'

/**
 * The usage a team's records must have debited: one entry per paid check step (docs/specification-notes.md "Records and steps":
 * each paid step debits the team's credits), made with its record, its causer the step's check.
 */
function expectedUsage(state: TeamState) {
  return state.records
    .flatMap((record) =>
      record.steps
        .filter((step) => step.check !== null && step.cost > 0)
        .map((step) => ({ id: expect.any(Number), credits: -step.cost, reason: expect.any(String), causer: { id: step.check, type: 'check' }, created_at: record.created_at })),
    )
    .sort((a, b) => (a.causer.id as number) - (b.causer.id as number))
}

/** Fixture tokens that work: active, of a user who is still a member of the token's team. */
const resolving = fixture.tokens.filter(
  (token) =>
    (token.state ?? 'active') === 'active' &&
    fixture.users.find((user) => user.key === token.user)?.memberships.some((m) => m.team === token.team && m.role !== null),
)

describe('fixtures/world.json', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  /** A copy of the fixtures directory whose world.json is changed by `edit`. */
  function brokenFixtures(edit: (world: any) => void): string {
    const dir = mkdtempSync(join(tmpdir(), 'ivs-fixture-'))
    dirs.push(dir)
    const original = JSON.parse(readFileSync(join(fixturesDir, 'world.json'), 'utf8'))
    edit(original)
    writeFileSync(join(dir, 'world.json'), JSON.stringify(original))
    writeFileSync(join(dir, 'world.schema.json'), readFileSync(join(fixturesDir, 'world.schema.json')))
    return dir
  }

  it('matches world.schema.json and loads as it is written', () => {
    const raw = JSON.parse(readFileSync(join(fixturesDir, 'world.json'), 'utf8'))
    expect(() => checkWorldFixture(contracts)).not.toThrow()
    expect(loadWorldFixture()).toEqual(raw)
  })

  it('checks and loads an unchanged copy from another directory', () => {
    const dir = brokenFixtures(() => {})
    expect(() => checkWorldFixture(contracts, dir)).not.toThrow()
    expect(loadWorldFixture(dir)).toEqual(fixture)
  })

  it('refuses a fixture missing a required property, naming it', () => {
    const dir = brokenFixtures((w) => delete w.seed)
    expect(() => checkWorldFixture(contracts, dir)).toThrow(/^fixtures\/world\.json does not match world\.schema\.json: \(root\): .*seed/)
  })

  it('refuses a fixture with an invalid value, naming its path', () => {
    const dir = brokenFixtures((w) => {
      w.users[0].memberships[0].role = 'boss'
    })
    expect(() => checkWorldFixture(contracts, dir)).toThrow(/does not match world\.schema\.json: users\.0\.memberships\.0\.role: /)
  })

  it('refuses a team email that is not an email', () => {
    const dir = brokenFixtures((w) => {
      w.teams[1].contact = 'nobody'
    })
    expect(() => checkWorldFixture(contracts, dir)).toThrow(/teams\.1\.contact: must match format "email"/)
  })

  it('refuses a membership of an unknown team', () => {
    const dir = brokenFixtures((w) => {
      w.users[0].memberships.push({ team: 'umbrella', role: 'member' })
    })
    expect(() => checkWorldFixture(contracts, dir)).toThrow('fixtures: user olivia joins unknown team umbrella')
  })

  it('refuses a token for a team its user is not a member of', () => {
    const dir = brokenFixtures((w) => {
      w.tokens[0].team = 'globex'
    })
    expect(() => checkWorldFixture(contracts, dir)).toThrow('fixtures: token ivs_acme_owner names user olivia, who is not a member of globex')
  })

  it('refuses a token of an unknown user', () => {
    const dir = brokenFixtures((w) => {
      w.tokens[0].user = 'nobody'
    })
    expect(() => checkWorldFixture(contracts, dir)).toThrow('fixtures: token ivs_acme_owner names user nobody, who is not a member of acme')
  })
})

describe('seedWorld', () => {
  it('builds the same world from the same fixture and seed', () => {
    expect(seedWorld(fixture)).toEqual(world)
    expect(seedWorld(fixture, fixture.seed)).toEqual(world)
    expect(world.format).toBe(WORLD_FORMAT)
    expect(world.seed).toBe(fixture.seed)
  })

  it('is plain JSON (it survives a round trip to a data file)', () => {
    expect(JSON.parse(JSON.stringify(world))).toEqual(world)
  })

  it('generates other data for another seed, with the same teams, users and tokens from the fixture', () => {
    const other = seedWorld(fixture, fixture.seed + 1)
    expect(other.seed).toBe(fixture.seed + 1)
    const clientNames = (data: typeof world) => data.teams.flatMap((team) => team.clients.map((client) => client.email))
    expect(clientNames(other)).not.toEqual(clientNames(world))

    const fixtureTeam = (data: typeof world) =>
      data.teams.map(({ team }) => ({
        id: team.id,
        identifier: team.identifier,
        name: team.name,
        contact: team.contact,
        telephone: team.telephone,
        tier: team.tier,
        is_support_enabled: team.is_support_enabled,
        cases_enabled: team.cases_enabled,
      }))
    expect(fixtureTeam(other)).toEqual(fixtureTeam(world))

    const fixtureEmails = new Set(fixture.users.map((user) => user.email))
    const fixtureUsers = (data: typeof world) =>
      data.users
        .filter((user) => fixtureEmails.has(user.email))
        .map((user) => ({
          id: user.id,
          name: user.name,
          email: user.email,
          teams: data.teams.filter((t) => t.members.some((m) => m.user === user.id)).map((t) => [t.team.id, t.members.find((m) => m.user === user.id)?.role]),
        }))
    expect(fixtureUsers(other)).toHaveLength(fixture.users.length)
    expect(fixtureUsers(other)).toEqual(fixtureUsers(world))
    expect(other.tokens).toEqual(world.tokens)
  })
})

describe('the seeded world', () => {
  it('has at least two teams with cases enabled and one legacy team without', () => {
    const teams = store.data.teams.map((state) => state.team)
    expect(teams.filter((team) => team.cases_enabled).length).toBeGreaterThanOrEqual(2)
    expect(teams.filter((team) => !team.cases_enabled).length).toBeGreaterThanOrEqual(1)
    expect(teamOf('initech').team).toMatchObject({ cases_enabled: false, tier: 'legacy' })
  })

  it('has a user in two teams, with a token scoped to each', () => {
    const sam = store.userByEmail('sam.carter@consultants.example')
    expect(sam).toBeDefined()
    expect(store.teamsOf(sam?.id as number).map((team) => team.row.name)).toEqual(['Acme Recruitment', 'Globex Legal LLP'])
    const inAcme = resolve(store, 'ivs_shared_acme', NOW)
    const inGlobex = resolve(store, 'ivs_shared_globex', NOW)
    expect(inAcme?.user.id).toBe(sam?.id)
    expect(inGlobex?.user.id).toBe(sam?.id)
    expect(inAcme?.team.id).toBe(teamOf('acme').team.id)
    expect(inGlobex?.team.id).toBe(teamOf('globex').team.id)
    expect(inAcme?.member.role).toBe('owner')
    expect(inGlobex?.member.role).toBe('member')
  })

  it('has an owner and members in every team, each member a known user, and no admin role (docs/specification-notes.md "Roles")', () => {
    for (const state of store.data.teams) {
      const roles = new Set(state.members.map((member) => member.role))
      expect(roles.has('owner') && roles.has('member'), state.team.name).toBe(true)
      for (const role of roles) expect([...ROLES, null]).toContain(role)
      for (const member of state.members) expect(store.user(member.user), `${state.team.name} member ${member.user}`).toBeDefined()
      expect(duplicates(state.members.map((member) => member.user))).toEqual([])
    }
  })

  it('has a user of every role on Acme, and a member who left it', () => {
    const roles = teamOf('acme').members.map((member) => member.role)
    for (const role of [...ROLES, null]) expect(roles, String(role)).toContain(role)
    expect(teamOf('globex').members.map((member) => member.role)).toContain('assigned-only')
    expect(teamOf('initech').members.map((member) => member.role)).toContain('read-only')
  })

  it('assigns every assigned-only member to some active clients and organisations', () => {
    for (const state of store.data.teams) {
      for (const member of state.members.filter((m) => m.role === 'assigned-only')) {
        const assigned = (rows: ReadonlyArray<{ readonly assignees: ReadonlyArray<{ readonly user: number }>; readonly archived_at: string | null }>) =>
          rows.filter((row) => row.archived_at === null && row.assignees.some((a) => a.user === member.user))
        expect(assigned(state.clients).length, state.team.name).toBeGreaterThanOrEqual(3)
        expect(assigned(state.organisations).length, state.team.name).toBeGreaterThanOrEqual(1)
      }
    }
  })

  it('keeps the member who left assigned where they were, so role null shows on the wire', () => {
    const acme = teamOf('acme')
    const left = acme.members.find((member) => member.role === null)
    const rows = [...acme.clients, ...acme.organisations]
    expect(rows.some((row) => row.assignees.some((a) => a.user === left?.user))).toBe(true)
  })

  it('resolves every active fixture token to its user, team and role', () => {
    for (const token of resolving) {
      const identity = resolve(store, token.token, NOW)
      const user = fixture.users.find((u) => u.key === token.user)
      expect(identity, token.token).toBeDefined()
      expect(identity?.user.email).toBe(user?.email)
      expect(identity?.team.id).toBe(teamOf(token.team).team.id)
      expect(identity?.member.role).toBe(user?.memberships.find((m) => m.team === token.team)?.role)
    }
  })

  it('has a token of the member who left, which does not resolve', () => {
    expect(resolve(store, 'ivs_left', NOW)).toBeUndefined()
  })

  it('has a revoked and an expired token, neither of which resolves', () => {
    expect(fixture.tokens.filter((t) => t.state === 'revoked').map((t) => t.token)).toEqual(['ivs_revoked'])
    expect(fixture.tokens.filter((t) => t.state === 'expired').map((t) => t.token)).toEqual(['ivs_expired'])
    for (const at of [fixture.epoch, NOW]) {
      expect(resolve(store, 'ivs_revoked', at)).toBeUndefined()
      expect(resolve(store, 'ivs_expired', at)).toBeUndefined()
    }
    const revoked = store.data.tokens.find((t) => t.token === 'ivs_revoked')
    const expired = store.data.tokens.find((t) => t.token === 'ivs_expired')
    expect(revoked?.revoked_at).not.toBeNull()
    expect(expired?.revoked_at).toBeNull()
    expect(expired?.expires_at !== null && (expired?.expires_at as string) < fixture.epoch).toBe(true)
    expect(resolve(store, 'ivs_no_such_token', NOW)).toBeUndefined()
  })

  describe.each(fixture.teams.map((team) => [team.key, team] as const))('team %s', (key, team) => {
    const state = teamOf(key)
    const clients = state.clients

    it('has the generated number of clients, about 50', () => {
      expect(clients).toHaveLength(team.generate.clients)
      expect(clients.length).toBeGreaterThanOrEqual(40)
      expect(clients.length).toBeLessThanOrEqual(60)
    })

    it('has some archived clients and some active ones', () => {
      const archived = clients.filter((client) => client.archived_at !== null)
      expect(archived.length).toBeGreaterThan(0)
      expect(archived.length).toBeLessThan(clients.length)
      for (const client of archived) expect((client.archived_at ?? '') >= client.created_at, `client ${client.id}`).toBe(true)
    })

    it('has clients with deletion dates in the past and in the future, and clients without', () => {
      const dates = clients.map((client) => client.deletion_date)
      expect(dates.filter((date) => date !== null && date < TODAY).length).toBeGreaterThan(0)
      expect(dates.filter((date) => date !== null && date > TODAY).length).toBeGreaterThan(0)
      expect(dates.filter((date) => date === null).length).toBeGreaterThan(0)
    })

    it('has clients with and without references', () => {
      expect(clients.filter((client) => client.reference !== null).length).toBeGreaterThan(0)
      expect(clients.filter((client) => client.reference === null).length).toBeGreaterThan(0)
    })

    it('has every client status value', () => {
      expect(new Set(clients.map((client) => client.status))).toEqual(new Set([null, 'pending', 'approved', 'rejected']))
    })

    it('has addresses, every GB address with a postcode', () => {
      const addresses = clients.map((client) => client.address).filter((address) => address !== null)
      const gb = addresses.filter((address) => address.country === 'GB')
      expect(gb.length).toBeGreaterThan(0)
      for (const address of gb) expect(address.postcode, JSON.stringify(address)).toEqual(expect.stringMatching(/\S/))
      expect(clients.some((client) => client.address === null)).toBe(true)
    })

    it('has generated members beside the fixture users', () => {
      const fixtureMembers = fixture.users.filter((user) => user.memberships.some((m) => m.team === key)).length
      expect(state.members).toHaveLength(fixtureMembers + team.generate.members)
    })

    it('has a credit history that starts with the +500 opening purchase', () => {
      const credits = [...state.credits].sort((a, b) => a.id - b.id)
      expect(credits[0]).toMatchObject({ credits: 500, reason: 'Initial credit purchase', causer: { type: 'user' } })
      const byTime = [...credits].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
      expect(byTime[0]?.id).toBe(credits[0]?.id)
      expect((credits[0]?.created_at ?? '') > state.team.created_at).toBe(true)
      for (const entry of credits) expect(entry.created_at <= fixture.epoch, `credit ${entry.id}`).toBe(true)
    })

    it('has the generated credit entries, each by an owner or support or by the service itself', () => {
      const generated = state.credits.filter(isGenerated)
      expect(generated).toHaveLength(team.generate.credit_entries)
      const owners = state.members.filter((member) => member.role !== null && ownsTeam(member.role)).map((member) => member.user)
      for (const entry of generated) {
        if (entry.causer !== null) expect(owners, `causer of credit ${entry.id}`).toContain(entry.causer.id)
        expect(Number.isInteger(entry.credits) && entry.credits !== 0, `credit ${entry.id}`).toBe(true)
      }
    })

    it("has 3 record templates and the generated records, whose paid check steps debited the team's credits", () => {
      expect(state.record_templates).toHaveLength(3)
      expect(state.records.length).toBeGreaterThan(0)
      expect(state.records.length).toBeLessThanOrEqual(team.generate.records)
      const usage = state.credits.filter((entry) => !isGenerated(entry)).sort((a, b) => (a.causer?.id ?? 0) - (b.causer?.id ?? 0))
      expect(usage.length).toBeGreaterThan(0)
      expect(usage).toEqual(expectedUsage(state))
      expect(state.credits).toHaveLength(team.generate.credit_entries + usage.length)
    })

    it('dates everything generated before the epoch', () => {
      for (const client of clients) {
        expect(client.created_at <= fixture.epoch, `client ${client.id}`).toBe(true)
        expect(client.updated_at >= client.created_at && client.updated_at <= fixture.epoch, `client ${client.id}`).toBe(true)
      }
      expect(EPOCH_DATE < TODAY).toBe(true)
    })
  })

  it('gives unique ids across teams', () => {
    const teams = store.data.teams
    expect(duplicates(teams.map((t) => t.team.id))).toEqual([])
    expect(duplicates(store.data.users.map((u) => u.id))).toEqual([])
    expect(duplicates(teams.flatMap((t) => t.clients.map((c) => c.id)))).toEqual([])
    expect(duplicates(teams.flatMap((t) => t.organisations.map((o) => o.id)))).toEqual([])
    expect(duplicates(teams.flatMap((t) => t.credits.map((c) => c.id)))).toEqual([])
    expect(
      duplicates(teams.flatMap((t) => [...t.clients.flatMap((c) => c.assignees), ...t.organisations.flatMap((o) => o.assignees)].map((a) => a.id))),
    ).toEqual([])
    expect(new Set(store.data.users.map((u) => u.email.toLowerCase())).size).toBe(store.data.users.length)
  })

  it('keeps its sequences ahead of every id it gave out', () => {
    const teams = store.data.teams
    const max = (values: number[]) => Math.max(0, ...values)
    const { sequences } = store.data
    expect(sequences.team).toBe(max(teams.map((t) => t.team.id)))
    expect(sequences.user).toBe(max(store.data.users.map((u) => u.id)))
    expect(sequences.client).toBe(max(teams.flatMap((t) => t.clients.map((c) => c.id))))
    expect(sequences.credit).toBe(max(teams.flatMap((t) => t.credits.map((c) => c.id))))
  })
})

describe('the seeded world through the API (every response checked against its contract)', () => {
  /** Every page of a list, at 100 a page (bounded: the seeded lists are small). */
  async function allPages(api: ReturnType<ReturnType<typeof createTestMock>['api']>, path: string, query: Record<string, string> = {}) {
    const items: any[] = []
    for (let page = 1; page <= 20; page++) {
      const res = await api.get(path, { ...query, limit: 100, page })
      expect(res.status, `${path} page ${page}`).toBe(200)
      items.push(...res.body.data)
      if (page >= res.body.total_pages) return { items, total: res.body.total as number }
    }
    throw new Error(`${path}: more than 20 pages`)
  }

  it.each(resolving.map((token) => [token.token] as const))('presents the world seen by %s', async (token) => {
    const mock = createTestMock()
    const api = mock.api(token)
    const identity = resolve(mock.store, token, mock.clock.timestamp())
    if (!identity) throw new Error(`${token} does not resolve`)
    const state = identity.team.state
    const visible = state.clients.filter(
      (client) => identity.member.role !== 'assigned-only' || client.assignees.some((assignee) => assignee.user === identity.user.id),
    )

    const clients = await allPages(api, '/clients')
    expect(clients.total).toBe(visible.length)
    expect(clients.items.map((client) => client.id)).toEqual(visible.map((client) => client.id).sort((a, b) => a - b))

    const team = await api.get('/team')
    expect(team.status).toBe(200)
    expect(team.body).toMatchObject({ object: 'team', id: state.team.id, identifier: state.team.identifier, name: state.team.name })

    const members = await allPages(api, '/team/members')
    const current = state.members.filter((m) => m.role !== null).map((m) => m.user)
    expect(members.items.map((member) => member.id).sort((a, b) => a - b)).toEqual(current.sort((a, b) => a - b))

    const organisations = await allPages(api, '/organisations', { expand: 'assignees,clients' })
    expect(organisations.items.length).toBeGreaterThan(0)

    const me = await api.get('/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ object: 'user', id: identity.user.id, email: identity.user.email })

    if (!ownsTeam(identity.member.role)) {
      const credits = await api.get('/credits', { expand: 'causer' })
      expect(credits.status).toBe(403)
      expect(credits.body).toEqual({ message: 'This action is unauthorized.' })
    } else {
      const credits = await allPages(api, '/credits', { expand: 'causer' })
      expect(credits.items.map((entry) => entry.id).sort((a, b) => a - b)).toEqual(state.credits.map((c) => c.id).sort((a, b) => a - b))
      // With expand=causer a check causer is the Check (docs/specification-notes.md "Credits"); a user causer stays {id, type}.
      for (const entry of credits.items) {
        const row = state.credits.find((c) => c.id === entry.id)
        if (row?.causer?.type === 'check') {
          const check = state.checks.find((c) => c.id === row.causer?.id)
          expect(entry.causer, `credit ${entry.id}`).toMatchObject({ object: 'check', id: row.causer.id, type: check?.type, record: check?.record })
        } else {
          expect(entry.causer, `credit ${entry.id}`).toEqual(row?.causer === null ? null : { id: row?.causer?.id, type: 'user' })
        }
      }
      expect(credits.items.some((entry) => entry.causer?.object === 'check')).toBe(true)
    }
  })

  it.each(fixture.teams.map((team) => [team.key] as const))('presents every address of team %s', async (key) => {
    const mock = createTestMock()
    const token = resolving.find((t) => t.team === key && fixture.users.find((u) => u.key === t.user)?.memberships.some((m) => m.team === key && m.role === 'owner'))?.token
    const state = teamOf(key)
    for (const client of state.clients) {
      const res = await mock.api(token).get(`/clients/${client.id}/address`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ object: 'address', ...EMPTY_ADDRESS, ...client.address })
    }
  })

  it.each(fixture.tokens.filter((token) => !resolving.includes(token)).map((token) => [token.token] as const))(
    'refuses %s with 401',
    async (token) => {
      const res = await createTestMock().api(token).get('/me')
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    },
  )
})

describe('addTeam', () => {
  const fresh = () => new Store(structuredClone(world), TABLES)

  it('adds an isolated team with a user of every role, each with a token that resolves', () => {
    const target = fresh()
    const added = addTeam(target, createRandom(7), TEST_NOW)
    expect(target.team(added.team.id)).toBe(added.team)
    expect(added.team.id).toBe((world.sequences.team ?? 0) + 1)
    expect(added.team.members.map((m) => m.role)).toEqual([...ROLES])
    for (const role of ROLES) {
      const identity = resolve(target, added.tokens[role], NOW)
      expect(identity?.user).toEqual(added.users[role])
      expect(identity?.team).toBe(added.team)
      expect(identity?.member.role).toBe(role)
      expect(added.users[role].email).toBe(`${role}@team-${added.team.id}.example`)
    }
    expect(added.team.row).toMatchObject({ cases_enabled: true, created_at: NOW, updated_at: NOW, archived_at: null })
    expect(added.team.clients.all()).toEqual([])
    expect(added.team.organisations.all()).toEqual([])
  })

  it('gives tokens that expire one year after creation', () => {
    const target = fresh()
    const added = addTeam(target, createRandom(7), TEST_NOW)
    const yearLater = '2027-07-01T12:00:00Z'
    for (const role of ROLES) {
      const row = target.data.tokens.find((t) => t.token === added.tokens[role])
      expect(row).toMatchObject({ created_at: NOW, expires_at: yearLater, revoked_at: null, team: added.team.id })
      expect(resolve(target, added.tokens[role], '2027-07-01T11:59:59Z')).toBeDefined()
      expect(resolve(target, added.tokens[role], yearLater)).toBeUndefined()
    }
  })

  it('starts with the +500 opening purchase and nothing else by default', () => {
    const added = addTeam(fresh(), createRandom(7), TEST_NOW)
    expect(added.team.credits.all()).toEqual([
      { id: expect.any(Number), credits: 500, reason: 'Initial credit purchase', causer: { id: added.users.owner.id, type: 'user' }, created_at: NOW },
    ])
  })

  it('generates the counts it is asked for', () => {
    const added = addTeam(fresh(), createRandom(7), TEST_NOW, { generate: { clients: 12, members: 2, organisations: 3, credit_entries: 4 } })
    expect(added.team.clients.size).toBe(12)
    expect(added.team.members).toHaveLength(ROLES.length + 2)
    expect(added.team.organisations.size).toBe(3)
    expect(added.team.credits.size).toBe(4)
    expect(added.team.credits.all()[0]).toMatchObject({ credits: 500, reason: 'Initial credit purchase' })
  })

  it('takes a name and cases off', () => {
    const added = addTeam(fresh(), createRandom(7), TEST_NOW, { name: 'Legacy Lettings', casesEnabled: false })
    expect(added.team.row).toMatchObject({ name: 'Legacy Lettings', cases_enabled: false })
  })

  it('gives ids that collide with nothing seeded, and unique tokens per team', () => {
    const target = fresh()
    const random = createRandom(7)
    const one = addTeam(target, random, TEST_NOW, { generate: { clients: 3 } })
    const two = addTeam(target, random, TEST_NOW, { generate: { clients: 3 } })
    const allClients = target.data.teams.flatMap((t) => t.clients.map((c) => c.id))
    expect(duplicates(allClients)).toEqual([])
    expect(duplicates(target.data.users.map((u) => u.id))).toEqual([])
    expect(new Set([...Object.values(one.tokens), ...Object.values(two.tokens)]).size).toBe(2 * ROLES.length)
    expect(two.team.id).toBe(one.team.id + 1)
  })

  it('is deterministic for the same random seed', () => {
    const a = addTeam(fresh(), createRandom(99), TEST_NOW, { generate: { clients: 5 } })
    const b = addTeam(fresh(), createRandom(99), TEST_NOW, { generate: { clients: 5 } })
    expect(a.team.state).toEqual(b.team.state)
    expect(a.tokens).toEqual(b.tokens)
    expect(a.users).toEqual(b.users)
  })

  it('is presented through the API within contract', async () => {
    const mock = createTestMock()
    const { api, team, users } = mock.newTeam({ generate: { clients: 3, members: 1 } })
    const res = await api('read-only').get('/team')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: team.id, identifier: `team-${team.id}` })
    const clients = await api('member').get('/clients')
    expect(clients.body.total).toBe(3)
    expect((await api('owner').get('/me')).body.id).toBe(users.owner.id)
    expect((await api('owner').get('/credits', { expand: 'causer' })).body.total).toBe(1)
  })
})

describe('the world the build seeds (dist/world.json)', () => {
  it("is exactly the world of the fixture's seed, which the server reads instead of seeding it again", () => {
    expect(JSON.parse(readFileSync(prebuiltWorldPath, 'utf8'))).toEqual(seedWorld(fixture))
  })
})
