// Composition root: the only place that wires state, kernel and resources into one Hono app.
// The app is a plain fetch handler: main.ts serves it on a socket, tests call app.request().
import { setTimeout as sleep } from 'node:timers/promises'
import { Hono, type Context } from 'hono'
import { requestContext, type AppRoutes, type RequestContext, type Services } from './context.ts'
import type { Contracts } from './contracts/load.ts'
import { SURFACES, type Surface } from './contracts/load.ts'
import { buildOpenApi } from './contracts/openapi.ts'
import { clockFreezeRoutes } from './control/clock.ts'
import { journalRoutes } from './control/journal.ts'
import { eventsRoutes } from './control/events.ts'
import { faultsRoutes } from './control/faults.ts'
import { snapshotRoutes } from './control/snapshots.ts'
import { controlRoutes } from './control/routes.ts'
import { bearerToken, identifier } from './kernel/auth.ts'
import type { KernelEnv } from './kernel/env.ts'
import { BodyCutShort, DEFAULT_MAX_BODY_BYTES } from './kernel/body.ts'
import { MockClosedError } from './kernel/closed.ts'
import { browserPolicy, crossOrigin, hostCheck, hostVerdict } from './kernel/browsers.ts'
import { HostAllowList } from './kernel/hosts.ts'
import { HtmlError, HttpError, routeNotFound, serverError } from './kernel/errors.ts'
import { ConnectionDropped, dropConnection, Faults, latencyDraw, type Latency } from './kernel/faults.ts'
import { DEFAULT_JOURNAL_SIZE, Journal, type Exchange } from './kernel/journal.ts'
import { Routes, type Gate } from './kernel/operation.ts'
import { RateLimiter, rateLimiting } from './kernel/rate-limit.ts'
import { html, json } from './kernel/respond.ts'
import { oauthControlRoutes, oauthOf, oauthRoutes } from './oauth/index.ts'
import { canWrite } from './kernel/roles.ts'
import { aggregatesRoutes } from './resources/aggregates/routes.ts'
import { attachmentsRoutes } from './resources/attachments/routes.ts'
import { casesRoutes } from './resources/cases/routes.ts'
import { checksRoutes } from './resources/checks/routes.ts'
import { clientsRoutes } from './resources/clients/routes.ts'
import { correctionsRoutes } from './resources/corrections/routes.ts'
import { creditsRoutes } from './resources/credits/routes.ts'
import { documentsRoutes } from './resources/documents/routes.ts'
import { checkAsFileSource } from './resources/checks/index.ts'
import { filesRoutes } from './resources/files/routes.ts'
import { formAsFileSource } from './resources/forms/index.ts'
import { recordDocumentAsFileSource } from './resources/record-documents/index.ts'
import { meRoutes } from './resources/me/routes.ts'
import { organisationsRoutes } from './resources/organisations/routes.ts'
import { recordCreationRoutes } from './resources/record-creation/routes.ts'
import { recordDocumentsRoutes } from './resources/record-documents/routes.ts'
import { recordStepsRoutes } from './resources/record-steps/routes.ts'
import { recordsRoutes } from './resources/records/routes.ts'
import { recordDownloadRoutes } from './resources/record-download/routes.ts'
import { sdkTokenRoutes } from './resources/sdk-token/routes.ts'
import { statusRoutes } from './resources/status/routes.ts'
import { stepReviewsRoutes } from './resources/step-reviews/routes.ts'
import { stepsRoutes } from './resources/steps/routes.ts'
import { teamRoutes } from './resources/team/routes.ts'
import { templatesRoutes } from './resources/templates/routes.ts'
import { formTemplatesRoutes } from './resources/form-templates/routes.ts'
import { formsRoutes } from './resources/forms/routes.ts'
import { webhooksRoutes } from './resources/webhooks/routes.ts'
import type { Identity } from './store/world.ts'
import type { ProgressSink } from './seed/index.ts'
import { DASHBOARD_BASE, DOCS_BASE, PERFORM_BASE } from './ui/bases.ts'
import type { ApiDispatch } from './ui/index.ts'

