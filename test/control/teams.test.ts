// The control API's fresh teams (contracts/control/teams.json): POST /_mock/teams makes an isolated
// team with a user and token of every role, DELETE /_mock/teams/{id} drops it. No token, no rate
// limit, and nothing else in the world changes.
import { describe, expect, it } from 'vitest'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import type { ApiClient } from '../support/api.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'

const UNAUTHENTICATED = { error: 'Unauthenticated.' }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SEEDED_TOKENS = ['ivs_acme_owner', 'ivs_globex_owner', 'ivs_initech_owner'] as const

/** Makes a team through the control API; answers the 201 body. */
async function makeTeam(mock: TestMock, body: unknown = {}): Promise<any> {
  const res = await mock.control.post('/teams', body)
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** Every id of a paged list, read 100 a page. */
async function allIds(api: ApiClient, path: string): Promise<number[]> {
  const ids: number[] = []
  for (let page = 1; ; page++) {
    const res = await api.get(path, { limit: 100, page })
    expect(res.status, `${path} ${res.text}`).toBe(200)
    ids.push(...res.body.data.map((row: { id: number }) => row.id))
    if (page >= res.body.total_pages) return ids
  }
}

/** What each seeded team's owner sees of its team, and the seeded teams' whole state. */
async function seededView(mock: TestMock) {
  const view: Record<string, unknown> = {}
  for (const token of SEEDED_TOKENS) {
    const api = mock.api(token)
    for (const path of ['/team', '/team/members?limit=100', '/clients?limit=100', '/organisations?limit=100', '/credits?limit=100']) {
      const [pathname, search] = path.split('?')
      const res = await api.get(pathname as string, search ? Object.fromEntries(new URLSearchParams(search)) : undefined)
      expect(res.status).toBe(200)
      view[`${token} ${path}`] = res.body
    }
  }
  return { view, teams: structuredClone(mock.store.data.teams.slice(0, 3)) }
}

describe('POST /_mock/teams', () => {
  it('makes an empty team with cases on from {}, without a token, and answers 201 with the team, a token and a user per role', async () => {
    const mock = createTestMock()
    const res = await mock.control.post('/teams', {})
    expect(res.status).toBe(201)
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
    expect(res.headers.get('X-RateLimit-Remaining')).toBeNull()
    const { team, tokens, users } = res.body
    const id = team.id
    expect(id).toBeGreaterThan(3)
    expect(res.body).toEqual({
      object: 'mock_team',
      team: {
        object: 'team',
        id,
        identifier: `team-${id}`,
        uuid: expect.stringMatching(UUID),
        name: expect.stringMatching(new RegExp(`^.+ \\(test team ${id}\\)$`)),
        contact: `contact@team-${id}.example`,
        telephone: null,
        tier: 'business',
        logo: null,
        is_support_enabled: false,
        created_at: NOW,
        updated_at: NOW,
        archived_at: null,
      },
      cases: true,
      tokens: Object.fromEntries(ROLES.map((role) => [role, expect.any(String)])),
      users: Object.fromEntries(
        ROLES.map((role) => [role, { object: 'team_member', id: users[role].id, name: expect.any(String), email: `${role}@team-${id}.example`, role }]),
      ),
    })
    expect(new Set(Object.values(tokens)).size).toBe(ROLES.length)
    expect(new Set(ROLES.map((role) => users[role].id)).size).toBe(ROLES.length)
    expect(mock.store.team(id)?.row.cases_enabled).toBe(true)
  })

  it('answers the team exactly as GET /team shows it to the owner, and each user as GET /team/me shows them', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    const team = await mock.api(made.tokens.owner).get('/team')
    expect(team.status).toBe(200)
    expect(made.team).toEqual(team.body)
    for (const role of ROLES) {
      const api = mock.api(made.tokens[role])
      const me = await api.get('/team/me')
      expect(me.status, role).toBe(200)
      expect(me.body).toEqual(made.users[role])
      expect(me.body.role).toBe(role)
      expect((await api.get('/team')).body).toEqual(made.team)
      const user = await api.get('/me')
      expect(user.body).toEqual({
        object: 'user',
        id: made.users[role].id,
        name: made.users[role].name,
        email: made.users[role].email,
        is_verified: true,
        is_disabled: false,
        created_at: NOW,
        updated_at: NOW,
      })
    }
    const members = await mock.api(made.tokens.member).get('/team/members')
    expect(members.body.data).toEqual(ROLES.map((role) => made.users[role]))
  })

  it('makes an empty team with cases on when there is no body at all', async () => {
    const mock = createTestMock()
    const res = await mock.control.request('POST', '/teams')
    expect(res.status).toBe(201)
    expect(res.body.cases).toBe(true)
    expect(mock.store.team(res.body.team.id)?.row.cases_enabled).toBe(true)
  })

  it.each([
    [{ cases: false }, false],
    [{ cases: true }, true],
  ])('makes a team from %j with cases %s', async (body, cases) => {
    const mock = createTestMock()
    const made = await makeTeam(mock, body)
    expect(made.cases).toBe(cases)
    expect(mock.store.team(made.team.id)?.row.cases_enabled).toBe(cases)
  })

  it('turns on the custom declaration feature and generates records in every state, with the record templates every team has', async () => {
    const mock = createTestMock()
    const res = await mock.control.post('/teams', { declaration: true, generate: { clients: 10, records: 12 } })
    expect(res.status, res.text).toBe(201)
    const team = mock.store.team(res.body.team.id)
    expect(team?.row.declaration_enabled).toBe(true)
    expect(team?.records.size).toBe(12)
    expect(team?.recordTemplates.size).toBe(3)
    const api = mock.api(res.body.tokens.owner)
    const records = await api.get('/records', { limit: 100 })
    expect(records.body.total).toBe(12)
    const created = await api.post('/records', { client: records.body.data[0].client, steps: [{ type: 'check.identity' }], notification: false, is_declaration_required: true })
    expect(created.status, created.text).toBe(201)
    expect(created.body.is_declaration_required).toBe(true)
    expect((await mock.control.post('/teams', {})).body.team.id).not.toBe(res.body.team.id)
    expect(mock.store.team((await mock.control.post('/teams', {})).body.team.id)?.row.declaration_enabled).toBe(false)
  })

  it('names the team as asked', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock, { name: 'Wayne Enterprises' })
    expect(made.team.name).toBe('Wayne Enterprises')
    expect((await mock.api(made.tokens.owner).get('/team')).body.name).toBe('Wayne Enterprises')
  })

  it('ignores any Authorization header', async () => {
    const mock = createTestMock()
    for (const token of ['ivs_acme_owner', 'not-a-token']) {
      const res = await mock.control.as(token).post('/teams', {})
      expect(res.status).toBe(201)
      expect(res.body.object).toBe('mock_team')
      expect(res.body.cases).toBe(true)
      expect((await mock.api(res.body.tokens.owner).get('/team')).body).toEqual(res.body.team)
    }
  })

  it('gives a new team no clients, no organisations, only its five members and one opening credit purchase', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    const owner = mock.api(made.tokens.owner)
    const empty = { object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null }
    expect((await owner.get('/clients')).body).toEqual(empty)
    expect((await owner.get('/organisations')).body).toEqual(empty)
    expect((await owner.get('/team/members')).body.total).toBe(5)
    const credits = await owner.get('/credits')
    expect(credits.body).toEqual({
      ...empty,
      data: [{ object: 'credit_history', id: expect.any(Number), credits: 500, reason: 'Initial credit purchase', created_at: NOW, causer: { id: made.users.owner.id, type: 'user' } }],
      total: 1,
      count: 1,
    })
  })

  it('generates as many clients, organisations, members and credit entries as asked', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock, { generate: { clients: 130, organisations: 7, members: 6, credit_entries: 4 } })
    const owner = mock.api(made.tokens.owner)
    expect((await allIds(owner, '/clients')).length).toBe(130)
    expect((await allIds(owner, '/organisations')).length).toBe(7)
    const members = await owner.get('/team/members', { limit: 100 })
    expect(members.body.total).toBe(11)
    const generated = members.body.data.filter((member: { id: number }) => !ROLES.some((role) => made.users[role].id === member.id))
    expect(generated).toHaveLength(6)
    for (const member of generated) expect(member.role).toBe('member')
    expect((await owner.get('/credits', { limit: 100 })).body.total).toBe(4)
  })

  it('generates only what is asked, the rest as for an empty team', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock, { generate: { organisations: 2 } })
    const owner = mock.api(made.tokens.owner)
    expect((await owner.get('/clients')).body.total).toBe(0)
    expect((await owner.get('/organisations')).body.total).toBe(2)
    expect((await owner.get('/team/members')).body.total).toBe(5)
    expect((await owner.get('/credits')).body.total).toBe(1)
  })

  describe('validation', () => {
    it.each([
      ['a blank name', { name: '   ' }, { name: ['The name field is required.'] }],
      ['an empty name', { name: '' }, { name: ['The name field is required.'] }],
      ['a name over 255 characters', { name: 'n'.repeat(256) }, { name: ['The name field must not be greater than 255 characters.'] }],
      ['a name that is not a string', { name: 42 }, { name: ['The name field must be a string.'] }],
      ['cases that is not a boolean', { cases: 'yes' }, { cases: ['The cases field must be true or false.'] }],
      ['generate that is not an object', { generate: 5 }, { generate: ['The generate field must be an object.'] }],
      ['generate.clients over 100000', { generate: { clients: 100_001 } }, { 'generate.clients': ['The clients field must not be greater than 100000.'] }],
      ['generate.members over 100', { generate: { members: 101 } }, { 'generate.members': ['The members field must not be greater than 100.'] }],
      ['generate.organisations over 1000', { generate: { organisations: 1001 } }, { 'generate.organisations': ['The organisations field must not be greater than 1000.'] }],
      ['generate.credit_entries of 0', { generate: { credit_entries: 0 } }, { 'generate.credit_entries': ['The credit entries field must be at least 1.'] }],
      ['a negative count', { generate: { clients: -1 } }, { 'generate.clients': ['The clients field must be at least 0.'] }],
      ['a count that is not an integer', { generate: { members: 1.5 } }, { 'generate.members': ['The members field must be an integer.'] }],
      ['an unknown generate key', { generate: { tickets: 3 } }, { 'generate.tickets': ['The tickets field is not allowed.'] }],
      [
        'several mistakes at once',
        { name: ' ', cases: 2, generate: { clients: 100_001, bogus: 1 } },
        {
          name: ['The name field is required.'],
          cases: ['The cases field must be true or false.'],
          'generate.bogus': ['The bogus field is not allowed.'],
          'generate.clients': ['The clients field must not be greater than 100000.'],
        },
      ],
      ['a body that is an array', [], { errors: ['The request body must be a JSON object.'] }],
      ['a body that is a string', 'team', { errors: ['The request body must be a JSON object.'] }],
    ])('answers 422 for %s and makes nothing', async (_, body, errors) => {
      const mock = createTestMock()
      const before = structuredClone(mock.store.data)
      const res = await mock.control.post('/teams', body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
      expect(mock.store.data).toEqual(before)
    })

    it('accepts the largest counts of members, organisations and credit entries', async () => {
      const mock = createTestMock()
      const made = await makeTeam(mock, { generate: { members: 100, organisations: 1000, credit_entries: 1000 } })
      const owner = mock.api(made.tokens.owner)
      expect((await owner.get('/team/members')).body.total).toBe(105)
      expect((await owner.get('/organisations')).body.total).toBe(1000)
      expect((await owner.get('/credits')).body.total).toBe(1000)
    })
  })

  describe('isolation', () => {
    it('two teams made this way never see each other\u2019s clients, organisations, members or credits', async () => {
      const mock = createTestMock()
      const generate = { clients: 4, organisations: 3, members: 2, credit_entries: 3 }
      const [a, b] = [await makeTeam(mock, { generate }), await makeTeam(mock, { generate })]
      expect(a.team.id).not.toBe(b.team.id)
      const seen = async (made: any) => {
        const api = mock.api(made.tokens.owner)
        return {
          clients: await allIds(api, '/clients'),
          organisations: await allIds(api, '/organisations'),
          members: await allIds(api, '/team/members'),
          credits: await allIds(api, '/credits'),
        }
      }
      const [ofA, ofB] = [await seen(a), await seen(b)]
      expect([ofA.clients.length, ofA.organisations.length, ofA.members.length, ofA.credits.length]).toEqual([4, 3, 7, 3])
      expect([ofB.clients.length, ofB.organisations.length, ofB.members.length, ofB.credits.length]).toEqual([4, 3, 7, 3])
      for (const kind of ['clients', 'organisations', 'members', 'credits'] as const) {
        expect(ofA[kind].filter((id) => ofB[kind].includes(id)), kind).toEqual([])
      }
      for (const role of ROLES) {
        const api = mock.api(b.tokens[role])
        const client = await api.get(`/clients/${ofA.clients[0] as number}`)
        expect(client.status, role).toBe(404)
        expect(client.body).toEqual({ error: 'Client not found' })
        const organisation = await api.get(`/organisations/${ofA.organisations[0] as number}`)
        expect(organisation.status, role).toBe(404)
        expect(organisation.body).toEqual({ error: 'Organisation not found' })
      }
      const foreignTeam = await mock.api(b.tokens.owner).get(`/teams/${a.team.id as number}/members`)
      expect(foreignTeam.status).toBe(403)
      expect(foreignTeam.body).toEqual({ message: 'This action is unauthorized.' })
      const foreignMember = await mock.api(b.tokens.owner).get(`/teams/${b.team.id as number}/members/${a.users.owner.id as number}`)
      expect(foreignMember.status).toBe(404)
      expect(foreignMember.body).toEqual({ error: 'Team member not found' })
    })

    it('changes nothing in the seeded teams', async () => {
      const mock = createTestMock()
      const before = await seededView(mock)
      const users = structuredClone(mock.store.data.users)
      const tokens = structuredClone(mock.store.data.tokens)
      await makeTeam(mock, { generate: { clients: 20, organisations: 5, members: 3, credit_entries: 5 } })
      await makeTeam(mock, { cases: false })
      expect(await seededView(mock)).toEqual(before)
      expect(mock.store.data.users.slice(0, users.length)).toEqual(users)
      expect(mock.store.data.tokens.slice(0, tokens.length)).toEqual(tokens)
    })
  })
})

