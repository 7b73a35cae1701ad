// Routes are registered by operationId: method and path come from contracts/, so a route can
// never drift from its contract. Before the handler runs, the operation's gate checks the token,
// what the path names and the caller's role, then validates the query and body against the same
// contract, in the order Laravel reports them. The handler gets its input typed from the contract
// (src/contracts/generated.ts) and returns the answer; the gate sends it with the contract's
// success status.
import { Hono, type Context } from 'hono'
import type { Operations } from '../contracts/generated.ts'
import type { ValidateFunction } from 'ajv'
import type { Contracts, JsonSchema, OperationContract } from '../contracts/load.ts'
import type { Binary } from '../contracts/binary.ts'
import { DEFAULT_MAX_BODY_BYTES, requestBodyText } from './body.ts'
import type { KernelEnv } from './env.ts'
import { forbidden, invalid, unauthenticated, type ValidationErrors } from './errors.ts'
import { expandOf, type Expand } from './expand.ts'
import { discardFiles, receiveMultipart, type MultipartBody, type UploadTarget } from './multipart.ts'
import type { AnswerCache, AnswerStamp, ChangeCount } from './answer-cache.ts'
import { jsonBody } from './json-text.ts'
import { binary, json, jsonText, noContent } from './respond.ts'
import { queryShapeOf, readQuery } from '../contracts/request.ts'
import { attributeName, bodyErrors, checkQuery, mergeErrors, parseJsonBody, passedSchema } from './validate.ts'

export type OperationId = keyof Operations

/** '/clients/{clientId}/files/{fileId}' -> '/clients/:clientId{[0-9]+}/files/:fileId{[0-9]+}' */
export function honoPath(path: string, parameters: Record<string, JsonSchema>): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    parameters[name]?.type === 'integer' ? `:${name}{[0-9]+}` : `:${name}`,
  )
}

type Params<Id extends OperationId> = Operations[Id]['params']

export interface HandlerInput<P, Id extends OperationId, F> {
  ctx: P
  /** Path parameters, integers already numbers. */
  params: Params<Id>
  /** The validated query, defaults filled in (page, limit, order_by, sort_by). */
  query: Operations[Id]['query']
  /** The validated, normalised JSON body. */
  body: Operations[Id]['body']
  /**
   * The multipart body of an operation whose contract has one: its files saved on disk (required
   * ones checked to be there). A file the handler does not move away is deleted after it answers.
   */
  upload: MultipartBody | undefined
  expand: Expand
  /** The request as received (content negotiation reads its Accept header). */
  request: Request
  /** The request's absolute URL (pagination links). */
  url: string
  /** The API's absolute base URL as the caller reached it, e.g. http://127.0.0.1:4010/api/v2 (links in answers). */
  baseUrl: string
  /** What the operation's find returned: the resource the path names. */
  found: F
}

export interface RulesInput<P, Id extends OperationId, F> {
  ctx: P
  /** The coerced body: only its parts that passed the schema have the contract's types. */
  body: Operations[Id]['body']
  /** Whether a key of the body ('client', 'steps.0') passed the schema, with everything inside it. */
  passed: (key: string) => boolean
  found: F
}

/** The answer: a body for the contract's 200/201, nothing (void) for its 204, or a Binary. */
export type Answer<Id extends OperationId> = Operations[Id]['success']

export type Handler<P, Id extends OperationId, F> = (input: HandlerInput<P, Id, F>) => Answer<Id> | Promise<Answer<Id>>

export interface OperationOptions<P, Id extends OperationId, F> {
  /**
   * Looks up what the path names and throws its 404 (or 403 for something the caller may not
   * see), returning it to the handler: like Laravel's route binding, this comes before the input
   * is validated.
   */
  find?: (ctx: P, params: Params<Id>) => F
  /** A role check that answers 403 before the input is validated, like FormRequest::authorize. */
  authorize?: (ctx: P, found: F) => boolean
  /**
   * The operation's rules that its contract cannot state (Laravel's exists and unique rules, and
   * rules on the team's state), run on the coerced body even when the schema failed other keys,
   * so that every failing key comes back in one 422 (docs/behaviour-notes.md "Validation (422)"). A rule reads only
   * the parts of the body that `passed` the schema (the rest may have any shape), and like
   * Laravel's exists rule says nothing about a key that already failed.
   */
  rules?: (input: RulesInput<P, Id, F>) => ValidationErrors
  /** Where the files of a multipart body go, and how large one may be (required with a multipart contract). */
  upload?: (ctx: P) => UploadTarget
}

