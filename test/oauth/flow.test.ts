// The OAuth 2.0 authorisation-code flow without a browser (docs/specification-notes.md "OAuth 2.0"): a grant through
// the control API, the token endpoint's two grants with their lifetimes, single use and rotation on
// the mock's clock, and access tokens on /api/v2 acting as the granting user's team and role.
import { importJWK, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createTestMock, NOW, TEST_NOW, at } from '../support/mock.ts'
import { ATS, ATS_REDIRECT, grantedCode, oauthTokens, OAUTH_ERRORS, PAYROLL, redeem, refresh, tokenRequest } from '../support/oauth.ts'

const UNAUTHENTICATED = { error: 'Unauthenticated.' }
const YEAR_SECONDS = 31_536_000
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

describe('the whole flow without a browser', () => {
  it('grants a code, exchanges it, calls the API, refreshes (the old pair stops working), and revocation answers 401', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const granted = await mock.control.post('/oauth/authorize', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, token: team.tokens.member, state: 'xyz 1' })
    expect(granted.status).toBe(201)
    expect(granted.body).toEqual({
      object: 'mock_oauth_authorization',
      code: expect.stringMatching(/^[0-9a-f]{80}$/),
      redirect: `${ATS_REDIRECT}?code=${granted.body.code as string}&state=xyz+1`,
      expires_at: at(10),
    })

    const first = await redeem(mock, granted.body.code)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ token_type: 'Bearer', expires_in: YEAR_SECONDS, access_token: expect.stringMatching(JWT), refresh_token: expect.stringMatching(/^[0-9a-f]{80}$/) })
    expect(first.headers.get('Cache-Control')).toBe('no-store')

    const personal = await team.api('member').get('/me')
    const viaOAuth = await mock.api(first.body.access_token).get('/me')
    expect(viaOAuth.status).toBe(200)
    expect(viaOAuth.body).toEqual(personal.body)
    expect((await mock.api(first.body.access_token).get('/team')).body).toEqual((await team.api('member').get('/team')).body)

    const second = await refresh(mock, first.body.refresh_token)
    expect(second.status).toBe(200)
    expect(second.body.access_token).not.toBe(first.body.access_token)
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token)
    const oldAccess = await mock.api(first.body.access_token).get('/me')
    expect([oldAccess.status, oldAccess.body]).toEqual([401, UNAUTHENTICATED])
    const oldRefresh = await refresh(mock, first.body.refresh_token)
    expect([oldRefresh.status, oldRefresh.body]).toEqual([400, OAUTH_ERRORS.invalidRefreshToken('Token has been revoked')])
    expect((await mock.api(second.body.access_token).get('/me')).body).toEqual(personal.body)

    const revoked = await mock.control.post('/oauth/revoke', { client_id: ATS.client_id, token: team.tokens.member })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({
      object: 'mock_oauth_revocation',
      client_id: ATS.client_id,
      user: team.users.member.id,
      team: team.team.id,
      revoked_access_tokens: 1,
      revoked_refresh_tokens: 1,
      revoked_codes: 0,
    })
    const afterRevoke = await mock.api(second.body.access_token).get('/status')
    expect([afterRevoke.status, afterRevoke.body]).toEqual([401, UNAUTHENTICATED])
    const refreshAfterRevoke = await refresh(mock, second.body.refresh_token)
    expect([refreshAfterRevoke.status, refreshAfterRevoke.body]).toEqual([400, OAUTH_ERRORS.invalidRefreshToken('Token has been revoked')])
    // The personal token is not the app's access: it still works.
    expect((await team.api('member').get('/status')).status).toBe(204)
  })

  it('signs the access token (HS256) with the key of GET /_mock/oauth/key, with Passport\'s claims and the team', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const { access_token } = await oauthTokens(mock, team.tokens.owner)
    const key = await mock.control.get('/oauth/key')
    expect(key.status).toBe(200)
    expect(key.body).toEqual({ object: 'mock_oauth_key', alg: 'HS256', issuer: 'ivs-mock', lifetime: YEAR_SECONDS, jwk: { kty: 'oct', kid: expect.any(String), alg: 'HS256', use: 'sig', k: expect.any(String) } })
    const seconds = TEST_NOW.getTime() / 1000
    const { payload, protectedHeader } = await jwtVerify(access_token, await importJWK(key.body.jwk), { issuer: 'ivs-mock', audience: ATS.client_id, currentDate: TEST_NOW })
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: key.body.jwk.kid })
    expect(payload).toEqual({
      scopes: [],
      team_id: team.team.id,
      iss: 'ivs-mock',
      aud: ATS.client_id,
      jti: expect.stringMatching(/^[0-9a-f]{80}$/),
      sub: String(team.users.owner.id),
      iat: seconds,
      nbf: seconds,
      exp: seconds + YEAR_SECONDS,
    })
  })

  it('takes a JSON body and HTTP Basic client credentials too', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const code = await grantedCode(mock, team.tokens.owner)
    const basic = `Basic ${Buffer.from(`${ATS.client_id}:${ATS.client_secret}`).toString('base64')}`
    const res = await tokenRequest(mock, { grant_type: 'authorization_code', code, redirect_uri: ATS_REDIRECT }, { Authorization: basic })
    expect(res.status, res.text).toBe(200)
    const json = await mock.app.request('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', client_id: ATS.client_id, client_secret: ATS.client_secret, refresh_token: res.body.refresh_token }),
    })
    expect(json.status).toBe(200)
    expect(await json.json()).toEqual({ token_type: 'Bearer', expires_in: YEAR_SECONDS, access_token: expect.stringMatching(JWT), refresh_token: expect.any(String) })
  })
})