describe('DELETE /_mock/teams/{id}', () => {
  it('drops the team: 204 with no body, its tokens answer 401 and its users are gone', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock, { generate: { clients: 3, members: 2 } })
    const id = made.team.id
    const memberIds = mock.store.team(id)?.members.map((member) => member.user) ?? []
    expect(memberIds).toHaveLength(7)
    const res = await mock.control.delete(`/teams/${id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
    for (const role of ROLES) {
      const gone = await mock.api(made.tokens[role]).get('/team')
      expect(gone.status, role).toBe(401)
      expect(gone.body).toEqual(UNAUTHENTICATED)
    }
    expect(mock.store.team(id)).toBeUndefined()
    for (const user of memberIds) expect(mock.store.user(user)).toBeUndefined()
    expect(mock.store.data.users.filter((user) => memberIds.includes(user.id))).toEqual([])
    expect(mock.store.data.tokens.filter((token) => token.team === id)).toEqual([])
  })

  it('leaves the seeded teams and other made teams untouched', async () => {
    const mock = createTestMock()
    const kept = await makeTeam(mock, { generate: { clients: 2 } })
    const keptView = (await mock.api(kept.tokens.owner).get('/clients')).body
    const before = await seededView(mock)
    const dropped = await makeTeam(mock, { generate: { clients: 5, organisations: 2, members: 1 } })
    expect((await mock.control.delete(`/teams/${dropped.team.id as number}`)).status).toBe(204)
    expect(await seededView(mock)).toEqual(before)
    expect((await mock.api(kept.tokens.owner).get('/clients')).body).toEqual(keptView)
    for (const role of ROLES) expect((await mock.api(kept.tokens[role]).get('/status')).status).toBe(204)
  })

  it('forgets what the mock kept of the team beside its state: its journal and its faults', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    const id = made.team.id as number
    expect((await mock.control.post(`/teams/${id}/faults`, { operationId: 'clients.list', status: 429, times: null })).status).toBe(201)
    expect((await mock.api(made.tokens.owner).get('/clients')).status).toBe(429)
    expect((await mock.control.get(`/journal?team=${id}`)).body.total).toBe(1)
    expect((await mock.control.delete(`/teams/${id}`)).status).toBe(204)
    const journal = await mock.control.get(`/journal?team=${id}`)
    expect(journal.status).toBe(200)
    expect(journal.body.total).toBe(0)
  })

  it('answers 404 Team not found for an unknown id and for a team dropped already', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    expect((await mock.control.delete(`/teams/${made.team.id as number}`)).status).toBe(204)
    for (const id of [987_654_321, made.team.id]) {
      const res = await mock.control.delete(`/teams/${id}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Team not found' })
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull()
    }
  })

  it('answers 404 Not Found. for a non-numeric id', async () => {
    const mock = createTestMock()
    const res = await mock.control.delete('/teams/abc')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Not Found.' })
  })

  it('needs no token', async () => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    expect(mock.control.token).toBeUndefined()
    const res = await mock.control.delete(`/teams/${made.team.id as number}`)
    expect(res.status).toBe(204)
  })
})