export const API_BASE = SURFACES.api.base
export const CONTROL_BASE = SURFACES.control.base
/** The OAuth 2.0 endpoints, at the service root. */
export const OAUTH_BASE = `${SURFACES.oauth.base}/oauth`
/** The pages outside the API: the dashboard and the API reference (main.ts prints where). */
export { DASHBOARD_BASE, DOCS_BASE } from './ui/bases.ts'

export interface AppOptions extends Services {
  contracts: Contracts
  rateLimit: { limit: number; windowSeconds: number }
  /** Answer browsers' cross-origin requests (CORS) at all; on by default. */
  cors?: boolean
  /** Origins browsers may call the API from; default ['*'], any (frontend development). */
  corsOrigins?: readonly string[]
  /** Origins browsers may call the control API and the OAuth endpoints from; default none. */
  mockCorsOrigins?: readonly string[]
  /** Host names the mock answers to beside the loopback ones ('*': any); default none. */
  allowedHosts?: readonly string[]
  /**
   * Runs every request that may change state (any method but GET, HEAD and OPTIONS) as one write
   * unit: with --data, its changes are in the change log before it is answered (src/store/persistence.ts).
   */
  writeUnit?: <T>(work: () => Promise<T>) => Promise<T>
  version?: string
  /** API exchanges the journal keeps per team (DEFAULT_JOURNAL_SIZE by default); 0 keeps none. */
  journalSize?: number
  /** Real time every API answer is held (serve --latency); none by default. */
  latency?: Latency
  /** The largest JSON or form body read (DEFAULT_MAX_BODY_BYTES by default): larger is the 413 page. */
  maxBodyBytes?: number
  /** Where a team that takes long to make (POST /_mock/teams) says how far it has got; nowhere by default. */
  progress?: ProgressSink
  /** Aborted when the mock closes: an answer held then (a fault's delay, --latency) is let go at once, as a MockClosedError. */
  closing?: AbortSignal
  /** Serve the control API under /_mock (default true); without it /_mock is an unknown route, as on a real deployment. */
  control?: boolean
}

const RESOURCE_ROUTES = [
  statusRoutes,
  meRoutes,
  teamRoutes,
  creditsRoutes,
  clientsRoutes,
  organisationsRoutes,
  recordsRoutes,
  recordCreationRoutes,
  recordStepsRoutes,
  templatesRoutes,
  documentsRoutes,
  stepReviewsRoutes,
  recordDocumentsRoutes,
  correctionsRoutes,
  recordDownloadRoutes,
  sdkTokenRoutes,
  stepsRoutes,
  checksRoutes,
  casesRoutes,
  aggregatesRoutes,
  formTemplatesRoutes,
  formsRoutes,
  attachmentsRoutes,
  (routes: AppRoutes) => filesRoutes(routes, { check: checkAsFileSource, record_document: recordDocumentAsFileSource, form: formAsFileSource }),
  webhooksRoutes,
]

type ApiContext = Context<KernelEnv<RequestContext>>

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Writes that change only the caller's own user account, not the team's data. */
const USER_OWN_WRITES = new Set(['me.update'])

/** Every error as the service answers it: an HttpError's status and body (or page), anything else a logged 500. */
function answerError(error: Error, c: Context): Response {
  // In process, a dropped connection (or a closed mock) is the caller's fetch rejecting (a socket is already closed).
  if (error instanceof ConnectionDropped || error instanceof MockClosedError) throw error
  const known = error instanceof HttpError ? error : undefined
  if (!known) console.error(error)
  // Clients that hang up happen all the time under load: one line, no stack.
  if (known instanceof BodyCutShort) console.error(`ivs-mock: ${c.req.method} ${new URL(c.req.url).pathname}: the client went away before sending its whole body`)
  if (known instanceof HtmlError) return html(c, known.page, known.status, known.headers)
  const { status, body, headers } = known ?? serverError()
  return json(c, body, status, headers)
}

