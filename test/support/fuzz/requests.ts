// What the fuzz sends, and what it demands of each answer. A request is generated from its
// operation's contract: the path's ids (the caller's own, another team's, or none at all), the
// query and the body (valid, or breaking one constraint, or not JSON at all), and who sends it
// (every role, an OAuth token, no token, a made-up token). It is generated with placeholders for
// what only the world knows (PoolRef) and filled in when sent, so a printed counterexample reads
// the same on a replay.
import fc from 'fast-check'
import { OPERATIONS_BASE, SURFACES, type OperationContract } from '../../../src/contracts/load.ts'
import { normalizeInput, queryShapeOf, readQuery } from '../../../src/contracts/request.ts'
import type { ApiClient, ApiResponse } from '../api.ts'
import { contracts } from '../contracts.ts'
import { fillPoolRefs, PoolRef, SchemaArbitraries, passes, type Hint, type Mutant } from '../schema-arbitrary.ts'
import { ACCEPTED, REFUSED } from '../uploads.ts'
import { NOWHERE, type FuzzWorld } from './world.ts'

export type Who = 'owner' | 'member' | 'read-only' | 'assigned-only' | 'assumed' | 'oauth' | 'no token' | 'unknown token'

/** Whose ids the path names: the caller's team's, another team's, or ids nobody has. */
export type Target = 'own' | 'foreign' | 'missing'

export type BodyInput =
  | { kind: 'json'; value: unknown; broken?: { at: string | undefined; breaks: string } }
  | { kind: 'raw'; text: string }
  | { kind: 'form'; value: Record<string, unknown> }
  | { kind: 'multipart'; field: string; name: string; file: string }

export interface FuzzRequest {
  op: string
  who: Who
  target: Target
  /** Which id of each path parameter's pool (own or foreign). */
  picks: number[]
  /** What the last path parameter is when the target is missing. */
  missing: string
  query: Record<string, unknown>
  body?: BodyInput
}

/** A request as it was sent, and its answer. */
export interface Exchange {
  request: FuzzRequest
  method: string
  url: string
  sentBody: string | undefined
  /** Whether every path id came from a non-empty pool of the caller's team. */
  ownPath: boolean
  queryValid: boolean
  bodyValid: boolean
  response: ApiResponse
}

const ROLE_WEIGHTS: Array<[Who, number]> = [
  ['owner', 10],
  ['member', 3],
  ['read-only', 2],
  ['assigned-only', 2],
  ['assumed', 1],
  ['oauth', 1],
  ['no token', 1],
  ['unknown token', 1],
]

const MALFORMED = ['{', '{"name":', 'null', '[]', '"text"', '12', 'true', '{"a":1}{', '\u0000', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '{"__proto__":{"polluted":true}}', '']

/** Body and query properties that name ids of the caller's team, and the pool they come from. */
const ID_POOLS: Record<string, string> = {
  client: 'clients',
  record_id: 'records',
  attachment: 'attachments',
  template: 'templates',
  team_member: 'members',
  team_members: 'members',
  assignee: 'members',
  assigned_to: 'members',
  created_by: 'members',
  creator: 'members',
  causer: 'members',
  reviewed_by: 'members',
  form: 'formTemplates',
  referee_form: 'formTemplates',
  custom_form_template_id: 'formTemplates',
  team: 'ownTeam',
  client_id: 'oauthClients',
  client_secret: 'oauthSecrets',
  redirect_uri: 'oauthRedirects',
  token: 'tokens',
  code: 'oauthCodes',
  refresh_token: 'refreshTokens',
  member: 'consentMembers',
  operation: 'operations',
  operationId: 'operations',
  snapshot: 'snapshots',
}

/** Form template fields that meet every rule (docs/behaviour-notes.md "Form templates and forms"). */
const GOOD_FIELDS = [
  [
    { id: 'root', type: 'section', label: '', fields: ['name', 'pet'] },
    { id: 'name', type: 'text', label: 'Full name', validation: ['required'] },
    { id: 'pet', type: 'radio', label: { value: 'A pet?', options: ['Yes', 'No'] } },
  ],
  [
    { id: 'main', type: 'section', label: 'About you', fields: ['intro', 'when', 'proof', 'pets'] },
    { id: 'intro', type: 'heading', label: 'Tell us more' },
    { id: 'when', type: 'textarea', label: 'Since when?' },
    { id: 'proof', type: 'document', label: 'Proof of address', validation: ['required'] },
    { id: 'pets', type: 'checkbox', label: { value: 'Which pets?', options: ['Cat', 'Dog'] }, show_if: null },
  ],
]