describe('lifetimes on the mock clock', () => {
  it('a code is good for 10 minutes, then invalid_grant "Authorization code has expired"', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const early = await grantedCode(mock, team.tokens.owner)
    const late = await grantedCode(mock, team.tokens.owner)
    mock.clock.advance(599_000)
    expect((await redeem(mock, early)).status).toBe(200)
    mock.clock.advance(1000)
    const expired = await redeem(mock, late)
    expect([expired.status, expired.body]).toEqual([400, OAUTH_ERRORS.invalidGrant('Authorization code has expired')])
  })

  it('a code works once: the second exchange is invalid_grant "Authorization code has been revoked"', async () => {
    const mock = createTestMock()
    const code = await grantedCode(mock, mock.newTeam().tokens.owner)
    expect((await redeem(mock, code)).status).toBe(200)
    const again = await redeem(mock, code)
    expect([again.status, again.body]).toEqual([400, OAUTH_ERRORS.invalidGrant('Authorization code has been revoked')])
  })

  it('an access token answers 401 once a year of the mock clock has passed', async () => {
    const mock = createTestMock()
    const { access_token } = await oauthTokens(mock, mock.newTeam().tokens.owner)
    mock.clock.advance((YEAR_SECONDS - 1) * 1000)
    expect((await mock.api(access_token).get('/status')).status).toBe(204)
    mock.clock.advance(1000)
    const expired = await mock.api(access_token).get('/status')
    expect([expired.status, expired.body]).toEqual([401, UNAUTHENTICATED])
  })

  it('a refresh token expires after a year of the mock clock: invalid_grant "Token has expired"', async () => {
    const mock = createTestMock()
    const { refresh_token } = await oauthTokens(mock, mock.newTeam().tokens.owner)
    mock.clock.advance(YEAR_SECONDS * 1000)
    const res = await refresh(mock, refresh_token)
    expect([res.status, res.body]).toEqual([400, OAUTH_ERRORS.invalidRefreshToken('Token has expired')])
  })
})

