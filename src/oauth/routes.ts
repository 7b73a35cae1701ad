// The OAuth 2.0 endpoints at the service root (contracts/oauth/oauth.json): the consent page, its
// form, and the token endpoint. They take no bearer token and answer errors in OAuth's shapes
// (errors.ts), so they are plain Hono routes rather than operations of the gate (kernel/operation.ts).
import { Hono, type Context } from 'hono'
import { jsonValueOf } from '../contracts/body.ts'
import type { Services } from '../context.ts'
import { NO_FRAMING_HEADERS } from '../kernel/browsers.ts'
import { cameOffSocket, DEFAULT_MAX_BODY_BYTES, readBodyText } from '../kernel/body.ts'
import type { KernelEnv } from '../kernel/env.ts'
import { HttpError } from '../kernel/errors.ts'
import { html, json } from '../kernel/respond.ts'
import { consentPage } from './consent.ts'
import { invalidRequest } from './errors.ts'
import { checkAuthorizationRequest, grantCode, redirectWith, requestedClient, token, type OAuthParams } from './service.ts'

type OAuthContext = Context<KernelEnv<Services>>

/** Trimmed, blank values left out, the first of a repeated one (what Laravel hands the league server). */
function paramsOf(entries: Iterable<[string, unknown]>): OAuthParams {
  const params: OAuthParams = {}
  for (const [name, value] of entries) {
    if (Object.hasOwn(params, name) || (typeof value !== 'string' && typeof value !== 'number')) continue
    const text = String(value).trim()
    if (text !== '') params[name] = text
  }
  return params
}

/**
 * A form-encoded body, or a JSON object (Laravel reads both into the request's input); anything
 * else has no parameters. A body over maxBytes is the 413 page.
 */
async function bodyParams(c: OAuthContext, maxBytes: number): Promise<OAuthParams> {
  const type = c.req.header('Content-Type') ?? ''
  const text = await readBodyText(c.req.raw, maxBytes, cameOffSocket(c))
  if (/json/i.test(type)) {
    const body = jsonValueOf(text)
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? paramsOf(Object.entries(body)) : {}
  }
  return /x-www-form-urlencoded/i.test(type) ? paramsOf(new URLSearchParams(text)) : {}
}

/** HTTP Basic client credentials, which the league server prefers to those in the body. */
function basicCredentials(authorization: string | undefined): OAuthParams {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')
  if (!match) return {}
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return {}
  return { client_id: decoded.slice(0, colon), client_secret: decoded.slice(colon + 1) }
}

const redirect = (location: string) => new Response(null, { status: 302, headers: { location } })

/** A member option of the consent form ("<user id>:<team id>") that is a current member of that team. */
function grantor(services: Services, member: string | undefined): { user: number; team: number } {
  const match = /^([0-9]+):([0-9]+)$/.exec(member ?? '')
  if (!match) throw invalidRequest('member')
  const [user, team] = [Number(match[1]), Number(match[2])]
  if (!services.store.user(user) || !services.store.team(team)?.member(user)) throw invalidRequest('member', 'The member is not a current member of that team')
  return { user, team }
}

/** Serves /oauth/authorize and /oauth/token on `app` (mounted at /oauth); maxBodyBytes: the largest body read. */
export function oauthRoutes(app: Hono<KernelEnv<Services>>, services: Services, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): void {
  app.get('/authorize', (c) => {
    const params = paramsOf(new URL(c.req.url).searchParams)
    const { client, redirectUri } = checkAuthorizationRequest(services, params)
    // Only the frame protection of the UI's policy: its form-action 'self' would stop the form's redirect to the client.
    return html(c, consentPage(services.store, { client, redirectUri, state: params.state }), 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...NO_FRAMING_HEADERS })
  })

  app.post('/authorize', async (c) => {
    const params = await bodyParams(c, maxBodyBytes)
    const { client, redirectUri } = requestedClient(services, params)
    if (params.decision === 'deny') return redirect(redirectWith(redirectUri, { error: 'access_denied', state: params.state }))
    if (params.decision !== 'grant') throw invalidRequest('decision')
    return redirect(grantCode(services, client, redirectUri, grantor(services, params.member), params.state).redirect)
  })

  app.post('/token', async (c) => {
    const authorization = c.req.header('Authorization')
    const params = { ...(await bodyParams(c, maxBodyBytes)), ...basicCredentials(authorization) }
    try {
      return json(c, await token(services, params), 200, { 'cache-control': 'no-store', pragma: 'no-cache' })
    } catch (error) {
      // The league server names the scheme a client that sent credentials should use.
      if (authorization !== undefined && error instanceof HttpError && error.body.error === 'invalid_client') {
        throw new HttpError(error.status, error.body, { 'www-authenticate': `${/^Bearer\b/i.test(authorization) ? 'Bearer' : 'Basic'} realm="OAuth"` })
      }
      throw error
    }
  })
}