const oauthRef = (pool: string) => new PoolRef(pool, 0, 'string')
/** Token requests whose client, secret, redirect and code (or refresh token) go together. */
const GOOD_TOKEN_REQUESTS = [
  { grant_type: 'authorization_code', client_id: oauthRef('oauthClients'), client_secret: oauthRef('oauthSecrets'), redirect_uri: oauthRef('oauthRedirects'), code: oauthRef('oauthCodes') },
  { grant_type: 'refresh_token', client_id: oauthRef('oauthClients'), client_secret: oauthRef('oauthSecrets'), refresh_token: oauthRef('refreshTokens') },
]

/** Faults whose parts fit together (docs/control-api.md "Faults on demand"): the rules no schema states. */
const GOOD_FAULTS = [
  { operationId: 'clients.get', status: 503, times: 2 },
  { method: 'GET', path: '/clients', status: 429, retry_after: 2 },
  { operationId: 'records.create', delay_ms: 5, times: null },
  { operationId: 'status.get', drop: true },
  { operationId: 'clients.create', body: { email: 'a@example.com' }, status: 500, response_body: { message: 'Server Error' } },
]

/** Properties that are arrays of ids: the pool gives their items. */
const ARRAY_POOLS = new Set(['team_members'])

/** Pools whose values are strings (the rest hold integer ids). */
const STRING_POOLS = new Set(['formTemplates', 'oauthClients', 'oauthSecrets', 'oauthRedirects', 'tokens', 'oauthCodes', 'refreshTokens', 'consentMembers', 'operations'])

/** OAuth pools: a client's id, secret, redirect and code go together when their indexes agree, so keep them mostly 0. */
const OAUTH_POOLS = new Set(['oauthClients', 'oauthSecrets', 'oauthRedirects', 'oauthCodes'])

const poolRef = (pool: string): fc.Arbitrary<PoolRef> =>
  (OAUTH_POOLS.has(pool) ? fc.constantFrom(0, 0, 0, 1) : fc.nat({ max: 7 })).map((index) => new PoolRef(pool, index, STRING_POOLS.has(pool) ? 'string' : 'integer'))

/** Ids from the caller's team most of the time, what the schema alone makes otherwise. */
function hintFor(op: OperationContract): Hint {
  return (path, fromSchema) => {
    const last = path.at(-1)
    const name = last === '*' ? path.at(-2) : last
    // team_members holds ids: the pool is for its items, not for the array.
    if (name !== undefined && ARRAY_POOLS.has(name) !== (last === '*')) return undefined
    const document = path.includes('preferences') && name === 'template'
    if (op.id === 'clients.organisations.add' || op.id === 'clients.organisations.replace') {
      if (path.length === 1 && path[0] === '*') return withSometimesRandom(poolRef('organisations'))
    }
    if (op.id === 'cases.items.update' && path.join('.') === '*.id') return withSometimesRandom(poolRef('records'))
    // A form template's fields must also meet rules no schema states (a section first, ids that
    // exist): a known good set half the time, so that creates and updates succeed too.
    if (op.tag === 'Libraries' && path.join('.') === 'fields') return fc.oneof(fc.constantFrom(...GOOD_FIELDS), fromSchema())
    if (op.id === 'control.teams.create' && path[0] === 'generate' && path.length === 2) return fc.integer({ min: path[1] === 'credit_entries' ? 1 : 0, max: 3 })
    // The fuzz teams' tokens last a year from the start: a longer advance would lock every caller out.
    if (op.id === 'control.clock.advance' && name === 'seconds') return fc.oneof(fc.integer({ min: 0, max: 3600 }), fc.integer({ min: 0, max: 200 * 86_400 }))
    if (name === 'url' && op.tag === 'Webhooks') return fc.webPath().map((rest) => `${NOWHERE}${rest.startsWith('/') ? rest : `/${rest}`}`.slice(0, 200))
    if (name === 'grant_type') return fc.constantFrom('authorization_code', 'refresh_token')
    if (name === 'response_type') return fc.constantFrom('code', 'code', 'token')
    if (op.id === 'clients.files.create' && name === 'template') return withSometimesRandom(poolRef('documentTemplates'))
    // A token request succeeds only with all of its parameters agreeing: half of them are such.
    if (op.id === 'oauth.token' && path.length === 0) return fc.oneof(fc.constantFrom(...GOOD_TOKEN_REQUESTS), fromSchema())
    if (op.id === 'control.faults.create' && path.length === 0) return fc.oneof(fc.constantFrom(...GOOD_FAULTS), fromSchema())
    if (document) return withSometimesRandom(fc.oneof(poolRef('documentTemplates'), poolRef('documents'), poolRef('attachments')))
    const pool = name === undefined ? undefined : ID_POOLS[name]
    if (pool === undefined) return undefined
    if (name === 'client_id' && op.surface === 'api') return undefined
    return withSometimesRandom(poolRef(pool))
  }
}

