// What web pages may do with the mock. A page's requests carry its Origin; its requests to the
// mock's own origin (the consent page's form) and requests without one (curl, SDKs, servers) are
// not cross-origin and pass untouched. Cross-origin:
//   - the API (/api/v2, and /openapi.json) answers browsers from the configured origins (any by
//     default, for frontend development: every call needs a bearer token a page does not have);
//   - the control API and the OAuth endpoints take no token, so a page could create teams, move
//     the clock or read tokens through them: a request from an origin not configured for them is
//     refused before it runs (a "simple" POST needs no preflight, and the mock reads any body as
//     JSON, so withholding CORS headers alone would not stop it).
import type { Context, MiddlewareHandler, Next } from 'hono'
import { cors } from 'hono/cors'
import type { KernelEnv } from './env.ts'
import { authorityOfUrl, hostName, type HostAllowList } from './hosts.ts'
import { json } from './respond.ts'

/**
 * No page of the mock may be shown in another page's frame (clickjacking: a click on the consent
 * page's Grant, or the dashboard's buttons, made through an invisible frame): CSP's frame-ancestors
 * for the browsers that know it, X-Frame-Options for the rest. Every HTML page sends both.
 */
export const NO_FRAMING = "frame-ancestors 'none'"
export const NO_FRAMING_HEADERS = { 'content-security-policy': NO_FRAMING, 'x-frame-options': 'DENY' } as const

export interface BrowserOptions {
  /** Answer CORS requests at all (false: no CORS headers anywhere; cross-origin control requests are still refused). */
  cors: boolean
  /** Origins allowed on the API ('*': any). */
  apiOrigins: readonly string[]
  /** Origins allowed on the control API and the OAuth endpoints ('*': any; none by default). */
  mockOrigins: readonly string[]
}

/** The surfaces without a token: the control API and the OAuth endpoints. */
const isTokenless = (path: string) => path.startsWith('/_mock') || path.startsWith('/oauth')

/** The request's own origin as the client addressed it: "http://127.0.0.1:4010". */
const ownOrigin = (url: string) => url.slice(0, url.indexOf('/', url.indexOf('//') + 2))

function corsFor(origins: readonly string[]): MiddlewareHandler | undefined {
  if (origins.length === 0) return undefined
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowHeaders: ['Authorization', 'Content-Type'],
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
  })
}

const allows = (origins: readonly string[], origin: string) => origins.includes('*') || origins.includes(origin)

/** The middleware that applies the policy; it does nothing for a request without an Origin header. */
export function browserPolicy(options: BrowserOptions): MiddlewareHandler<KernelEnv<any>> {
  const apiCors = options.cors ? corsFor(options.apiOrigins) : undefined
  const mockCors = options.cors ? corsFor(options.mockOrigins) : undefined
  return (c: Context<KernelEnv<any>>, next: Next) => {
    const origin = c.req.header('Origin')
    // Only browsers send Origin. Skipping the CORS middleware otherwise matters: it touches c.res
    // early, which makes Hono copy every response through a stream (half the throughput, npm run bench).
    if (origin === undefined || origin === ownOrigin(c.req.url)) return next()
    if (!isTokenless(c.req.path)) return apiCors && allows(options.apiOrigins, origin) ? apiCors(c, next) : next()
    if (!allows(options.mockOrigins, origin)) {
      return Promise.resolve(
        json(c, { message: `Requests from ${origin} to /_mock and /oauth are refused. To let pages from that origin call them, start the mock with --mock-cors-origin ${origin} (or IVS_MOCK_CORS_ORIGIN).` }, 403),
      )
    }
    return mockCors ? mockCors(c, next) : next()
  }
}

/** Whether the mock answers to a request's Host (a Map lookup of the name's verdict); in process, always. */
export function hostVerdict(hosts: HostAllowList): (url: string, env: KernelEnv<any>['Bindings'] | undefined) => boolean {
  // Clients use a handful of names: remembering each one's verdict keeps this to a Map lookup per request.
  const verdicts = new Map<string, boolean>()
  return (url, env) => {
    // No web page can send a request that never crossed a socket: startMock()'s fetch, behind MSW, keeps the app's own origin.
    if (env?.inProcess) return true
    const authority = authorityOfUrl(url)
    let allowed = verdicts.get(authority)
    if (allowed === undefined) {
      allowed = hosts.allows(hostName(authority))
      if (verdicts.size < 256) verdicts.set(authority, allowed)
    }
    return allowed
  }
}

/** Whether a request comes from a web page of another origin: only those meet the browser policy. */
export function crossOrigin(request: Request): boolean {
  const origin = request.headers.get('Origin')
  return origin !== null && origin !== ownOrigin(request.url)
}

/** Refuses, before anything else, a request whose Host (or absolute URL) names a host the mock does not answer to. */
export function hostCheck(hosts: HostAllowList, allowed: ReturnType<typeof hostVerdict> = hostVerdict(hosts)): MiddlewareHandler<KernelEnv<any>> {
  // The address it is bound to (127.0.0.1 by default) is among the allowed names: each is listed once.
  const known = [...new Set(['localhost', '127.0.0.1', '[::1]', ...hosts.extra])]
  const listed = `${known.slice(0, -1).join(', ')} and ${known.at(-1) as string}`
  return (c, next) => {
    if (allowed(c.req.url, c.env)) return next()
    const name = hostName(authorityOfUrl(c.req.url))
    return Promise.resolve(
      json(c, { message: `This mock does not answer to the host name ${name}, only to ${listed}. To reach it by that name, start it with --allowed-host ${name} (or IVS_ALLOWED_HOSTS=${name}).` }, 421),
    )
  }
}
