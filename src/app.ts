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
import { AnswerCache } from './kernel/answer-cache.ts'
import type { KernelEnv } from './kernel/env.ts'
import { BodyCutShort, DEFAULT_MAX_BODY_BYTES } from './kernel/body.ts'
import { browserPolicy, crossOrigin, hostCheck, hostVerdict } from './kernel/browsers.ts'
import { HostAllowList } from './kernel/hosts.ts'
import { HtmlError, HttpError, routeNotFound, serverError } from './kernel/errors.ts'
import { MockClosedError } from './kernel/closed.ts'
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

/** Runs a request that may change state as one write unit (AppOptions.writeUnit). */
export type WriteUnit = <T>(work: () => Promise<T>) => Promise<T>

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
  writeUnit?: WriteUnit
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

/** What a surface runs around its routes, each stage written once in this file. */
interface Stages {
  /** Whatever fell due on the mock's clock (check results, expiry, scans) happens first, before the request sees the state. */
  dueJobs: boolean
  /** A request that may write (any method but GET, HEAD and OPTIONS) is one write unit: with --data, its changes are in the change log before it is answered. */
  writeUnit: boolean
  /** The bearer token to its caller (a 401 without one, answered by the operation). */
  identify: boolean
  /** The request counted against its caller's rate limit (a 429 over it, the limit's headers on every answer). */
  rateLimit: boolean
  /** A fault set on the caller's team answers instead of the operation (kernel/faults.ts). */
  faults: boolean
  /** The exchange kept in the traffic journal. */
  journal: boolean
}

/**
 * Every surface's stages, in one place. Every request, whatever its surface, meets the Host check
 * and the browser policy first (guardHostsAndBrowsers); the dashboard calls the API's operations in
 * process as the member it acts for, through their gate (so faults apply) but without the rate
 * limit and the journal: it is not a client's traffic.
 */
const SURFACE_STAGES: Readonly<Record<'api' | 'control' | 'oauth' | 'pages', Stages>> = {
  api: { dueJobs: true, writeUnit: true, identify: true, rateLimit: true, faults: true, journal: true },
  control: { dueJobs: true, writeUnit: true, identify: false, rateLimit: false, faults: false, journal: false },
  oauth: { dueJobs: true, writeUnit: true, identify: false, rateLimit: false, faults: false, journal: false },
  pages: { dueJobs: true, writeUnit: true, identify: false, rateLimit: false, faults: false, journal: false },
}

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

/** The services every request and job acts with, written out field by field (AppOptions has more). */
function servicesOf(options: AppOptions): Services {
  const { store, clock, random, events, scheduler, blobs, behaviour, webhooks } = options
  return { store, clock, random, events, scheduler, blobs, behaviour, webhooks }
}

/** Every operation of /api/v2 on its gate (kernel/operation.ts), with the roles' write rule and the faults in front of it. */
function apiRoutes(options: AppOptions, faults: Faults): Routes<RequestContext> {
  const routes = new Routes<RequestContext>(options.contracts, {
    base: API_BASE,
    // Read-only members get 403 on every write (docs/specification-notes.md "Roles"); their own profile is theirs to change.
    mayWrite: (ctx, op) => USER_OWN_WRITES.has(op.id) || canWrite(ctx.member.role),
    // Faults apply to the caller's team once it is identified and counted, before the operation looks anything up.
    intercept: SURFACE_STAGES.api.faults ? (c, ctx, op) => faults.intercept(c, ctx.team.id, op) : undefined,
    maxBodyBytes: options.maxBodyBytes,
    // What an answer can tell callers apart by: their team, who they are and their role there.
    answers: { cache: new AnswerCache(options.store.changes.world, options.clock.timestamp), caller: (ctx) => `${ctx.team.id}:${ctx.user.id}:${ctx.member.role}`, changes: (ctx) => ctx.team.changes },
  })
  for (const register of RESOURCE_ROUTES) register(routes)
  return routes
}