export interface RoutesOptions<P> {
  /** Where the routes are mounted (the API base, /api/v2): answers link to `origin + base + path`. */
  base?: string
  /** Whether the caller may use an operation that changes state (any method but GET); 403 if not. */
  mayWrite?: (principal: P, op: OperationContract) => boolean
  /**
   * Runs once the caller is identified, before the operation looks anything up: an answer of its
   * own instead of the operation's (a fault, kernel/faults.ts), or undefined to let it run.
   */
  intercept?: (c: Context<KernelEnv<P>>, principal: P, op: OperationContract) => Response | Promise<Response | undefined> | undefined
  /** The largest JSON body read (DEFAULT_MAX_BODY_BYTES by default); a larger one is the 413 page. */
  maxBodyBytes?: number
  /**
   * GET answers kept whole while nothing has changed (kernel/answer-cache.ts), by operation, URL
   * and `caller`: who asks, as far as any answer tells callers apart; `changes`: the change count
   * of the caller's team, which the answer is stamped with.
   */
  answers?: { cache: AnswerCache; caller: (principal: P) => string; changes: (principal: P) => ChangeCount }
}

/** Where a GET's answer is kept, and what it is made at. */
interface KeptAs {
  key: string
  stamp: AnswerStamp
}

/** An operation's route handler: the gate, then the handler, answered. */
export type Gate<P> = (c: Context<KernelEnv<P>>) => Response | Promise<Response>

const isBinary = (answer: unknown): answer is Binary => typeof answer === 'object' && answer !== null && (answer as Binary).kind === 'binary'

export class Routes<P> {
  readonly app = new Hono<KernelEnv<P>>()
  private readonly gates: Array<{ method: string; path: string; gate: Gate<P> }> = []

  constructor(
    private readonly contracts: Contracts,
    private readonly options: RoutesOptions<P> = {},
  ) {}

  /** Serves an operation: 401, then find (404), then the role checks (403), then query and body (422). */
  handle<Id extends OperationId>(operationId: Id, handler: Handler<P, Id, undefined>): void
  handle<Id extends OperationId, F>(operationId: Id, options: OperationOptions<P, Id, F>, handler: Handler<P, Id, F>): void
  handle<Id extends OperationId, F>(operationId: Id, ...args: [Handler<P, Id, F>] | [OperationOptions<P, Id, F>, Handler<P, Id, F>]): void {
    const [options, handler] = args.length === 1 ? [{} as OperationOptions<P, Id, F>, args[0]] : args
    const contracts = this.contracts
    const op = contracts.operation(operationId)
    const shape = queryShapeOf(contracts.querySchema(operationId))
    const integerParams = op.pathParams.filter((name) => contracts.parameters[name]?.type === 'integer')
    const answersWith = successStatuses(op)
    const mayWrite = op.method === 'GET' ? undefined : this.options.mayWrite
    const sortDefault = op.sort?.default
    const multipart = contracts.multipartFields(operationId)
    const uploadTarget = options.upload
    const rules = options.rules
    const bodyKeyOrder = rules ? contracts.bodyProperties(operationId) : []
    if (multipart && !uploadTarget) throw new Error(`${operationId}: a multipart operation needs an upload target`)
    const fileFields = new Set(multipart?.files)
    const base = this.options.base ?? ''
    const maxBodyBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    // Validators compile on first use (start-up stays fast) and are kept here, off the per-request path.
    let queryValidator: ValidateFunction | undefined
    let bodyValidator: ValidateFunction | undefined
    const answers = op.method === 'GET' && answersWith.body !== undefined ? this.options.answers : undefined

    const answer = (c: Context<KernelEnv<P>>, result: unknown, keptAs?: KeptAs): Response => {
      if (result === undefined) {
        if (!answersWith.empty) throw new Error(`${operationId}: the handler answered nothing, but the contract has no 204`)
        return noContent(c)
      }
      if (answersWith.body === undefined) throw new Error(`${operationId}: the handler answered a body, but the contract has only a 204`)
      if (isBinary(result)) return binary(c, result, answersWith.body)
      if (keptAs === undefined || answers === undefined) return json(c, result, answersWith.body)
      const text = jsonBody(result, true)
      // Only an item's or a page's bytes are kept: json-text keeps those already, so a kept answer costs a key.
      if (typeof text !== 'string') answers.cache.keep(keptAs.key, text, keptAs.stamp)
      return jsonText(c, text, answersWith.body)
    }

    /** Everything but reading the body, so an operation without one stays synchronous. */
    const serve = (
      c: Context<KernelEnv<P>>,
      readBody?: () => Promise<string>,
      receive?: (ctx: P) => Promise<MultipartBody>,
    ): Response | Promise<Response> => {
      c.set('operation', op)
      const ctx = c.get('principal')
      if (ctx === undefined) throw unauthenticated()
      const url = c.req.url
      let keptAs: KeptAs | undefined
      if (answers !== undefined && c.req.method === 'GET') {
        const key = `${operationId}\u0000${answers.caller(ctx)}\u0000${url}`
        const changes = answers.changes(ctx)
        const kept = answers.cache.find(key, changes)
        if (kept !== undefined) return jsonText(c, kept, answersWith.body)
        keptAs = { key, stamp: answers.cache.stamp(changes) }
      }
      const params: Record<string, string | number> = c.req.param()
      for (const name of integerParams) params[name] = Number(params[name])
      const found = options.find?.(ctx, params) as F
      if (mayWrite && !mayWrite(ctx, op)) throw forbidden(`the caller may not change anything (read-only), so not ${op.id}`)
      if (options.authorize && !options.authorize(ctx, found)) throw forbidden(`the caller's role (or team) may not use ${op.id}`)
      const start = url.indexOf('?')
      queryValidator ??= contracts.queryValidator(operationId)
      const query = checkQuery(queryValidator, start === -1 ? {} : readQuery(new URLSearchParams(url.slice(start + 1)), shape))
      if (sortDefault !== undefined) query.sort_by ??= sortDefault
      const input = {
        ctx,
        params,
        query,
        body: undefined,
        upload: undefined,
        expand: expandOf(query),
        request: c.req.raw,
        url,
        // A plain property: an accessor here would cost more than the whole lookup (measured).
        baseUrl: `${url.slice(0, url.indexOf('/', url.indexOf('//') + 2))}${base}`,
        found,
      } as HandlerInput<P, Id, F>
      const run = (): Response | Promise<Response> => {
        const result = handler(input)
        return result instanceof Promise ? result.then((value) => answer(c, value, keptAs)) : answer(c, result, keptAs)
      }
      if (receive) {
        return receive(ctx).then(async (upload) => {
          input.upload = upload
          try {
            const missing = missingFields(upload, multipart?.required ?? [], fileFields)
            if (missing) throw invalid(missing)
            return await run()
          } finally {
            discardFiles(upload)
          }
        })
      }
      if (!readBody) return run()
      bodyValidator ??= contracts.bodyValidator(operationId)
      const validate = bodyValidator as ValidateFunction
      return readBody().then((text) => {
        const body = parseJsonBody(text) as Operations[Id]['body']
        let errors = bodyErrors(validate, body)
        const passed = passedSchema(errors)
        if (rules && errors.errors === undefined) errors = mergeErrors(errors, rules({ ctx, body, passed, found }), bodyKeyOrder)
        if (Object.keys(errors).length > 0) throw invalid(errors)
        input.body = body
        return run()
      })
    }

    const route =
      op.body !== undefined
        ? (c: Context<KernelEnv<P>>) =>
            serve(c, () => requestBodyText(c, maxBodyBytes))
        : uploadTarget
          ? (c: Context<KernelEnv<P>>) => serve(c, undefined, (ctx) => receiveMultipart(c.req.raw, fileFields, uploadTarget(ctx)))
          : (c: Context<KernelEnv<P>>) => serve(c)
    const intercept = this.options.intercept
    const gate: Gate<P> = intercept
      ? (c: Context<KernelEnv<P>>) => {
          const ctx = c.get('principal')
          // Without a caller the operation answers its 401.
          const own = ctx === undefined ? undefined : intercept(c, ctx, op)
          if (own === undefined) return route(c)
          if (own instanceof Response) {
            c.set('operation', op)
            return own
          }
          return own.then((answer) => {
            if (answer === undefined) return route(c)
            c.set('operation', op)
            return answer
          })
        }
      : route
    const path = honoPath(op.path, contracts.parameters)
    this.app.on(op.method, path, gate)
    this.gates.push({ method: op.method, path, gate })
  }

