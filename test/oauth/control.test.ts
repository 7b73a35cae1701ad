// The control API's OAuth operations: registering API clients, granting and revoking without a
// browser, and their 422s.
import { describe, expect, it } from 'vitest'
import { fixture } from '../support/contracts.ts'
import { createTestMock, NOW } from '../support/mock.ts'
import { ATS, ATS_REDIRECT, oauthTokens, OAUTH_ERRORS, PAYROLL, redeem } from '../support/oauth.ts'

describe('POST /_mock/oauth/clients', () => {
  it('registers a client with a generated id and secret, listed by GET /_mock/oauth/clients and usable in the flow', async () => {
    const mock = createTestMock()
    const created = await mock.control.post('/oauth/clients', { name: '  Laravel ATS  ', redirect_uris: ['https://ats.example/oauth/callback'] })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      object: 'mock_oauth_client',
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_secret: expect.stringMatching(/^[0-9a-f]{40}$/),
      name: 'Laravel ATS',
      redirect_uris: ['https://ats.example/oauth/callback'],
      created_at: NOW,
    })
    const listed = await mock.control.get('/oauth/clients')
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((client: { client_id: string }) => client.client_id)).toEqual([...fixture.oauth_clients.map((client) => client.client_id), created.body.client_id])
    expect(listed.body.data[0]).toEqual({ object: 'mock_oauth_client', ...ATS, created_at: fixture.epoch })

    const client = { name: 'Laravel ATS', client_id: created.body.client_id, client_secret: created.body.client_secret, redirect_uris: created.body.redirect_uris }
    const { access_token } = await oauthTokens(mock, mock.newTeam().tokens.owner, client)
    expect((await mock.api(access_token).get('/status')).status).toBe(204)
  })

  it.each([
    ['no name', { redirect_uris: ['https://a.example/cb'] }, { name: ['The name field is required.'] }],
    ['no redirect URL', { name: 'X', redirect_uris: [] }, { redirect_uris: ['The redirect uris field is required.'] }],
  ])('422 for %s', async (_, body, errors) => {
    const res = await createTestMock().control.post('/oauth/clients', body)
    expect([res.status, res.body]).toEqual([422, errors])
  })

  it('422 for a redirect URL that is not an absolute http(s) URL', async () => {
    const res = await createTestMock().control.post('/oauth/clients', { name: 'X', redirect_uris: ['ftp://a.example/cb'] })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body)).toEqual(['redirect_uris.0'])
  })
})

describe('POST /_mock/oauth/authorize', () => {
  const mock = createTestMock()
  const team = mock.newTeam()

  it.each([
    ['an unknown client', { client_id: 'nobody', redirect_uri: ATS_REDIRECT, token: team.tokens.owner }, { client_id: ['The selected client id is invalid.'] }],
    ['a redirect_uri of another client', { client_id: ATS.client_id, redirect_uri: PAYROLL.redirect_uris[0], token: team.tokens.owner }, { redirect_uri: ['The redirect uri is not one the client registered.'] }],
    ['a revoked personal token', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, token: 'ivs_revoked' }, { token: ['The token is not a valid personal access token.'] }],
    ['the token of a member who left', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, token: 'ivs_left' }, { token: ['The token is not a valid personal access token.'] }],
  ])('422 for %s', async (_, body, errors) => {
    const res = await mock.control.post('/oauth/authorize', body)
    expect([res.status, res.body]).toEqual([422, errors])
  })

  it('422 for an OAuth access token in place of a personal one', async () => {
    const { access_token } = await oauthTokens(mock, team.tokens.owner)
    const res = await mock.control.post('/oauth/authorize', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, token: access_token })
    expect([res.status, res.body]).toEqual([422, { token: ['The token is not a valid personal access token.'] }])
  })
})

describe('POST /_mock/oauth/revoke', () => {
  it("revokes only that user's grant to that client in that team, codes included", async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const owner = await oauthTokens(mock, team.tokens.owner)
    const ownerPayroll = await oauthTokens(mock, team.tokens.owner, PAYROLL)
    const member = await oauthTokens(mock, team.tokens.member)
    const code = await mock.control.post('/oauth/authorize', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, token: team.tokens.owner })
    const res = await mock.control.post('/oauth/revoke', { client_id: ATS.client_id, token: team.tokens.owner })
    expect(res.body).toMatchObject({ revoked_access_tokens: 1, revoked_refresh_tokens: 1, revoked_codes: 1 })
    expect((await mock.api(owner.access_token).get('/status')).status).toBe(401)
    expect((await mock.api(ownerPayroll.access_token).get('/status')).status).toBe(204)
    expect((await mock.api(member.access_token).get('/status')).status).toBe(204)
    const redeemed = await redeem(mock, code.body.code)
    expect([redeemed.status, redeemed.body]).toEqual([400, OAUTH_ERRORS.invalidGrant('Authorization code has been revoked')])
    // Nothing left to revoke the second time.
    const again = await mock.control.post('/oauth/revoke', { client_id: ATS.client_id, token: team.tokens.owner })
    expect(again.body).toMatchObject({ revoked_access_tokens: 0, revoked_refresh_tokens: 0, revoked_codes: 0 })
  })

  it('422 for an unknown client or token', async () => {
    const mock = createTestMock()
    const unknownClient = await mock.control.post('/oauth/revoke', { client_id: 'nobody', token: 'ivs_acme_owner' })
    expect([unknownClient.status, unknownClient.body]).toEqual([422, { client_id: ['The selected client id is invalid.'] }])
    const unknownToken = await mock.control.post('/oauth/revoke', { client_id: ATS.client_id, token: 'nope' })
    expect([unknownToken.status, unknownToken.body]).toEqual([422, { token: ['The token is not a valid personal access token.'] }])
  })
})