/**
 * The API's stages (SURFACE_STAGES.api), in order, each a method below:
 *
 *   due jobs  whatever fell due on the clock happens first, before the request sees the state
 *   identify  the bearer token, if any, to its caller (a RequestContext); the gate answers 401 without one
 *   limit     the request counted against its caller's rate limit: a 429 over it, the limit's headers on every answer
 *   gate      the operation's own (kernel/operation.ts): a fault's answer instead, or the operation's checks and handler
 *   settle    an error answered as the service answers it; the answer held for a fault's delay and --latency,
 *             and a dropping fault's connection dropped last
 *   keep      the exchange copied into the traffic journal (its verdicts are worked out when it is read)
 *
 * A request that may write runs them all as one write unit (serveApi in createApp). A request
 * stays synchronous all the way unless its operation is not (a body to read) or its answer is held.
 */
class ApiExchange {
  private readonly identifyCaller: (c: ApiContext) => void
  private readonly countRequest: (c: ApiContext) => void
  private readonly latency: () => number
  /** Whether exchanges are kept (the surface keeps them, and the journal keeps any). */
  private readonly journaling: boolean

  constructor(
    private readonly options: AppOptions,
    private readonly stages: Stages,
    services: Services,
    private readonly journal: Journal,
  ) {
    const { store, clock } = options
    this.journaling = stages.journal && journal.enabled
    const oauth = oauthOf(store)
    // A personal token first: it is most requests' token, and its lookup is one Map miss for an OAuth one.
    this.identifyCaller = identifier<RequestContext>((token) => {
      const identity = store.resolveToken(token, clock.timestamp) ?? oauth.resolve(token, clock.timestamp)
      return identity && requestContext(identity, services)
    })
    const limiter = new RateLimiter(options.rateLimit.limit, options.rateLimit.windowSeconds * 1000)
    // A limit is shared by all tokens of one user on one team, separate per team (docs/specification-notes.md "Rate limits").
    this.countRequest = rateLimiting<RequestContext>(limiter, clock.nowMs, (ctx) => `${ctx.user.id}:${ctx.team.id}`)
    this.latency = latencyDraw(options.latency)
  }

  /** One API request through every stage; `gate` is its operation's (or the unknown route's 404). */
  readonly serve = (c: ApiContext, gate: Gate<RequestContext>): Response | Promise<Response> => {
    const started = this.journaling ? performance.now() : 0
    const atMs = this.journaling ? this.options.clock.nowMs() : 0
    let answer: Response | Promise<Response>
    try {
      if (this.stages.dueJobs) runDueJobs(this.options)
      if (this.stages.identify) this.identify(c)
      if (this.stages.rateLimit) this.limit(c)
      answer = this.gate(c, gate)
    } catch (error) {
      answer = this.failed(c, error)
    }
    if (answer instanceof Promise) return answer.then(undefined, (error: unknown) => this.failed(c, error)).then((settled) => this.settle(c, settled, atMs, started))
    return this.settle(c, answer, atMs, started)
  }

  /** Stage identify: the caller, or none (kernel/auth.ts). */
  private identify(c: ApiContext): void {
    this.identifyCaller(c)
  }

  /** Stage limit: a 429 is thrown here, before routing (kernel/rate-limit.ts). */
  private limit(c: ApiContext): void {
    this.countRequest(c)
  }

  /** Stage gate: the operation's route handler, synchronous unless it reads a body or a fault waits. */
  private gate(c: ApiContext, gate: Gate<RequestContext>): Response | Promise<Response> {
    return gate(c)
  }

  /** An error as its answer; keep reads why from c.error. */
  private failed(c: ApiContext, error: unknown): Response {
    c.error = error as Error
    return answerError(error as Error, c)
  }

  /**
   * Stage settle: the answer is held for a fault's delay and --latency (the journal's duration
   * includes it), kept, and a dropping fault drops the connection last: in process, as a rejected
   * fetch (Node's fetch rejects, it does not throw), so that case is asynchronous too.
   */
  private settle(c: ApiContext, answer: Response, atMs: number, started: number): Response | Promise<Response> {
    const fault = c.get('fault')
    const delay = (fault?.delayMs ?? 0) + this.latency()
    if (delay === 0 && fault?.drop !== true) return this.finish(c, answer, atMs, started)
    const held = delay > 0 ? holdFor(delay, this.options.closing, () => `${c.req.method} ${c.req.path}`) : Promise.resolve()
    return held.then(() => this.finish(c, answer, atMs, started))
  }