  /**
   * Serves every operation on `app` at the routes' base, each gate run by `around` as its route's
   * only handler: Hono answers a route that has one handler by calling it, and a synchronous answer
   * stays synchronous all the way to the socket, where a middleware level (app.use) would send
   * every request through Hono's chain of promises and the adapter's slower path for a promise.
   */
  serveOn(app: Hono<KernelEnv<P>>, around: (c: Context<KernelEnv<P>>, gate: Gate<P>) => Response | Promise<Response>): void {
    const base = this.options.base ?? ''
    for (const { method, path, gate } of this.gates) app.on(method, `${base}${path}`, (c) => around(c, gate))
  }
}

/** Laravel's required and file rules on a multipart body: a required field left out, or a file field sent as text. */
function missingFields(upload: MultipartBody, required: readonly string[], fileFields: ReadonlySet<string>): ValidationErrors | undefined {
  const errors: ValidationErrors = {}
  for (const name of required) {
    if (upload.files.has(name)) continue
    const text = upload.fields.get(name)?.trim()
    if (text === undefined || text === '') errors[name] = [`The ${attributeName(name)} field is required.`]
    else if (fileFields.has(name)) errors[name] = [`The ${attributeName(name)} field must be a file.`]
  }
  return Object.keys(errors).length > 0 ? errors : undefined
}

/** The contract's success statuses: the one with a body (200 or 201) and whether 204 is one. */
function successStatuses(op: OperationContract): { body: number | undefined; empty: boolean } {
  const statuses = Object.entries(op.responses).filter(([status]) => status.startsWith('2'))
  const withBody = statuses.filter(([, response]) => response.body !== undefined || response.binary !== undefined)
  if (withBody.length > 1) throw new Error(`${op.id}: more than one success status with a body`)
  return { body: withBody[0] ? Number(withBody[0][0]) : undefined, empty: statuses.some(([status]) => status === '204') }
}