/**
 * Waits at least `ms` of real time (a fault's delay, --latency): a timer can fire up to a
 * millisecond early as performance.now() counts (libuv counts whole milliseconds from the start of
 * the loop's turn), so what is left is waited for again. The mock's closing ends the wait (and its
 * timer, which would keep the process alive) at once: `what` says which request it let go.
 */
async function holdFor(ms: number, closing: AbortSignal | undefined, what: () => string): Promise<void> {
  const until = performance.now() + ms
  try {
    for (let left = ms; left > 0; left = until - performance.now()) await sleep(Math.ceil(left), undefined, { signal: closing })
  } catch (error) {
    throw closing?.aborted ? new MockClosedError(what()) : error
  }
}

export function createApp(options: AppOptions): Hono<KernelEnv<RequestContext>> {
  const { contracts, store, clock } = options
  const services: Services = {
    store,
    clock,
    random: options.random,
    events: options.events,
    scheduler: options.scheduler,
    blobs: options.blobs,
    behaviour: options.behaviour,
    webhooks: options.webhooks,
  }
  const faults = new Faults(contracts, { nowMs: clock.nowMs, rateLimit: options.rateLimit, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES })
  const routes = new Routes<RequestContext>(contracts, {
    base: API_BASE,
    // Read-only members get 403 on every write (FACTS.md "Roles"); their own profile is theirs to change.
    mayWrite: (ctx, op) => USER_OWN_WRITES.has(op.id) || canWrite(ctx.member.role),
    // Faults apply to the caller's team once it is identified and counted, before the operation looks anything up.
    intercept: (c, ctx, op) => faults.intercept(c, ctx.team.id, op),
    maxBodyBytes: options.maxBodyBytes,
  })
  for (const register of RESOURCE_ROUTES) register(routes)

  const journal = new Journal(contracts, options.journalSize ?? DEFAULT_JOURNAL_SIZE)
  const limiter = new RateLimiter(options.rateLimit.limit, options.rateLimit.windowSeconds * 1000)
  const oauth = oauthOf(store)
  // A personal token first: it is most requests' token, and its lookup is one Map miss for an OAuth one.
  const identify = identifier<RequestContext>((token) => {
    const identity = store.resolveToken(token, clock.timestamp) ?? oauth.resolve(token, clock.timestamp)
    return identity && requestContext(identity, services)
  })
  // A limit is shared by all tokens of one user on one team, separate per team (FACTS.md).
  const limit = rateLimiting<RequestContext>(limiter, clock.nowMs, (ctx) => `${ctx.user.id}:${ctx.team.id}`)
  /**
   * Copies what the journal keeps of an exchange: a few fields (this runs on every request); the
   * journal works out the verdicts when it is read.
   */
  const keep = (c: ApiContext, answer: Response, atMs: number, started: number) => {
    const error = c.error instanceof HttpError ? c.error : undefined
    const status = answer.status
    const exchange: Exchange = {
      atMs,
      method: c.req.method,
      url: c.req.url,
      op: c.get('operation'),
      status,
      durationMs: performance.now() - started,
      team: c.get('principal')?.team.id,
      body: undefined,
      problems: status === 422 ? error?.body : undefined,
      reason: error?.reason,
      fault: c.get('fault')?.description,
    }
    if (status === 401) {
      const token = bearerToken(c.req.header('Authorization'))
      const rejected = token === undefined ? { reason: 'no Bearer token in the Authorization header', team: undefined } : store.whyRejected(token, clock.timestamp)
      exchange.reason = rejected.reason
      exchange.team = rejected.team
    }
    journal.record(exchange, c.get('bodyText'))
  }
  const latency = latencyDraw(options.latency)
  /** An error as its answer; the journal reads why from c.error. */
  const failed = (c: ApiContext, error: unknown): Response => {
    c.error = error as Error
    return answerError(error as Error, c)
  }
  /**
   * After the answer: it is held for a fault's delay and --latency (the journal's duration
   * includes it), kept, and a dropping fault drops the connection last: in process, as a rejected
   * fetch (Node's fetch rejects, it does not throw), so that case is asynchronous too.
   */
  const settle = (c: ApiContext, answer: Response, atMs: number, started: number): Response | Promise<Response> => {
    const fault = c.get('fault')
    const delay = (fault?.delayMs ?? 0) + latency()
    if (delay === 0 && fault?.drop !== true) return finish(c, answer, atMs, started)
    const held = delay > 0 ? holdFor(delay, options.closing, () => `${c.req.method} ${c.req.path}`) : Promise.resolve()
    return held.then(() => finish(c, answer, atMs, started))
  }
  const finish = (c: ApiContext, answer: Response, atMs: number, started: number): Response => {
    if (journal.enabled) keep(c, answer, atMs, started)
    const fault = c.get('fault')
    if (fault?.drop) dropConnection(c, fault.description)
    return answer
  }
  /**
   * Every API request, the operation's gate or the unknown route's 404 inside: whatever fell due
   * on the clock happens before the request sees the state; the caller is identified and counted
   * (a 429 is answered here, before routing); every answer, errors included, is settled and kept.
   * Synchronous unless the operation is (a body to read, a delay): see Routes.serveOn.
   */
  const exchange = (c: ApiContext, gate: Gate<RequestContext>): Response | Promise<Response> => {
    const started = journal.enabled ? performance.now() : 0
    const atMs = journal.enabled ? clock.nowMs() : 0
    let answer: Response | Promise<Response>
    try {
      options.scheduler.runDue()
      identify(c)
      limit(c)
      answer = gate(c)
    } catch (error) {
      answer = failed(c, error)
    }
    if (answer instanceof Promise) return answer.then(undefined, (error: unknown) => failed(c, error)).then((settled) => settle(c, settled, atMs, started))
    return settle(c, answer, atMs, started)
  }
  // The unit begins before the token is resolved: the caller's own user row (PATCH /me) is one it may change.
  const writeUnit = options.writeUnit
  const inWriteUnit = writeUnit && ((c: Context, next: () => Promise<void>) => (READ_ONLY_METHODS.has(c.req.method) ? next() : writeUnit(next)))
  const serveApi =
    writeUnit === undefined
      ? exchange
      : (c: ApiContext, gate: Gate<RequestContext>) => (READ_ONLY_METHODS.has(c.req.method) ? exchange(c, gate) : writeUnit(async () => exchange(c, gate)))

  // The control API has no caller: every request acts with the mock's services.
  const controlApi = new Routes<Services>(contracts, { base: CONTROL_BASE, maxBodyBytes: options.maxBodyBytes })
  controlRoutes(
    controlApi,
    (team) => {
      faults.clear(team)
      journal.clear(team)
    },
    options.progress,
  )
  journalRoutes(controlApi, journal)
  faultsRoutes(controlApi, faults)
  eventsRoutes(controlApi)
  clockFreezeRoutes(controlApi)
  snapshotRoutes(controlApi)
  oauthControlRoutes(controlApi)
  const control = new Hono<KernelEnv<Services>>()
  control.use('*', async (c, next) => {
    options.scheduler.runDue()
    c.set('principal', services)
    await next()
  })

  const oauthEndpoints = new Hono<KernelEnv<Services>>()

  if (inWriteUnit) {
    control.use('*', inWriteUnit)
    oauthEndpoints.use('*', inWriteUnit)
  }
  control.route('/', controlApi.app)
  oauthRoutes(oauthEndpoints, services, options.maxBodyBytes)

  // The dashboard calls the API's routes in process, as the member it acts for: the same gate
  // and services, but neither the rate limit nor the journal (it is not a client's traffic).
  const actingFor = new WeakMap<Request, RequestContext>()
  const inProcess = new Hono<KernelEnv<RequestContext>>()
  inProcess.use('*', (c, next) => {
    c.set('principal', actingFor.get(c.req.raw))
    return next()
  })
  inProcess.route(API_BASE, routes.app)
  const dispatch: ApiDispatch = async (identity: Identity, request: Request) => {
    actingFor.set(request, requestContext(identity, services))
    return inProcess.fetch(request)
  }
  // A path under a page's base that no page has goes on to the routes after the pages.
  const notAPage = new Response(null, { status: 404 })
  // The pages (their templates, scripts and styles) load with the first request for one, not at start-up.
  const loadPages = async () => {
    const { uiRoutes } = await import('./ui/index.ts')
    const ui = new Hono()
    if (inWriteUnit) {
      for (const base of [PERFORM_BASE, DASHBOARD_BASE]) ui.use(`${base}/*`, inWriteUnit)
    }
    uiRoutes(ui, { services, contracts, dispatch })
    ui.notFound(() => notAPage)
    ui.onError(answerError)
    return ui
  }
  let ui: Promise<Hono> | undefined

  // Requests from the loopback names (or an allowed one) and from no web page of another origin,
  // nearly all of them, go straight to the routes; the rest meet the Host check and the browser
  // policy first, as middleware of an app of their own: on the routes' app, middleware would have
  // made every API route a chain of handlers.
  const app = new Hono<KernelEnv<RequestContext>>()
  const openApi = new Map<Surface, Record<string, unknown>>()
  const serveOpenApi = (path: string, surface: Surface) =>
    app.get(path, (c) => {
      const document = openApi.get(surface) ?? buildOpenApi(contracts, options.version ?? '0.0.0', surface)
      openApi.set(surface, document)
      return c.json({ ...document, servers: [{ url: `${new URL(c.req.url).origin}${SURFACES[surface].base}` }] })
    })
  const withControl = options.control ?? true
  serveOpenApi('/openapi.json', 'api')
  if (withControl) serveOpenApi(`${CONTROL_BASE}/openapi.json`, 'control')
  // Before the control API, which answers every other path under /_mock. The pages are their own
  // app, reached by their bases: their routes (a regular expression of nested braces for a perform
  // token, a team id as a number in some routes and as any text in another) are more than Hono's
  // fast RegExpRouter takes, and merged here they sent every API request through its slower
  // TrieRouter, a fifth of what GET /clients/{id} cost (npm run bench).
  const pages = async (c: Context<KernelEnv<RequestContext>>, next: () => Promise<void>) => {
    const answer = await (await (ui ??= loadPages())).fetch(c.req.raw, c.env)
    if (answer === notAPage) return next()
    return answer
  }
  for (const base of [PERFORM_BASE, DASHBOARD_BASE, DOCS_BASE]) app.all(base, pages).all(`${base}/*`, pages)
  routes.serveOn(app, serveApi)
  if (withControl) app.route(CONTROL_BASE, control)
  app.route(OAUTH_BASE, oauthEndpoints)
  const unknownRoute = (c: ApiContext) => json(c, routeNotFound().body, 404)
  // An unknown route under the API is still an API request: identified, counted and kept.
  const notFound = (c: ApiContext) => (c.req.path === API_BASE || c.req.path.startsWith(`${API_BASE}/`) ? serveApi(c, unknownRoute) : unknownRoute(c))
  app.notFound(notFound)
  app.onError(answerError)
  inProcess.onError(answerError)

  const hosts = new HostAllowList(options.allowedHosts)
  const allowedHost = hostVerdict(hosts)
  const guarded = new Hono<KernelEnv<RequestContext>>()
  guarded.use('*', hostCheck(hosts, allowedHost))
  guarded.use('*', browserPolicy({ cors: options.cors ?? true, apiOrigins: options.corsOrigins ?? ['*'], mockOrigins: options.mockCorsOrigins ?? [] }))
  guarded.route('/', app)
  guarded.notFound(notFound)
  guarded.onError(answerError)
  const direct = app.fetch
  app.fetch = (request, env, executionCtx) =>
    allowedHost(request.url, env) && !crossOrigin(request) ? direct(request, env, executionCtx) : guarded.fetch(request, env, executionCtx)
  return app
}