  private finish(c: ApiContext, answer: Response, atMs: number, started: number): Response {
    if (this.journaling) this.keep(c, answer, atMs, started)
    const fault = c.get('fault')
    if (fault?.drop) dropConnection(c, fault.description)
    return answer
  }

  /**
   * Stage keep: copies what the journal keeps of an exchange, a few fields (this runs on every
   * request); the journal works out the verdicts when it is read.
   */
  private keep(c: ApiContext, answer: Response, atMs: number, started: number): void {
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
      const rejected = token === undefined ? { reason: 'no Bearer token in the Authorization header', team: undefined } : this.options.store.whyRejected(token, this.options.clock.timestamp)
      exchange.reason = rejected.reason
      exchange.team = rejected.team
    }
    this.journal.record(exchange, c.get('bodyText'))
  }
}

/** Stage due jobs. */
function runDueJobs(options: AppOptions): void {
  options.scheduler.runDue()
}

/** Whether a request runs as one write unit: it may write, and the mock keeps a change log (--data). */
function inWriteUnit(options: AppOptions, stages: Stages, method: string): options is AppOptions & { writeUnit: WriteUnit } {
  return stages.writeUnit && options.writeUnit !== undefined && !READ_ONLY_METHODS.has(method)
}

/** The stages of the control API, OAuth and the pages (SURFACE_STAGES), as their middleware. */
function surfaceStages(options: AppOptions, stages: Stages): (c: Context, next: () => Promise<void>) => Promise<void> {
  return (c, next) => {
    if (stages.dueJobs) runDueJobs(options)
    return inWriteUnit(options, stages, c.req.method) ? options.writeUnit(next) : next()
  }
}

/**
 * The control API (/_mock): no caller, every request acts with the mock's services; a team's
 * faults and journal go with it when it is reset or removed.
 */
function controlApp(options: AppOptions, services: Services, faults: Faults, journal: Journal): Hono<KernelEnv<Services>> {
  const controlApi = new Routes<Services>(options.contracts, { base: CONTROL_BASE, maxBodyBytes: options.maxBodyBytes })
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
    c.set('principal', services)
    await next()
  })
  control.use('*', surfaceStages(options, SURFACE_STAGES.control))
  control.route('/', controlApi.app)
  return control
}

/** The OAuth 2.0 endpoints (/oauth): the token endpoint and the consent page's. */
function oauthApp(options: AppOptions, services: Services): Hono<KernelEnv<Services>> {
  const oauthEndpoints = new Hono<KernelEnv<Services>>()
  oauthEndpoints.use('*', surfaceStages(options, SURFACE_STAGES.oauth))
  oauthRoutes(oauthEndpoints, services, options.maxBodyBytes)
  return oauthEndpoints
}

/**
 * How the dashboard calls the API's routes in process, as the member it acts for: the same gate
 * and services, but neither the rate limit nor the journal (it is not a client's traffic).
 */
function dashboardDispatch(routes: Routes<RequestContext>, services: Services): ApiDispatch {
  const actingFor = new WeakMap<Request, RequestContext>()
  const inProcess = new Hono<KernelEnv<RequestContext>>()
  inProcess.use('*', (c, next) => {
    c.set('principal', actingFor.get(c.req.raw))
    return next()
  })
  inProcess.route(API_BASE, routes.app)
  inProcess.onError(answerError)
  return async (identity: Identity, request: Request) => {
    actingFor.set(request, requestContext(identity, services))
    return inProcess.fetch(request)
  }
}

/**
 * The pages (the perform page, the dashboard, the API reference) on `app`, reached by their bases.
 * They are an app of their own: their routes (a regular expression of nested braces for a perform
 * token, a team id as a number in some routes and as any text in another) are more than Hono's
 * fast RegExpRouter takes, and merged they sent every API request through its slower TrieRouter,
 * a fifth of what GET /clients/{id} cost (npm run bench). Their templates, scripts and styles load
 * with the first request for one, not at start-up.
 */