describe('POST /oauth/token errors', () => {
  const mock = createTestMock()
  const team = mock.newTeam()
  const client = { client_id: ATS.client_id, client_secret: ATS.client_secret }

  it.each([
    ['no grant_type', {}],
    ['another grant_type', { grant_type: 'password', ...client }],
    ['client credentials', { grant_type: 'client_credentials', ...client }],
  ])('400 unsupported_grant_type: %s', async (_, form) => {
    const res = await tokenRequest(mock, form)
    expect([res.status, res.body]).toEqual([400, OAUTH_ERRORS.unsupportedGrantType])
  })

  it('400 unsupported_grant_type for a body that is neither form-encoded nor JSON', async () => {
    const res = await mock.app.request('/oauth/token', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'grant_type=authorization_code' })
    expect([res.status, await res.json()]).toEqual([400, OAUTH_ERRORS.unsupportedGrantType])
  })

  it.each([
    ['client_id missing', { client_secret: ATS.client_secret }, 400, OAUTH_ERRORS.invalidRequest('client_id')],
    ['a blank client_id', { client_id: '  ', client_secret: ATS.client_secret }, 400, OAUTH_ERRORS.invalidRequest('client_id')],
    ['an unknown client', { client_id: 'nobody', client_secret: ATS.client_secret }, 401, OAUTH_ERRORS.invalidClient],
    ['a wrong secret', { client_id: ATS.client_id, client_secret: PAYROLL.client_secret }, 401, OAUTH_ERRORS.invalidClient],
    ['no secret', { client_id: ATS.client_id }, 401, OAUTH_ERRORS.invalidClient],
    ['a redirect_uri the client did not register', { ...client, redirect_uri: 'http://127.0.0.1:9999/callback' }, 401, OAUTH_ERRORS.invalidClient],
  ])('authorization_code, %s', async (_, form, status, body) => {
    const res = await tokenRequest(mock, { grant_type: 'authorization_code', code: 'whatever', ...form })
    expect([res.status, res.body]).toEqual([status, body])
  })

  it('401 invalid_client with WWW-Authenticate naming the scheme when the client sent credentials in a header', async () => {
    const basic = await tokenRequest(mock, { grant_type: 'authorization_code', code: 'c' }, { Authorization: `Basic ${Buffer.from(`${ATS.client_id}:wrong`).toString('base64')}` })
    expect([basic.status, basic.body, basic.headers.get('WWW-Authenticate')]).toEqual([401, OAUTH_ERRORS.invalidClient, 'Basic realm="OAuth"'])
    const bearer = await tokenRequest(mock, { grant_type: 'authorization_code', code: 'c', client_id: 'nobody' }, { Authorization: 'Bearer ivs_acme_owner' })
    expect([bearer.status, bearer.headers.get('WWW-Authenticate')]).toEqual([401, 'Bearer realm="OAuth"'])
    const inBody = await tokenRequest(mock, { grant_type: 'authorization_code', code: 'c', client_id: 'nobody' })
    expect([inBody.status, inBody.headers.get('WWW-Authenticate')]).toEqual([401, null])
  })

  it('authorization_code without code: 400 invalid_request; with one never issued: invalid_request "Cannot decrypt the authorization code"', async () => {
    const missing = await tokenRequest(mock, { grant_type: 'authorization_code', ...client, redirect_uri: ATS_REDIRECT })
    expect([missing.status, missing.body]).toEqual([400, OAUTH_ERRORS.invalidRequest('code')])
    const unknown = await tokenRequest(mock, { grant_type: 'authorization_code', ...client, code: 'f00d', redirect_uri: ATS_REDIRECT })
    expect([unknown.status, unknown.body]).toEqual([400, OAUTH_ERRORS.invalidRequest('code', 'Cannot decrypt the authorization code')])
  })

  it('a code of another client: invalid_grant "Authorization code was not issued to this client"', async () => {
    const code = await grantedCode(mock, team.tokens.owner, PAYROLL)
    const res = await redeem(mock, code, ATS)
    expect([res.status, res.body]).toEqual([400, OAUTH_ERRORS.invalidGrant('Authorization code was not issued to this client')])
  })

  it('a code without redirect_uri: invalid_request; with another registered one: invalid_grant "Invalid redirect URI"', async () => {
    const code = await grantedCode(mock, team.tokens.owner)
    const missing = await tokenRequest(mock, { grant_type: 'authorization_code', ...client, code })
    expect([missing.status, missing.body]).toEqual([400, OAUTH_ERRORS.invalidRequest('redirect_uri')])
    const other = await redeem(mock, code, ATS, ATS.redirect_uris[1])
    expect([other.status, other.body]).toEqual([400, OAUTH_ERRORS.invalidGrant('Invalid redirect URI')])
    // Neither mistake used the code up.
    expect((await redeem(mock, code)).status).toBe(200)
  })

  it('refresh_token: missing, never issued, and of another client', async () => {
    const missing = await tokenRequest(mock, { grant_type: 'refresh_token', ...client })
    expect([missing.status, missing.body]).toEqual([400, OAUTH_ERRORS.invalidRequest('refresh_token')])
    const unknown = await refresh(mock, 'f00d')
    expect([unknown.status, unknown.body]).toEqual([400, OAUTH_ERRORS.invalidRefreshToken('Cannot decrypt the refresh token')])
    const { refresh_token } = await oauthTokens(mock, team.tokens.owner, PAYROLL)
    const foreign = await refresh(mock, refresh_token, ATS)
    expect([foreign.status, foreign.body]).toEqual([400, OAUTH_ERRORS.invalidRefreshToken('Token is not linked to client')])
  })
})

