import { describe, expect, it } from 'vitest'
import type { UserRow } from '../../src/store/identity.ts'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import { fixture } from '../support/contracts.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { singlePage } from '../support/wire.ts'

const MINUTE = 60_000

function memberJson(user: Pick<UserRow, 'id' | 'name' | 'email'>, role: Role | null) {
  return { object: 'team_member', id: user.id, name: user.name, email: user.email, role }
}

/** A seeded user by email, as the store holds it. */
function seededUser(mock: TestMock, email: string): UserRow {
  const user = mock.store.userByEmail(email)
  if (!user) throw new Error(`no seeded user ${email}`)
  return user
}

function fixtureTeam(key: string) {
  const team = fixture.teams.find((t) => t.key === key)
  if (!team) throw new Error(`no fixture team ${key}`)
  return team
}

function teamIdOf(mock: TestMock, key: string): number {
  const name = fixtureTeam(key).name
  const team = [...mock.store.allTeams()].find((t) => t.row.name === name)
  if (!team) throw new Error(`no seeded team ${key}`)
  return team.id
}

/** Every current member of a seeded team as the API should list them (not those who left): user id order, with roles. */
function seededMembers(mock: TestMock, key: string) {
  const team = mock.store.team(teamIdOf(mock, key))
  if (!team) throw new Error(`no seeded team ${key}`)
  return team.members
    .filter((member) => member.role !== null)
    .map((member) => memberJson(mock.store.user(member.user) as UserRow, member.role))
    .sort((a, b) => a.id - b.id)
}

/** A fresh team's members as GET /team/members lists them: one of every role, in the order they were made. */
function freshMembers(users: Record<Role, UserRow>) {
  return ROLES.map((role) => memberJson(users[role], role))
}

describe('GET /team', () => {
  it('is the team the token is scoped to, with its identifier', async () => {
    const mock = createTestMock()
    const { api, team } = mock.newTeam({ name: 'Hooli Screening' })
    const id = team.id
    const res = await api().get('/team')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'team',
      id,
      identifier: `team-${id}`,
      uuid: team.row.uuid,
      name: 'Hooli Screening',
      contact: `contact@team-${id}.example`,
      telephone: null,
      tier: 'business',
      logo: null,
      is_support_enabled: false,
      created_at: NOW,
      updated_at: NOW,
      archived_at: null,
    })
  })

  it('answers the seeded team from the fixture', async () => {
    const mock = createTestMock()
    const acme = fixtureTeam('acme')
    const row = mock.store.team(teamIdOf(mock, 'acme'))?.row
    const res = await mock.api('ivs_acme_owner').get('/team')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'team',
      id: row?.id,
      identifier: 'acme-recruitment',
      uuid: row?.uuid,
      name: acme.name,
      contact: 'compliance@acme-recruitment.example',
      telephone: '+44 20 7946 0018',
      tier: 'business',
      logo: null,
      is_support_enabled: true,
      created_at: row?.created_at,
      updated_at: row?.updated_at,
      archived_at: null,
    })
    expect(res.body.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  it('is the same team for every role', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const owner = await api('owner').get('/team')
    for (const role of ROLES) {
      const res = await api(role).get('/team')
      expect(res.status).toBe(200)
      expect(res.body).toEqual(owner.body)
    }
  })

  it('shows a null telephone as null (seeded Globex)', async () => {
    const res = await createTestMock().api('ivs_globex_member').get('/team')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ identifier: 'globex-legal', name: 'Globex Legal LLP', telephone: null, tier: 'enterprise' })
  })
})