/** A pool's value, or (one time in ten) an id or reference that is probably nobody's. */
function withSometimesRandom(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 9, arbitrary }, { weight: 1, arbitrary: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.uuid(), fc.constant(2 ** 31)) })
}

function bodyArbitrary(op: OperationContract, schemas: SchemaArbitraries, friendly: boolean): fc.Arbitrary<BodyInput | undefined> {
  if (op.multipart) {
    const files = [...ACCEPTED.map((file) => file.kind), ...REFUSED.map((file) => file.kind)]
    const name = fc.oneof(fc.constantFrom('contract.pdf', 'photo.jpg', '\ud800.pdf', 'a\u0000b.txt', '..%2F..%2Fpasswd', 'x'.repeat(300), ' .txt', ''), fc.string({ maxLength: 20 }))
    if (friendly) return fc.record({ kind: fc.constant('multipart' as const), field: fc.constant('attachment'), name, file: fc.constantFrom(...ACCEPTED.map((file) => file.kind)) })
    return fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('multipart' as const), field: fc.constantFrom('attachment', 'attachment', 'attachment', 'file'), name, file: fc.constantFrom(...files) }) },
      { weight: 1, arbitrary: fc.constantFrom(...MALFORMED).map((text) => ({ kind: 'raw' as const, text })) },
    )
  }
  if (op.form) {
    const validate = contracts.formValidator(op.id)
    if (!validate) throw new Error(`${op.id}: no form validator`)
    const node = { schema: op.form, base: OPERATIONS_BASE }
    if (friendly) return schemas.valid(node).map((value) => ({ kind: 'form' as const, value: (value ?? {}) as Record<string, unknown> }))
    return fc.oneof(
      { weight: 3, arbitrary: schemas.valid(node) },
      { weight: 2, arbitrary: schemas.invalid(node, validate).map((mutant) => mutant.value) },
    ).map((value) => ({ kind: 'form' as const, value: (value ?? {}) as Record<string, unknown> }))
  }
  if (!op.body) {
    // An operation without a body ignores one; now and then it gets one anyway.
    if (op.method === 'GET' || friendly) return fc.constant(undefined)
    return fc.option(fc.jsonValue({ maxDepth: 2 }).map((value) => ({ kind: 'json' as const, value })), { freq: 6 }).map((body) => body ?? undefined)
  }
  const validate = contracts.bodyValidator(op.id)
  if (!validate) throw new Error(`${op.id}: no body validator`)
  const node = { schema: op.body, base: OPERATIONS_BASE }
  const valid = schemas.valid(node).map((value) => ({ kind: 'json' as const, value }))
  if (friendly) return valid
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: schemas.invalid(node, validate).map((mutant: Mutant) => ({ kind: 'json' as const, value: mutant.value, broken: { at: mutant.at, breaks: mutant.breaks } })) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED).map((text) => ({ kind: 'raw' as const, text })) },
  )
}

