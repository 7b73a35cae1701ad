// Composition root: the only place that wires state, kernel and resources into one Hono app.
// The app is a plain fetch handler: main.ts serves it on a socket, tests call app.request().
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { RequestContext, Services } from './context.ts'
import type { Contracts } from './contracts/load.ts'
import { buildOpenApi } from './contracts/openapi.ts'
import { identifier } from './kernel/auth.ts'
import type { KernelEnv } from './kernel/env.ts'
import { HttpError, routeNotFound, serverError } from './kernel/errors.ts'
import { Routes } from './kernel/operation.ts'
import { RateLimiter, rateLimiting } from './kernel/rate-limit.ts'
import { json } from './kernel/respond.ts'
import { clientsRoutes } from './resources/clients/routes.ts'
import { creditsRoutes } from './resources/credits/routes.ts'
import { meRoutes } from './resources/me/routes.ts'
import { statusRoutes } from './resources/status/routes.ts'
import { teamRoutes } from './resources/team/routes.ts'
import { teamsRoutes } from './resources/teams/routes.ts'

export const API_BASE = '/api/v2'

export interface AppOptions extends Services {
  contracts: Contracts
  rateLimit: { limit: number; windowSeconds: number }
  /** Answer browsers from any origin (frontend development); on by default. */
  cors?: boolean
  /** Called after every request that may have changed state (persistence with --data). */
  afterWrite?: () => Promise<void>
  version?: string
}

const RESOURCE_ROUTES = [statusRoutes, meRoutes, teamRoutes, teamsRoutes, creditsRoutes, clientsRoutes]

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function createApp(options: AppOptions): Hono<KernelEnv<RequestContext>> {
  const { contracts, store, clock } = options
  const services: Services = {
    store,
    clock,
    random: options.random,
    events: options.events,
    behaviour: options.behaviour,
  }
  const routes = new Routes<RequestContext>(contracts)
  for (const register of RESOURCE_ROUTES) register(routes)

  const limiter = new RateLimiter(options.rateLimit.limit, options.rateLimit.windowSeconds * 1000)
  const api = new Hono<KernelEnv<RequestContext>>()
  const identify = identifier<RequestContext>((token) => {
    const identity = store.resolveToken(token, clock.timestamp)
    return identity && { ...identity, ...services }
  })
  // A limit is shared by all tokens of one user on one team, separate per team (FACTS.md).
  const limit = rateLimiting<RequestContext>(limiter, () => clock.now().getTime(), (ctx) => `${ctx.user.id}:${ctx.team.team.id}`)
  api.use('*', async (c, next) => {
    identify(c)
    limit(c)
    await next()
  })
  const afterWrite = options.afterWrite
  if (afterWrite) {
    api.use('*', async (c, next) => {
      await next()
      if (!READ_ONLY_METHODS.has(c.req.method)) await afterWrite()
    })
  }
  api.route('/', routes.app)

  const app = new Hono<KernelEnv<RequestContext>>()
  if (options.cors ?? true) {
    const allowBrowsers = cors({
      origin: '*',
      allowHeaders: ['Authorization', 'Content-Type'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    })
    // Only browsers need CORS headers, and they always send Origin on cross-origin calls. Skipping
    // the middleware otherwise matters: it touches c.res early, which makes Hono copy every
    // response through a stream (half the throughput, measured with npm run bench).
    app.use('*', (c, next) => (c.req.header('Origin') ? allowBrowsers(c, next) : next()))
  }
  let openApi: Record<string, unknown> | undefined
  app.get('/openapi.json', (c) => {
    openApi ??= buildOpenApi(contracts, options.version ?? '0.0.0')
    return c.json({ ...openApi, servers: [{ url: `${new URL(c.req.url).origin}${API_BASE}` }] })
  })
  app.route(API_BASE, api)
  app.notFound((c) => json(c, routeNotFound().body, 404))
  app.onError((error, c) => {
    const known = error instanceof HttpError ? error : undefined
    if (!known) console.error(error)
    const { status, body, headers } = known ?? serverError()
    return json(c, body, status, headers)
  })
  return app
}