describe('OAuth access tokens on /api/v2', () => {
  it('share the rate limit of the user on the team with their personal tokens', async () => {
    const mock = createTestMock({ rateLimit: 3 })
    const team = mock.newTeam()
    const { access_token } = await oauthTokens(mock, team.tokens.member)
    const remaining = []
    for (const api of [team.api('member'), mock.api(access_token), team.api('member')]) remaining.push((await api.get('/status')).headers.get('X-RateLimit-Remaining'))
    expect(remaining).toEqual(['2', '1', '0'])
    const limited = await mock.api(access_token).get('/status')
    expect([limited.status, limited.body]).toEqual([429, { message: 'Too Many Attempts.' }])
    // Another member of the team has a limit of their own.
    expect((await team.api('owner').get('/status')).status).toBe(204)
  })

  it('act with the role the user has now: a read-only member gets 403 on a write, and 401 once they left the team', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const { access_token } = await oauthTokens(mock, team.tokens['read-only'])
    const write = await mock.api(access_token).post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
    expect([write.status, write.body]).toEqual([403, { message: 'This action is unauthorized.' }])
    const membership = team.team.membership(team.users['read-only'].id)
    if (!membership) throw new Error('the read-only user is a member')
    team.team.updateMember(membership, { role: null })
    const left = await mock.api(access_token).get('/me')
    expect([left.status, left.body]).toEqual([401, UNAUTHENTICATED])
  })

  it("answer 404 for another team's data", async () => {
    const mock = createTestMock()
    const mine = mock.newTeam()
    const other = mock.newTeam()
    const created = await other.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
    expect(created.status, created.text).toBe(201)
    const { access_token } = await oauthTokens(mock, mine.tokens.owner)
    const res = await mock.api(access_token).get(`/clients/${created.body.id as number}`)
    expect([res.status, res.body]).toEqual([404, { error: 'Client not found' }])
    expect((await other.api().get(`/clients/${created.body.id as number}`)).status).toBe(200)
  })

  it('of a dropped team answer 401, and the team leaves no codes or tokens behind', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const { access_token } = await oauthTokens(mock, team.tokens.owner)
    await grantedCode(mock, team.tokens.member)
    expect((await mock.control.delete(`/teams/${team.team.id}`)).status).toBe(204)
    expect((await mock.api(access_token).get('/status')).body).toEqual(UNAUTHENTICATED)
    const { codes, access_tokens, refresh_tokens } = mock.store.data.oauth
    expect([...codes, ...access_tokens, ...refresh_tokens].filter((row) => row.team === team.team.id)).toEqual([])
  })

  it('are created at the moment of the mock clock', async () => {
    const mock = createTestMock()
    await oauthTokens(mock, mock.newTeam().tokens.owner)
    expect(mock.store.data.oauth.access_tokens.map((row) => [row.created_at, row.expires_at])).toEqual([[NOW, '2027-07-01T12:00:00Z']])
  })
})