function queryArbitrary(op: OperationContract, schemas: SchemaArbitraries, friendly: boolean): fc.Arbitrary<Record<string, unknown>> {
  const schema = contracts.querySchema(op.id)
  if (Object.keys(schema.properties as object).length === 0) return fc.option(fc.dictionary(fc.constantFrom('page', 'limit', 'zz_unknown'), fc.string({ maxLength: 4 }), { maxKeys: 2 }), { freq: 5 }).map((query) => query ?? {})
  const validate = contracts.queryValidator(op.id)
  const node = { schema, base: OPERATIONS_BASE }
  if (friendly) return schemas.valid(node) as fc.Arbitrary<Record<string, unknown>>
  return fc.oneof(
    { weight: 4, arbitrary: schemas.valid(node) },
    { weight: 1, arbitrary: schemas.invalid(node, validate).map((mutant) => mutant.value) },
  ) as fc.Arbitrary<Record<string, unknown>>
}

/**
 * Requests to one operation, generated from its contract. A friendly one is what the contract calls
 * valid, from the owner, on the caller's own ids: the kind that gets past validation.
 */
export function requestArbitrary(op: OperationContract, friendly = false): fc.Arbitrary<FuzzRequest> {
  const schemas = new SchemaArbitraries(contracts, hintFor(op))
  const uuidPath = op.pathParams.some((name) => contracts.parameters[name]?.type !== 'integer')
  const missing = uuidPath ? fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', '0')) : fc.constantFrom('0', '987654321', '99999999999999999999', '2147483648', 'abc', '1e3')
  const who: fc.Arbitrary<Who> = op.surface !== 'api' ? fc.constant('no token') : friendly ? fc.constant('owner') : fc.oneof(...ROLE_WEIGHTS.map(([role, weight]) => ({ weight, arbitrary: fc.constant(role) })))
  const target: fc.Arbitrary<Target> =
    op.pathParams.length === 0 || friendly ? fc.constant('own') : fc.oneof({ weight: 8, arbitrary: fc.constant('own' as const) }, { weight: 1, arbitrary: fc.constantFrom('foreign' as const, 'missing' as const) })
  return fc.record(
    {
      op: fc.constant(op.id),
      who,
      target,
      picks: fc.array(fc.nat({ max: 30 }), { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
      missing,
      query: queryArbitrary(op, schemas, friendly),
      body: bodyArbitrary(op, schemas, friendly),
    },
    { requiredKeys: ['op', 'who', 'target', 'picks', 'missing', 'query'] },
  )
}

/** The pool an id in the path comes from: the list of the path up to it, or a pool by name. */
function pathPool(op: OperationContract, index: number, prefix: string): string {
  // The control API's team operations act on teams no judged request uses (faults made there never apply to one).
  if (op.surface === 'control' && op.path.startsWith('/teams/')) return index === 0 ? 'disposableTeams' : `${SURFACES.control.base}${prefix}`
  const collection = prefix.split('/').at(-1)
  if (collection === 'teams') return 'teams'
  if (collection === 'checks') return 'checks'
  if (collection === 'attachments') return 'attachments'
  return `${SURFACES.api.base}${prefix}`
}

/** The client a request is sent with. */
function clientFor(world: FuzzWorld, op: OperationContract, who: Who): ApiClient {
  if (op.surface === 'control') return world.control
  if (op.surface === 'oauth') return world.oauth
  const tokens = world.template.own.tokens
  switch (who) {
    case 'oauth':
      return world.api('own', world.template.oauthToken)
    case 'no token':
      return world.api('own').as(undefined)
    case 'unknown token':
      return world.api('own', 'ivs_not_a_token_of_anyone')
    default:
      return world.api('own', tokens[who])
  }
}

async function fill(world: FuzzWorld, value: unknown): Promise<unknown> {
  const refs: PoolRef[] = []
  fillPoolRefs(value, (ref) => refs.push(ref))
  const filled = new Map<PoolRef, unknown>()
  for (const ref of refs) filled.set(ref, await world.fill(ref))
  return fillPoolRefs(value, (ref) => filled.get(ref))
}

const stringify = (value: unknown): string => (Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value))

/** Sends a request to the world and answers what was sent and what came back. */
export async function send(world: FuzzWorld, request: FuzzRequest): Promise<Exchange> {

  const op = contracts.operation(request.op)
  let path = op.path
  let ownPath = true
  for (const [index, name] of op.pathParams.entries()) {
    const placeholder = `{${name}}`
    const prefix = path.slice(0, path.indexOf(placeholder) - 1)
    let value: string
    if (request.target === 'missing' && index === op.pathParams.length - 1) {
      value = request.missing
      ownPath = false
    } else {
      const team = request.target === 'foreign' ? 'foreign' : 'own'
      const pool = await world.pool(pathPool(op, index, prefix), team)
      if (pool.length === 0 || team === 'foreign') ownPath = false
      const pick = request.picks[index] ?? 0
      value = pool.length === 0 ? request.missing : String(pool[pick % pool.length])
      // A parent whose child list is empty makes the child a 404 every time: try the next few parents.
      const child = op.pathParams[index + 1]
      for (let next = 1; child !== undefined && next < Math.min(pool.length, 4); next++) {
        const childPrefix = op.path.slice(0, op.path.indexOf(`{${child}}`) - 1).replace(placeholder, value)
        if (contracts.parameters[child] && pathPool(op, index + 1, childPrefix).startsWith('/') && (await world.pool(pathPool(op, index + 1, childPrefix), team)).length > 0) break
        value = String(pool[(pick + next) % pool.length])
      }
    }
    path = path.replace(placeholder, encodeURIComponent(value))
  }

  const queryObject = (await fill(world, request.query)) as Record<string, unknown>
  const query = Object.fromEntries(Object.entries(queryObject).map(([name, value]) => [name, stringify(value)]))
  const search = new URLSearchParams(query)
  const querySchema = contracts.querySchema(op.id)
  const queryValid = contracts.queryValidator(op.id)(readQuery(search, queryShapeOf(querySchema)))

  const client = clientFor(world, op, request.who)
  const headers: Record<string, string> = {}
  let body: unknown
  let raw: string | undefined
  let sentBody: string | undefined
  let bodyValid = true
  const input = request.body
  if (input === undefined && op.body) {
    // No body at all reads as {}.
    const validate = contracts.bodyValidator(op.id)
    bodyValid = validate ? passes(validate, {}) : true
  } else if (input?.kind === 'json') {
    body = await fill(world, input.value)
    sentBody = JSON.stringify(body)
    const validate = contracts.bodyValidator(op.id)
    bodyValid = validate ? passes(validate, body) : true
  } else if (input?.kind === 'raw') {
    raw = input.text
    sentBody = raw
    headers['Content-Type'] = 'application/json'
    const validate = contracts.bodyValidator(op.id)
    bodyValid = validate ? parsesAndPasses(raw, (parsed) => passes(validate, parsed)) : true
  } else if (input?.kind === 'form') {
    const form = (await fill(world, input.value)) as Record<string, unknown>
    const fields = Object.fromEntries(Object.entries(form ?? {}).map(([name, value]) => [name, stringify(value)]))
    raw = new URLSearchParams(fields).toString()
    sentBody = raw
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    const validate = contracts.formValidator(op.id)
    bodyValid = validate ? passes(validate, normalizeInput(fields)) : true
  } else if (input?.kind === 'multipart') {
    const file = [...ACCEPTED, ...REFUSED].find((candidate) => candidate.kind === input.file) ?? ACCEPTED[0]
    const form = new FormData()
    form.append(input.field, new Blob([file?.bytes ?? new Uint8Array()], { type: 'application/octet-stream' }), input.name)
    body = form
    sentBody = `multipart: ${input.field}=${JSON.stringify(input.name)} (${input.file})`
    bodyValid = input.field === 'attachment'
  }
  const url = `${client.base}${path}${search.size > 0 ? `?${search.toString()}` : ''}`
  let response: ApiResponse
  try {
    response = await client.request(op.method, path, { query, ...(body !== undefined ? { body } : {}), ...(raw !== undefined ? { raw } : {}), headers })
  } catch (error) {
    // The test client found the answer outside its contract: say what was sent.
    const who = op.surface === 'api' ? ` as ${request.who}` : ''
    throw new Error(`${op.method} ${url}${who}${sentBody === undefined ? '' : `\n  body: ${sentBody.slice(0, 1500)}`}\n${(error as Error).message}`, { cause: error })
  }
  if (response.status === 201 && response.body?.object === 'attachment') world.remember('attachments', response.body.id)
  return { request, method: op.method, url, sentBody, ownPath, queryValid, bodyValid, response }
}

function parsesAndPasses(text: string, check: (value: unknown) => boolean): boolean {
  if (text.trim() === '') return check({})
  try {
    return check(JSON.parse(text))
  } catch {
    return false
  }
}

/** The request as sent, for a failure message that replays by hand. */
export function describeExchange(exchange: Exchange): string {
  const who = exchange.request.who
  const lines = [`${exchange.method} ${exchange.url}${contracts.operation(exchange.request.op).surface === 'api' ? ` as ${who}` : ''}`]
  if (exchange.sentBody !== undefined) lines.push(`  body: ${exchange.sentBody.slice(0, 1500)}`)
  lines.push(`  -> ${exchange.response.status} ${exchange.response.text.slice(0, 1500)}`)
  return lines.join('\n')
}

/**
 * What every answer must be, beyond its contract (the test client has checked that): never a 5xx;
 * a path no route matches, 404; no token, or one the clock has expired, 401; ids of another team or of nobody, never a success and never a 422 (the path is
 * looked up first); input that breaks its contract, never a success, and from an owner on their
 * own ids a 422 naming the broken place; and read-only
 * members change nothing but their own profile. Returns what is wrong, or undefined.
 */
export function judge(exchange: Exchange, tokensExpired = false): string | undefined {
  const { request, response } = exchange
  const op = contracts.operation(request.op)
  const status = response.status
  const success = status >= 200 && status < 400 && !(op.surface === 'oauth' && isOAuthErrorRedirect(response))
  if (status >= 500) return `a ${status}`
  // An id that is not a number matches no route: the router's 404 comes before everything else.
  if (response.operation === undefined) return status === 404 ? undefined : `${status} for a path no route matches (expected 404)`
  if (op.surface === 'api' && (request.who === 'no token' || request.who === 'unknown token')) return status === 401 ? undefined : `${status} without a valid token (expected 401)`
  if (op.surface === 'api' && tokensExpired) return status === 401 ? undefined : `${status} with a token the clock has expired (expected 401)`
  if (request.target !== 'own' && op.surface === 'api') {
    if (success) return `${status} for ${request.target === 'foreign' ? "another team's id" : 'an id nobody has'} in the path`
    if (status === 422) return `422 for ${request.target === 'foreign' ? "another team's id" : 'an id nobody has'} in the path (the path is looked up before the input is validated)`
  }
  if (request.target === 'missing' && op.surface === 'control' && success) return `${status} for an id nobody has in the path`
  const inputValid = exchange.queryValid && exchange.bodyValid
  if (!inputValid && success) return `${status} for input that breaks the contract${brokenAt(request)}`
  if (!inputValid && op.surface !== 'oauth' && exchange.ownPath && (op.surface === 'control' || request.who === 'owner' || request.who === 'assumed')) {
    if (status !== 422) return `${status} for input that breaks the contract${brokenAt(request)} (expected 422)`
    const broken = request.body?.kind === 'json' ? request.body.broken?.at : undefined
    const keys = Object.keys(response.body as object)
    if (broken !== undefined && exchange.queryValid && broken !== '' && !keys.some((key) => key === 'errors' || key === broken || key.startsWith(`${broken}.`) || broken.startsWith(`${key}.`))) {
      return `422 does not name ${broken}, the place that breaks the contract (it names ${keys.join(', ')})`
    }
  }
  if (op.surface === 'api' && request.who === 'read-only' && op.method !== 'GET' && op.id !== 'me.update' && success) return `${status}: a read-only member changed something`
  return undefined
}

/** OAuth answers a denied consent with a redirect carrying error=...: not a success. */
function isOAuthErrorRedirect(response: ApiResponse): boolean {
  return /[?&]error=/.test(response.headers.get('location') ?? '')
}

function brokenAt(request: FuzzRequest): string {
  const body = request.body
  if (body?.kind === 'json' && body.broken) return ` (${body.broken.breaks} at ${body.broken.at || 'the body'})`
  if (body?.kind === 'raw') return ' (a body that is not the JSON asked for)'
  return ''
}