function servePages(app: Hono<KernelEnv<RequestContext>>, options: AppOptions, services: Services, dispatch: ApiDispatch): void {
  // A path under a page's base that no page has goes on to the routes after the pages.
  const notAPage = new Response(null, { status: 404 })
  const loadPages = async () => {
    const { uiRoutes } = await import('./ui/index.ts')
    const ui = new Hono()
    const stages = surfaceStages(options, SURFACE_STAGES.pages)
    for (const base of [PERFORM_BASE, DASHBOARD_BASE]) ui.use(base, stages).use(`${base}/*`, stages)
    uiRoutes(ui, { services, contracts: options.contracts, dispatch })
    ui.notFound(() => notAPage)
    ui.onError(answerError)
    return ui
  }
  let ui: Promise<Hono> | undefined
  const pages = async (c: Context<KernelEnv<RequestContext>>, next: () => Promise<void>) => {
    const answer = await (await (ui ??= loadPages())).fetch(c.req.raw, c.env)
    if (answer === notAPage) return next()
    return answer
  }
  for (const base of [PERFORM_BASE, DASHBOARD_BASE, DOCS_BASE]) app.all(base, pages).all(`${base}/*`, pages)
}

/** The OpenAPI documents of the API and of the control API, each built at its first request, with the origin it was reached at. */
function serveOpenApi(app: Hono<KernelEnv<RequestContext>>, options: AppOptions): void {
  const openApi = new Map<Surface, Record<string, unknown>>()
  const serveDocument = (path: string, surface: Surface) =>
    app.get(path, (c) => {
      const document = openApi.get(surface) ?? buildOpenApi(options.contracts, options.version ?? '0.0.0', surface)
      openApi.set(surface, document)
      return c.json({ ...document, servers: [{ url: `${new URL(c.req.url).origin}${SURFACES[surface].base}` }] })
    })
  serveDocument('/openapi.json', 'api')
  if (options.control ?? true) serveDocument(`${CONTROL_BASE}/openapi.json`, 'control')
}

/**
 * Requests from the loopback names (or an allowed one) and from no web page of another origin,
 * nearly all of them, go straight to `app`; the rest meet the Host check and the browser policy
 * first, as middleware of an app of their own: on the routes' app, middleware would have made
 * every API route a chain of handlers.
 */
function guardHostsAndBrowsers(app: Hono<KernelEnv<RequestContext>>, options: AppOptions, notFound: (c: ApiContext) => Response | Promise<Response>): void {
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
}

/** The mock as one Hono app: the API (its requests through ApiExchange's stages), the control API, OAuth, the pages and the OpenAPI documents. */
export function createApp(options: AppOptions): Hono<KernelEnv<RequestContext>> {
  const services = servicesOf(options)
  const faults = new Faults(options.contracts, { nowMs: options.clock.nowMs, rateLimit: options.rateLimit, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES })
  const journal = new Journal(options.contracts, options.journalSize ?? DEFAULT_JOURNAL_SIZE)
  const routes = apiRoutes(options, faults)
  const exchange = new ApiExchange(options, SURFACE_STAGES.api, services, journal)
  // A write's unit begins before the token is resolved: the caller's own user row (PATCH /me) is one it may change.
  const serveApi = (c: ApiContext, gate: Gate<RequestContext>) =>
    inWriteUnit(options, SURFACE_STAGES.api, c.req.method) ? options.writeUnit(async () => exchange.serve(c, gate)) : exchange.serve(c, gate)

  const app = new Hono<KernelEnv<RequestContext>>()
  serveOpenApi(app, options)
  // Before the control API, which answers every other path under /_mock.
  servePages(app, options, services, dashboardDispatch(routes, services))
  routes.serveOn(app, serveApi)
  if (options.control ?? true) app.route(CONTROL_BASE, controlApp(options, services, faults, journal))
  app.route(OAUTH_BASE, oauthApp(options, services))
  const unknownRoute = (c: ApiContext) => json(c, routeNotFound().body, 404)
  // An unknown route under the API is still an API request: identified, counted and kept.
  const notFound = (c: ApiContext) => (c.req.path === API_BASE || c.req.path.startsWith(`${API_BASE}/`) ? serveApi(c, unknownRoute) : unknownRoute(c))
  app.notFound(notFound)
  app.onError(answerError)
  guardHostsAndBrowsers(app, options, notFound)
  return app
}