describe('tokens by role of a made team', () => {
  it.each(ROLES.map((role) => [role] as const))('the %s token acts with its role', async (role: Role) => {
    const mock = createTestMock()
    const made = await makeTeam(mock)
    const api = mock.api(made.tokens[role])
    const owns = role === 'owner' || role === 'assumed'
    const credits = await api.get('/credits')
    expect(credits.status).toBe(owns ? 200 : 403)
    if (owns) expect(credits.body).toEqual((await mock.api(made.tokens.owner).get('/credits')).body)
    else expect(credits.body).toEqual({ message: 'This action is unauthorized.' })
    const create = await api.post('/clients', { name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' })
    if (role === 'read-only') {
      expect(create.status).toBe(403)
      expect(create.body).toEqual({ message: 'This action is unauthorized.' })
    } else {
      expect(create.status).toBe(201)
      expect((await api.get(`/clients/${create.body.id as number}`)).body).toEqual(create.body)
    }
  })
})

describe('progress of a team that takes long to make', () => {
  it("says how far it has got every 5 s after the first 2 s, clients then records, and when it is made", async () => {
    const lines: string[] = []
    // Each reading of the time is 2.5 s after the one before (it is read once in 256 rows).
    let elapsed = 0
    const mock = createTestMock({ app: { progress: { report: (line) => lines.push(line), elapsedMs: () => (elapsed += 2_500) } } })
    await makeTeam(mock, { name: 'Slow Ltd', generate: { clients: 1_024, records: 512 } })
    expect(lines).toEqual([
      'ivs-mock: making team "Slow Ltd": 256 of 1,024 clients (2.5 s)',
      'ivs-mock: making team "Slow Ltd": 768 of 1,024 clients (7.5 s)',
      'ivs-mock: making team "Slow Ltd": 256 of 512 records (12.5 s)',
      'ivs-mock: team "Slow Ltd" made in 17.5 s',
    ])
  })

  it('says nothing of a team made within 2 s', async () => {
    const lines: string[] = []
    const mock = createTestMock({ app: { progress: { report: (line) => lines.push(line) } } })
    await makeTeam(mock, { name: 'Quick Ltd', generate: { clients: 300, records: 20 } })
    expect(lines).toEqual([])
  })
})