describe('PATCH /team', () => {
  it('lets the owner change the contact email and stamps updated_at', async () => {
    const mock = createTestMock()
    const { api, team } = mock.newTeam()
    const before = (await api().get('/team')).body
    mock.clock.advance(MINUTE)
    const res = await api('owner').patch('/team', { contact: 'compliance@hooli.example' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...before, contact: 'compliance@hooli.example', updated_at: '2026-07-01T12:01:00Z' })
    expect((await api('member').get('/team')).body).toEqual(res.body)
    expect(team.row.contact).toBe('compliance@hooli.example')
  })

  it('lets support acting in the team (assumed) change the telephone', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    mock.clock.advance(2 * MINUTE)
    const res = await api('assumed').patch('/team', { telephone: '+44 20 7946 0999' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...before, telephone: '+44 20 7946 0999', updated_at: '2026-07-01T12:02:00Z' })
    expect((await api().get('/team')).body.telephone).toBe('+44 20 7946 0999')
  })

  it('changes contact and telephone together', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    const res = await api('owner').patch('/team', { contact: 'ops@hooli.example', telephone: '0161 496 0000' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...before, contact: 'ops@hooli.example', telephone: '0161 496 0000' })
  })

  it('clears the telephone with null', async () => {
    const mock = createTestMock()
    const res = await mock.api('ivs_acme_support').patch('/team', { telephone: null })
    expect(res.status).toBe(200)
    expect(res.body.telephone).toBeNull()
    expect(res.body.contact).toBe('compliance@acme-recruitment.example')
    expect((await mock.api('ivs_acme_member').get('/team')).body.telephone).toBeNull()
  })

  it('leaves updated_at alone when nothing changes', async () => {
    const mock = createTestMock()
    const { api, team } = mock.newTeam()
    mock.clock.advance(5 * MINUTE)
    const res = await api().patch('/team', { contact: team.row.contact, telephone: null })
    expect(res.status).toBe(200)
    expect(res.body.updated_at).toBe(NOW)
    expect((await api().get('/team')).body.updated_at).toBe(NOW)
  })

  it.each(['member', 'read-only', 'assigned-only'] as const)('forbids a %s (docs/specification-notes.md "Roles")', async (role) => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    const res = await api(role).patch('/team', { contact: 'hijack@example.com' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    expect((await api().get('/team')).body).toEqual(before)
  })

  it.each(['ivs_acme_member', 'ivs_acme_readonly', 'ivs_acme_assigned', 'ivs_shared_globex'])('forbids the seeded %s', async (token) => {
    const res = await createTestMock().api(token).patch('/team', { telephone: null })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
  })

  it('needs at least one property', async () => {
    const { api } = createTestMock().newTeam()
    const res = await api().patch('/team', {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('treats an empty request body as an empty object', async () => {
    const { api } = createTestMock().newTeam()
    const res = await api().request('PATCH', '/team', { headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('refuses a contact that is not an email address', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    const res = await api().patch('/team', { contact: 'not-an-email' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ contact: ['The contact field must be a valid email address.'] })
    expect((await api().get('/team')).body).toEqual(before)
  })

  it('validates the type and length of each field', async () => {
    const { api } = createTestMock().newTeam()
    const res = await api().patch('/team', { contact: null, telephone: 442079460000 })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      contact: ['The contact field is required.'],
      telephone: ['The telephone field must be a string.'],
    })
    const long = await api().patch('/team', { telephone: '1'.repeat(256) })
    expect(long.status).toBe(422)
    expect(long.body).toEqual({ telephone: ['The telephone field must not be greater than 255 characters.'] })
  })
})

describe('GET /team/me', () => {
  it.each(ROLES)('is the %s as a member of the team', async (role) => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api(role).get('/team/me')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(memberJson(users[role], role))
  })

  it.each([
    ['ivs_acme_owner', 'olivia.bennett@acme-recruitment.example', 'owner'],
    ['ivs_acme_readonly', 'marcus.reid@acme-recruitment.example', 'read-only'],
    ['ivs_acme_member', 'hannah.okafor@acme-recruitment.example', 'member'],
    ['ivs_acme_assigned', 'aisha.rahman@acme-recruitment.example', 'assigned-only'],
    ['ivs_acme_support', 'alex.morgan@support.ivs.example', 'assumed'],
    ['ivs_initech_member', 'joanna.price@initech-lettings.example', 'member'],
  ] as const)('answers %s with the seeded user and role', async (token, email, role) => {
    const mock = createTestMock()
    const user = seededUser(mock, email)
    const res = await mock.api(token).get('/team/me')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(memberJson(user, role))
  })
})

describe('GET /team/members', () => {
  it('lists every member with their role, in id order', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api('member').get('/team/members')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage(freshMembers(users)))
  })

  it('lists all current members of a seeded team, including a user who is in two teams, and not one who left', async () => {
    const mock = createTestMock()
    const res = await mock.api('ivs_acme_member').get('/team/members')
    expect(res.status).toBe(200)
    const expected = seededMembers(mock, 'acme')
    expect(res.body).toEqual(singlePage(expected))
    const current = fixture.users.filter((user) => user.memberships.some((m) => m.team === 'acme' && m.role !== null))
    expect(res.body.total).toBe(current.length + fixtureTeam('acme').generate.members)
    for (const [email, role] of [
      ['olivia.bennett@acme-recruitment.example', 'owner'],
      ['marcus.reid@acme-recruitment.example', 'read-only'],
      ['hannah.okafor@acme-recruitment.example', 'member'],
      ['aisha.rahman@acme-recruitment.example', 'assigned-only'],
      ['alex.morgan@support.ivs.example', 'assumed'],
      ['sam.carter@consultants.example', 'owner'],
    ] as const) {
      expect(res.body.data).toContainEqual(memberJson(seededUser(mock, email), role))
    }
    expect(res.body.data.map((m: { id: number }) => m.id)).not.toContain(seededUser(mock, 'dan.whitaker@acme-recruitment.example').id)
  })

  it('never lists members of another team', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const other = mock.newTeam()
    const res = await api().get('/team/members')
    const ids = res.body.data.map((m: { id: number }) => m.id)
    expect(ids).toEqual(ROLES.map((role) => users[role].id))
    expect(ids).not.toContain(other.users.owner.id)
  })

  describe('search', () => {
    /** A fresh team whose members are Zoë Ångström (owner), zoe andrews (read-only), Marc Angel-Dubois (member) and two names no search here matches. */
    async function namedTeam() {
      const mock = createTestMock()
      const team = mock.newTeam()
      const names: Record<Role, string> = {
        owner: 'Zoë Ångström',
        'read-only': 'zoe andrews',
        member: 'Marc Angel-Dubois',
        'assigned-only': 'Priya Kowalski',
        assumed: 'Tom Hughes',
      }
      for (const role of ROLES) {
        const res = await team.api(role).patch('/me', { name: names[role] })
        expect(res.status).toBe(200)
      }
      const members = Object.fromEntries(ROLES.map((role) => [role, memberJson({ ...team.users[role], name: names[role] }, role)])) as Record<Role, unknown>
      return { mock, api: team.api, members }
    }

    it.each([
      ['ZOE', ['owner', 'read-only']],
      ['zoë', ['owner', 'read-only']],
      ['StröM', ['owner']],
      ['angstrom', ['owner']],
      ['ang', ['owner', 'member']],
      ['dub', ['member']],
      ['zoe ang', ['owner']],
      ['ang ZOE', ['owner']],
      ['  zoë   ångström  ', ['owner']],
      ['angel-dubois', ['member']],
      ['marc dubois', ['member']],
    ] as const)('"%s" finds %j', async (search, roles) => {
      const { api, members } = await namedTeam()
      const res = await api().get('/team/members', { search })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(singlePage(roles.map((role) => members[role])))
    })

    it('finds nobody when one of the words matches no name', async () => {
      const { api } = await namedTeam()
      const res = await api().get('/team/members', { search: 'zoe smith' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
    })

    it('searches names only, not email addresses', async () => {
      const { api } = await namedTeam()
      const res = await api().get('/team/members', { search: 'admin@team' })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
    })

    it('folds letters with a stroke too (Søren Łukasiewicz found by "soren lukasiewicz")', async () => {
      const mock = createTestMock()
      const { api, users } = mock.newTeam()
      expect((await api('member').patch('/me', { name: 'Søren Łukasiewicz' })).status).toBe(200)
      const res = await api().get('/team/members', { search: 'soren lukasiewicz' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(singlePage([memberJson({ ...users.member, name: 'Søren Łukasiewicz' }, 'member')]))
    })

    it('searches a seeded team', async () => {
      const mock = createTestMock()
      const res = await mock.api('ivs_acme_owner').get('/team/members', { search: 'OLIV benn' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(singlePage([memberJson(seededUser(mock, 'olivia.bennett@acme-recruitment.example'), 'owner')]))
    })

    it('pages the results and keeps the search in the links', async () => {
      const { api, members } = await namedTeam()
      const first = await api().get('/team/members', { search: 'zoe', limit: 1 })
      expect(first.status).toBe(200)
      expect(first.body).toEqual({
        object: 'paginated_list',
        data: [members.owner],
        total: 2,
        count: 1,
        limit: 1,
        current_page: 1,
        total_pages: 2,
        links: { next: 'http://localhost/api/v2/team/members?search=zoe&limit=1&page=2', previous: null },
      })
      const second = await api().get('/team/members', { search: 'zoe', limit: 1, page: 2 })
      expect(second.body).toEqual({
        object: 'paginated_list',
        data: [members['read-only']],
        total: 2,
        count: 1,
        limit: 1,
        current_page: 2,
        total_pages: 2,
        links: { next: null, previous: 'http://localhost/api/v2/team/members?search=zoe&limit=1&page=1' },
      })
    })
  })

  describe('paging', () => {
    it('splits a seeded team into pages with links', async () => {
      const mock = createTestMock()
      const all = seededMembers(mock, 'acme')
      expect(all).toHaveLength(10)
      const api = mock.api('ivs_acme_owner')
      const page1 = await api.get('/team/members', { limit: 4 })
      expect(page1.body).toEqual({
        object: 'paginated_list',
        data: all.slice(0, 4),
        total: 10,
        count: 4,
        limit: 4,
        current_page: 1,
        total_pages: 3,
        links: { next: 'http://localhost/api/v2/team/members?limit=4&page=2', previous: null },
      })
      const page2 = await api.get('/team/members', { limit: 4, page: 2 })
      expect(page2.body).toEqual({
        object: 'paginated_list',
        data: all.slice(4, 8),
        total: 10,
        count: 4,
        limit: 4,
        current_page: 2,
        total_pages: 3,
        links: {
          next: 'http://localhost/api/v2/team/members?limit=4&page=3',
          previous: 'http://localhost/api/v2/team/members?limit=4&page=1',
        },
      })
      const page3 = await api.get('/team/members', { limit: 4, page: 3 })
      expect(page3.body).toEqual({
        object: 'paginated_list',
        data: all.slice(8),
        total: 10,
        count: 2,
        limit: 4,
        current_page: 3,
        total_pages: 3,
        links: { next: null, previous: 'http://localhost/api/v2/team/members?limit=4&page=2' },
      })
    })

    it('answers an empty page past the end', async () => {
      const mock = createTestMock()
      const res = await mock.newTeam().api().get('/team/members', { limit: 2, page: 5 })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ object: 'paginated_list', data: [], total: 5, count: 0, limit: 2, current_page: 5, total_pages: 3 })
    })

    it.each([
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
      [{ limit: 0 }, { limit: ['The limit field must be at least 1.'] }],
      [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
      [{ limit: 'ten' }, { limit: ['The limit field must be an integer.'] }],
    ])('refuses %j', async (query, errors) => {
      const res = await createTestMock().api().get('/team/members', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    })
  })
})

describe('GET /teams/{teamId}/members', () => {
  it('lists the members of the token\'s own team', async () => {
    const mock = createTestMock()
    const { api, team, users } = mock.newTeam()
    const res = await api('member').get(`/teams/${team.id}/members`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage(freshMembers(users)))
    const paged = await api().get(`/teams/${team.id}/members`, { limit: 2, page: 3 })
    expect(paged.body).toEqual({
      object: 'paginated_list',
      data: [memberJson(users.assumed, 'assumed')],
      total: 5,
      count: 1,
      limit: 2,
      current_page: 3,
      total_pages: 3,
      links: { next: null, previous: `http://localhost/api/v2/teams/${team.id}/members?limit=2&page=2` },
    })
  })

  it('forbids another team\'s id, existing or not', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const other = mock.newTeam()
    for (const id of [other.team.id, teamIdOf(mock, 'acme'), 999_999]) {
      const res = await api().get(`/teams/${id}/members`)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
  })
})

describe('GET /teams/{teamId}/members/{teamMemberId}', () => {
  it.each(ROLES)('answers the %s of the own team', async (role) => {
    const mock = createTestMock()
    const { api, team, users } = mock.newTeam()
    const res = await api('member').get(`/teams/${team.id}/members/${users[role].id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(memberJson(users[role], role))
  })

  it('answers 404 for an unknown member and for a user of another team', async () => {
    const mock = createTestMock()
    const { api, team } = mock.newTeam()
    const other = mock.newTeam()
    for (const memberId of [999_999, other.users.owner.id, seededUser(mock, 'olivia.bennett@acme-recruitment.example').id]) {
      const res = await api().get(`/teams/${team.id}/members/${memberId}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Team member not found' })
    }
  })

  it('forbids another team\'s id, even naming one of its members', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const other = mock.newTeam()
    const res = await api().get(`/teams/${other.team.id}/members/${other.users.owner.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
  })
})

describe('a user in two teams (ivs_shared_acme, ivs_shared_globex)', () => {
  it('is the same user with either token', async () => {
    const mock = createTestMock()
    const acme = await mock.api('ivs_shared_acme').get('/me')
    const globex = await mock.api('ivs_shared_globex').get('/me')
    expect(acme.body).toEqual(globex.body)
    expect(acme.body).toMatchObject({ name: 'Sam Carter', email: 'sam.carter@consultants.example' })
  })

  it('sees the team of the token it uses', async () => {
    const mock = createTestMock()
    const acme = await mock.api('ivs_shared_acme').get('/team')
    const globex = await mock.api('ivs_shared_globex').get('/team')
    expect(acme.body).toEqual((await mock.api('ivs_acme_owner').get('/team')).body)
    expect(globex.body).toEqual((await mock.api('ivs_globex_owner').get('/team')).body)
    expect(acme.body.identifier).toBe('acme-recruitment')
    expect(globex.body.identifier).toBe('globex-legal')
  })

  it('has the role of the token\'s team on /team/me', async () => {
    const mock = createTestMock()
    const sam = seededUser(mock, 'sam.carter@consultants.example')
    expect((await mock.api('ivs_shared_acme').get('/team/me')).body).toEqual(memberJson(sam, 'owner'))
    expect((await mock.api('ivs_shared_globex').get('/team/me')).body).toEqual(memberJson(sam, 'member'))
  })

  it('lists the members of the token\'s team', async () => {
    const mock = createTestMock()
    expect((await mock.api('ivs_shared_acme').get('/team/members')).body).toEqual(singlePage(seededMembers(mock, 'acme')))
    expect((await mock.api('ivs_shared_globex').get('/team/members')).body).toEqual(singlePage(seededMembers(mock, 'globex')))
  })

  it('may only name the token\'s team in /teams/{teamId}', async () => {
    const mock = createTestMock()
    const sam = seededUser(mock, 'sam.carter@consultants.example')
    const acmeId = teamIdOf(mock, 'acme')
    const globexId = teamIdOf(mock, 'globex')
    const viaGlobex = mock.api('ivs_shared_globex')
    const ownTeam = await viaGlobex.get(`/teams/${globexId}/members/${sam.id}`)
    expect(ownTeam.status).toBe(200)
    expect(ownTeam.body).toEqual(memberJson(sam, 'member'))
    for (const path of [`/teams/${acmeId}/members`, `/teams/${acmeId}/members/${sam.id}`]) {
      const res = await viaGlobex.get(path)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    }
    const viaAcme = await mock.api('ivs_shared_acme').get(`/teams/${acmeId}/members/${sam.id}`)
    expect(viaAcme.body).toEqual(memberJson(sam, 'owner'))
  })

  it('may update the team where it is an owner, not where it is a member', async () => {
    const mock = createTestMock()
    const owner = await mock.api('ivs_shared_acme').patch('/team', { telephone: '+44 20 7946 0100' })
    expect(owner.status).toBe(200)
    expect(owner.body).toMatchObject({ identifier: 'acme-recruitment', telephone: '+44 20 7946 0100' })
    const member = await mock.api('ivs_shared_globex').patch('/team', { telephone: '+44 20 7946 0100' })
    expect(member.status).toBe(403)
    expect(member.body).toEqual({ message: 'This action is unauthorized.' })
    expect((await mock.api('ivs_globex_owner').get('/team')).body.telephone).toBeNull()
  })
})
