// The authorisation-code flow (docs/specification-notes.md "OAuth 2.0"): checking an authorisation request, granting
// a code, and the token endpoint's two grants, in the PHP league server's order of checks. Every
// moment is the mock's clock.
import type { Services } from '../context.ts'
import type { Operations } from '../contracts/generated.ts'
import { toTimestamp, type Clock } from '../kernel/clock.ts'
import { invalidClient, invalidGrant, invalidRefreshToken, invalidRequest, unsupportedGrantType } from './errors.ts'
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_ISSUER, accessTokenKey } from './key.ts'
import type { OAuthClientRow, OAuthCodeRow } from './rows.ts'
import { oauthOf, type Grant } from './store.ts'

/** docs/specification-notes.md "OAuth 2.0": codes are valid for 10 minutes, access tokens for a year (expires_in). */
export const CODE_LIFETIME_SECONDS = 600
export const ACCESS_TOKEN_LIFETIME_SECONDS = 31_536_000
/** The service does not say: a year, like the access token (docs/behaviour-notes.md "Authentication and errors"). */
export const REFRESH_TOKEN_LIFETIME_SECONDS = 31_536_000

export type TokenAnswer = Operations['oauth.token']['success']

/** The parameters of an OAuth request, trimmed, a blank one left out (Laravel's TrimStrings and ConvertEmptyStringsToNull). */
export type OAuthParams = Partial<Record<string, string>>

const secondsLater = (clock: Clock, seconds: number) => toTimestamp(new Date(clock.nowMs() + seconds * 1000))

/** The client an authorisation request names, and its redirect_uri, which must be one the client registered. */
export function requestedClient(services: Services, params: OAuthParams): { client: OAuthClientRow; redirectUri: string } {
  if (params.client_id === undefined) throw invalidRequest('client_id')
  const client = oauthOf(services.store).client(params.client_id)
  if (!client) throw invalidClient()
  const redirectUri = params.redirect_uri
  if (redirectUri === undefined) throw invalidRequest('redirect_uri')
  if (!client.redirect_uris.includes(redirectUri)) throw invalidClient()
  return { client, redirectUri }
}

/** GET /oauth/authorize: the league server answers unsupported_grant_type before it looks at the client. */
export function checkAuthorizationRequest(services: Services, params: OAuthParams): { client: OAuthClientRow; redirectUri: string } {
  if (params.response_type !== 'code' || params.client_id === undefined) throw unsupportedGrantType()
  return requestedClient(services, params)
}

/** redirect_uri with the parameters added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value)
  return url.href
}

/** A code for the client, granted by a user of a team, and where the browser goes with it. */
export function grantCode(services: Services, client: OAuthClientRow, redirectUri: string, grantor: { user: number; team: number }, state?: string): { code: OAuthCodeRow; redirect: string } {
  const code: OAuthCodeRow = {
    id: services.store.nextId('oauth_token'),
    code: services.random.hex(80),
    client: client.id,
    user: grantor.user,
    team: grantor.team,
    redirect_uri: redirectUri,
    created_at: services.clock.timestamp(),
    expires_at: secondsLater(services.clock, CODE_LIFETIME_SECONDS),
    revoked_at: null,
  }
  oauthOf(services.store).addCode(code)
  return { code, redirect: redirectWith(redirectUri, { code: code.code, state }) }
}

/**
 * The client of a token request: its id (HTTP Basic or the body), its secret, and the redirect_uri
 * when one is sent (the league server checks it against the client's before anything else).
 */
function authenticateClient(services: Services, params: OAuthParams): OAuthClientRow {
  if (params.client_id === undefined) throw invalidRequest('client_id')
  const client = oauthOf(services.store).client(params.client_id)
  if (!client || client.secret !== params.client_secret) throw invalidClient()
  if (params.redirect_uri !== undefined && !client.redirect_uris.includes(params.redirect_uri)) throw invalidClient()
  return client
}

async function issueTokens(services: Services, grant: Grant): Promise<TokenAnswer> {
  // jose loads with the first token signed, not at start-up.
  const { SignJWT } = await import('jose')
  const { store, clock, random } = services
  const issuedAt = Math.floor(clock.nowMs() / 1000)
  const at = (seconds: number) => toTimestamp(new Date((issuedAt + seconds) * 1000))
  const key = accessTokenKey(store)
  // Laravel Passport's claims (aud: the client, jti, sub: the user, scopes), plus the team the token acts in.
  const jwt = await new SignJWT({ scopes: [], team_id: grant.team })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, typ: 'JWT', kid: key.kid })
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(grant.client)
    .setJti(random.hex(80))
    .setSubject(String(grant.user))
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS)
    .sign(key.secret)
  const access = { id: store.nextId('oauth_token'), token: jwt, ...grant, created_at: at(0), expires_at: at(ACCESS_TOKEN_LIFETIME_SECONDS), revoked_at: null }
  const refresh = {
    id: store.nextId('oauth_token'),
    token: random.hex(80),
    access_token: access.id,
    ...grant,
    expires_at: at(REFRESH_TOKEN_LIFETIME_SECONDS),
    revoked_at: null,
  }
  oauthOf(store).addTokens(access, refresh)
  return { token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, access_token: jwt, refresh_token: refresh.token }
}

async function exchangeCode(services: Services, params: OAuthParams): Promise<TokenAnswer> {
  const client = authenticateClient(services, params)
  if (params.code === undefined) throw invalidRequest('code')
  const code = oauthOf(services.store).code(params.code)
  if (!code) throw invalidRequest('code', 'Cannot decrypt the authorization code')
  const now = services.clock.timestamp()
  if (code.expires_at <= now) throw invalidGrant('Authorization code has expired')
  if (code.revoked_at !== null) throw invalidGrant('Authorization code has been revoked')
  if (code.client !== client.id) throw invalidGrant('Authorization code was not issued to this client')
  if (params.redirect_uri === undefined) throw invalidRequest('redirect_uri')
  if (params.redirect_uri !== code.redirect_uri) throw invalidGrant('Invalid redirect URI')
  // Used before the tokens are signed, so a second request with the same code fails even meanwhile.
  oauthOf(services.store).redeemCode(code, now)
  return issueTokens(services, { client: client.id, user: code.user, team: code.team })
}

async function refresh(services: Services, params: OAuthParams): Promise<TokenAnswer> {
  const client = authenticateClient(services, params)
  if (params.refresh_token === undefined) throw invalidRequest('refresh_token')
  const oauth = oauthOf(services.store)
  const token = oauth.refreshToken(params.refresh_token)
  if (!token) throw invalidRefreshToken('Cannot decrypt the refresh token')
  if (token.client !== client.id) throw invalidRefreshToken('Token is not linked to client')
  const now = services.clock.timestamp()
  if (token.expires_at <= now) throw invalidRefreshToken('Token has expired')
  if (token.revoked_at !== null) throw invalidRefreshToken('Token has been revoked')
  // Rotation (docs/specification-notes.md "OAuth 2.0"): the refresh token and the access token it came with stop working now.
  oauth.rotate(token, now)
  return issueTokens(services, { client: client.id, user: token.user, team: token.team })
}

/** POST /oauth/token. */
export async function token(services: Services, params: OAuthParams): Promise<TokenAnswer> {
  if (params.grant_type === 'authorization_code') return exchangeCode(services, params)
  if (params.grant_type === 'refresh_token') return refresh(services, params)
  throw unsupportedGrantType()
}
