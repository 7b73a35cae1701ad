// Helpers for the OAuth 2.0 flow (src/oauth/): a contract-checking client of the endpoints at the
// service root, form-encoded token requests, and a grant through the control API (no browser).
import { expect } from 'vitest'
import { ApiClient, type ApiResponse } from './api.ts'
import { fixture } from './contracts.ts'
import type { TestMock } from './mock.ts'

/** The fixture's first API client (docs/oauth.md "OAuth 2.0"). */
export const ATS = fixture.oauth_clients[0] as (typeof fixture.oauth_clients)[number]
export const ATS_REDIRECT = ATS.redirect_uris[0] as string
/** The fixture's second API client. */
export const PAYROLL = fixture.oauth_clients[1] as (typeof fixture.oauth_clients)[number]

/** A client of the endpoints at the service root (/oauth/...), contract-checked like the others. */
export function oauthEndpoints(mock: TestMock): ApiClient {
  return new ApiClient(mock.app, undefined, '')
}

export function postForm(mock: TestMock, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return oauthEndpoints(mock).request('POST', path, {
    raw: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  })
}

/** POST /oauth/token, form-encoded. */
export function tokenRequest(mock: TestMock, form: Record<string, string>, headers?: Record<string, string>): Promise<ApiResponse> {
  return postForm(mock, '/oauth/token', form, headers)
}

/** A code granted by the user and team of a personal token, through POST /_mock/oauth/authorize. */
export async function grantedCode(mock: TestMock, token: string, client = ATS, redirectUri = client.redirect_uris[0] as string): Promise<string> {
  const res = await mock.control.post('/oauth/authorize', { client_id: client.client_id, redirect_uri: redirectUri, token })
  expect(res.status, res.text).toBe(201)
  return res.body.code
}

export function redeem(mock: TestMock, code: string, client = ATS, redirectUri = client.redirect_uris[0] as string): Promise<ApiResponse> {
  return tokenRequest(mock, { grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: redirectUri })
}

export function refresh(mock: TestMock, refreshToken: string, client = ATS): Promise<ApiResponse> {
  return tokenRequest(mock, {
    grant_type: 'refresh_token',
    client_id: client.client_id,
    client_secret: client.client_secret,
    refresh_token: refreshToken,
    redirect_uri: client.redirect_uris[0] as string,
  })
}

/** Access and refresh tokens granted by the user and team of a personal token. */
export async function oauthTokens(mock: TestMock, token: string, client = ATS): Promise<{ access_token: string; refresh_token: string }> {
  const res = await redeem(mock, await grantedCode(mock, token, client), client)
  expect(res.status, res.text).toBe(200)
  return res.body
}

const INVALID_REQUEST =
  'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.'
const INVALID_GRANT =
  'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.'

/** The league server's error bodies, word for word (docs/specification-notes.md "OAuth 2.0"). */
export const OAUTH_ERRORS = {
  invalidRequest: (parameter: string, hint = `Check the \`${parameter}\` parameter`) => ({ error: 'invalid_request', error_description: INVALID_REQUEST, hint, message: INVALID_REQUEST }),
  invalidClient: { error: 'invalid_client', error_description: 'Client authentication failed', message: 'Client authentication failed' },
  invalidGrant: (hint: string) => ({ error: 'invalid_grant', error_description: INVALID_GRANT, hint, message: INVALID_GRANT }),
  invalidRefreshToken: (hint: string) => ({ error: 'invalid_grant', error_description: 'The refresh token is invalid.', hint, message: 'The refresh token is invalid.' }),
  unsupportedGrantType: {
    error: 'unsupported_grant_type',
    error_description: 'The authorization grant type is not supported by the authorization server.',
    hint: 'Check that all required parameters have been provided',
    message: 'The authorization grant type is not supported by the authorization server.',
  },
}
