// The OAuth endpoints as a contract surface (contracts/oauth/, base: the service root): the harness's
// Conformance finds their operations by full path and judges form-encoded requests and their answers.
import { describe, expect, it } from 'vitest'
import { Conformance } from '../../src/harness/conformance.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'
import { ATS, ATS_REDIRECT, grantedCode, redeem } from '../support/oauth.ts'

const conformance = new Conformance(contracts)

describe('the oauth surface', () => {
  it('matches /oauth/... at the service root, and leaves /api/v2 and /_mock paths to their surfaces', () => {
    expect(conformance.matchFullPath('POST', '/oauth/token')).toMatchObject({ surface: 'oauth', op: { id: 'oauth.token' } })
    expect(conformance.matchFullPath('GET', '/oauth/authorize')).toMatchObject({ surface: 'oauth', op: { id: 'oauth.authorize' } })
    expect(conformance.matchFullPath('POST', '/_mock/oauth/authorize')).toMatchObject({ surface: 'control', op: { id: 'control.oauth.authorize' } })
    expect(conformance.matchFullPath('GET', '/api/v2/oauth/token')).toBeUndefined()
    expect(conformance.matchFullPath('GET', '/oauth/token')).toBeUndefined()
  })

  it("has no Laravel 422 nor 401/429 of the API added to its operations, only the web server's 413 where a body is read", () => {
    expect(Object.keys(contracts.operation('oauth.token').responses)).toEqual(['200', '400', '401', '413'])
    expect(Object.keys(contracts.operation('oauth.authorize').responses)).toEqual(['200', '400', '401'])
  })

  it('judges a form-encoded token request: its fields against the form schema, its Content-Type', () => {
    const op = contracts.operation('oauth.token')
    const form = { grant_type: 'authorization_code', client_id: ATS.client_id, client_secret: ATS.client_secret, code: 'c', redirect_uri: ATS_REDIRECT }
    expect(conformance.checkRequest(op, { body: form, contentType: 'application/x-www-form-urlencoded' })).toEqual([])
    expect(conformance.checkRequest(op, { body: { ...form, grant_type: 'password' }, contentType: 'application/x-www-form-urlencoded' })).toEqual([
      { at: 'request body.grant_type', message: expect.stringContaining('must be equal to one of the allowed values') },
    ])
    expect(conformance.checkRequest(op, { body: form, contentType: 'application/json' })).toEqual([
      { at: 'request header Content-Type', message: 'oauth.token takes a form-encoded body, sent as application/json' },
    ])
  })

  it('finds nothing wrong with the mock\'s answers, and a wrong one breaks the contract', async () => {
    const mock = createTestMock()
    const res = await redeem(mock, await grantedCode(mock, mock.newTeam().tokens.owner))
    const op = contracts.operation('oauth.token')
    expect(conformance.checkResponse(op, res)).toEqual([])
    expect(conformance.checkResponse(op, { ...res, body: { ...res.body, expires_in: 3600 } })).toEqual([{ at: 'body.expires_in', message: expect.stringContaining('must be equal to constant') }])
  })
})
