import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { createTestMock } from '../support/mock.ts'

const UNAUTHENTICATED = { error: 'Unauthenticated.' }
const DAY = 86_400_000
const YEAR = 365 * DAY

/** Implemented operations, one request each, that all need a token. */
const OPERATIONS: Array<[method: string, path: string, body?: unknown]> = [
  ['GET', '/status'],
  ['GET', '/me'],
  ['PATCH', '/me', { name: 'Nobody' }],
  ['GET', '/me/teams'],
  ['GET', '/team'],
  ['PATCH', '/team', { telephone: null }],
  ['GET', '/team/me'],
  ['GET', '/team/members'],
  ['GET', '/teams/1/members'],
  ['GET', '/teams/1/members/1'],
  ['GET', '/credits'],
  ['GET', '/clients'],
  ['POST', '/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }],
  ['GET', '/clients/1'],
]

describe('401 Unauthenticated', () => {
  it.each(OPERATIONS)('%s %s without an Authorization header', async (method, path, body) => {
    const res = await createTestMock().api().as(undefined).request(method, path, { body })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(UNAUTHENTICATED)
  })

  it.each([
    ['Basic', 'Basic aXZzX2FjbWVfb3duZXI6'],
    ['Token', 'Token ivs_acme_owner'],
    ['a bare token', 'ivs_acme_owner'],
    ['Bearer with no token', 'Bearer'],
    ['Bearer with a blank token', 'Bearer    '],
    ['Bearer with two tokens', 'Bearer ivs_acme_owner ivs_acme_member'],
    ['an empty header', ''],
  ])('for %s', async (_label, authorization) => {
    const res = await createTestMock().api().as(undefined).request('GET', '/team', { headers: { Authorization: authorization } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(UNAUTHENTICATED)
  })

  it.each([
    ['an unknown token', 'ivs_nobody'],
    ['a token in the wrong case', 'IVS_ACME_OWNER'],
    ['a revoked token', 'ivs_revoked'],
    ['an expired token', 'ivs_expired'],
  ])('for %s', async (_label, token) => {
    const api = createTestMock().api(token)
    for (const path of ['/status', '/me', '/team']) {
      const res = await api.get(path)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })

  it('keeps accepting the other tokens of the users of ivs_revoked and ivs_expired', async () => {
    const mock = createTestMock()
    expect((await mock.api('ivs_acme_member').get('/status')).status).toBe(204)
    expect((await mock.api('ivs_globex_member').get('/status')).status).toBe(204)
  })

  it.each(['access_token', 'token', 'api_token', 'Authorization'])('never takes a token from the query string (%s)', async (name) => {
    const api = createTestMock().api().as(undefined)
    for (const value of ['ivs_acme_owner', 'Bearer ivs_acme_owner']) {
      const res = await api.get('/team', { [name]: value })
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })

  it('never takes a token from the JSON body', async () => {
    const api = createTestMock().api().as(undefined)
    for (const body of [
      { access_token: 'ivs_acme_owner', telephone: null },
      { token: 'ivs_acme_owner', telephone: null },
      { Authorization: 'Bearer ivs_acme_owner', telephone: null },
    ]) {
      const res = await api.patch('/team', body)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
    const create = await api.post('/clients', {
      access_token: 'ivs_acme_owner',
      name: { first_name: 'Ada', last_name: 'Lovelace' },
      email: 'ada@example.com',
    })
    expect(create.status).toBe(401)
    expect(create.body).toEqual(UNAUTHENTICATED)
  })

  it('rejects a token whose user is disabled, and accepts it again once re-enabled', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const user = mock.store.user(users.member.id)
    if (!user) throw new Error('no member')
    mock.store.updateUser(user, { is_disabled: true })
    for (const path of ['/status', '/me', '/team']) {
      const res = await api('member').get(path)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
    expect((await api('owner').get('/status')).status).toBe(204)
    mock.store.updateUser(user, { is_disabled: false })
    expect((await api('member').get('/status')).status).toBe(204)
  })

  it('rejects every token of a disabled user that is in two teams', async () => {
    const mock = createTestMock()
    const sam = mock.store.userByEmail('sam.carter@consultants.example')
    if (!sam) throw new Error('no seeded Sam')
    mock.store.updateUser(sam, { is_disabled: true })
    for (const token of ['ivs_shared_acme', 'ivs_shared_globex']) {
      const res = await mock.api(token).get('/me')
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })

  it('rejects a token whose user has left the team (role null)', async () => {
    const mock = createTestMock()
    const { api, members, team } = mock.newTeam()
    team.updateMember(members.member, { role: null })
    const res = await api('member').get('/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual(UNAUTHENTICATED)
    expect((await api('owner').get('/me')).status).toBe(200)
  })

  it('rejects the seeded token of the member who left Acme', async () => {
    const res = await createTestMock().api('ivs_left').get('/status')
    expect(res.status).toBe(401)
    expect(res.body).toEqual(UNAUTHENTICATED)
  })

  it('expires a new token after a year on the mock clock', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    mock.clock.advance(YEAR - 1000)
    for (const role of ROLES) expect((await api(role).get('/status')).status).toBe(204)
    mock.clock.advance(DAY + 1000)
    for (const role of ROLES) {
      const res = await api(role).get('/team')
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })

  it('rejects a token whose expires_at was moved into the past', async () => {
    const mock = createTestMock()
    const { api, tokens } = mock.newTeam()
    const row = mock.store.data.tokens.find((token) => token.token === tokens.owner)
    if (!row) throw new Error('no token row')
    mock.clock.set(new Date(row.expires_at as string))
    const res = await api('owner').get('/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual(UNAUTHENTICATED)
  })

  it('answers 401 before looking for the resource or validating the request', async () => {
    const api = createTestMock().api().as(undefined)
    const cases = [
      await api.get('/clients/999999'),
      await api.get('/teams/999999/members'),
      await api.get('/credits', { limit: 0, expand: 'bogus' }),
      await api.patch('/team', {}),
      await api.patch('/team', { contact: 'not-an-email' }),
      await api.request('PATCH', '/team', { raw: '{"contact":', headers: { 'Content-Type': 'application/json' } }),
    ]
    for (const res of cases) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })
})

describe('Bearer tokens', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accept the scheme written %s', async (scheme) => {
    const res = await createTestMock().api().as(undefined).request('GET', '/me', { headers: { Authorization: `${scheme} ivs_acme_owner` } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Olivia Bennett' })
  })

  it('are scoped to exactly one team: the same user with two tokens sees two teams', async () => {
    const mock = createTestMock()
    const viaAcme = mock.api('ivs_shared_acme')
    const viaGlobex = mock.api('ivs_shared_globex')
    const [meAcme, meGlobex] = [await viaAcme.get('/me'), await viaGlobex.get('/me')]
    expect(meAcme.body.id).toBe(meGlobex.body.id)
    const [teamAcme, teamGlobex] = [await viaAcme.get('/team'), await viaGlobex.get('/team')]
    expect(teamAcme.status).toBe(200)
    expect(teamGlobex.status).toBe(200)
    expect(teamAcme.body.id).not.toBe(teamGlobex.body.id)
    expect(teamAcme.body.name).toBe('Acme Recruitment')
    expect(teamGlobex.body.name).toBe('Globex Legal LLP')
    // What a token may do follows its own team's role.
    expect((await viaAcme.get('/credits')).status).toBe(200)
    expect((await viaGlobex.get('/credits')).status).toBe(403)
  })

  it('name the token\'s user in GET /me', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    for (const role of ROLES) expect((await api(role).get('/me')).body.id).toBe(users[role].id)
  })
})
