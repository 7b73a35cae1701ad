// Faults on demand (the control API's /teams/{id}/faults): a team's API answers misbehave on
// purpose, so a client's error handling can be tested. A fault names an operation (and optionally a
// query or JSON body subset) and an effect: a status with a body, a delay, or a connection closed
// with no answer. The gate asks here once the caller is identified and before the operation runs;
// a team without faults costs one Map miss.
import { STATUS_CODES } from 'node:http'
import { isDeepStrictEqual } from 'node:util'
import type { Context } from 'hono'
import { jsonValueOf } from '../contracts/body.ts'
import type { MockFaultCreateJson, MockFaultJson } from '../contracts/generated.ts'
import type { Contracts, OperationContract } from '../contracts/load.ts'
import { requestBodyText } from './body.ts'
import type { KernelEnv } from './env.ts'
import { nginxPage, type ValidationErrors } from './errors.ts'
import { html, json } from './respond.ts'

export type FaultInput = MockFaultCreateJson

type AnyContext = Context<KernelEnv<any>>

/**
 * The status a dropped connection is recorded with (the journal): nginx's 444, which it logs when
 * it closes a connection without answering. It never reaches a client.
 */
export const DROPPED_STATUS = 444

interface Fault {
  id: number
  team: number
  op: OperationContract
  query: Record<string, string | string[]> | undefined
  body: unknown
  status: number | undefined
  responseBody: unknown
  retryAfter: number | undefined
  delayMs: number | undefined
  drop: boolean
  times: number | null
  remaining: number | null
  applied: number
  createdAt: string
}

/** The bodies the service's stack answers for a status when the fault gives none (docs/control-api.md "Faults on demand"). */
const DEFAULT_BODIES: Readonly<Record<number, unknown>> = {
  401: { error: 'Unauthenticated.' },
  403: { message: 'This action is unauthorized.' },
  404: { error: 'Not Found.' },
  422: { errors: ['The given data was invalid.'] },
  429: { message: 'Too Many Attempts.' },
  500: { message: 'Server Error' },
  503: { message: 'Service Unavailable' },
}

/** Statuses the web server in front of the application answers itself, with its own HTML page. */
const NGINX_TITLES: Readonly<Record<number, string>> = {
  413: '413 Request Entity Too Large',
  502: '502 Bad Gateway',
  504: '504 Gateway Time-out',
}

/** The answer's body when the fault gives none: the stack's own, else Laravel's {message: reason phrase}. */
function defaultBody(status: number): unknown {
  return DEFAULT_BODIES[status] ?? { message: STATUS_CODES[status] ?? 'Error' }
}

/** Whether a JSON value contains the subset: objects property by property (recursively), anything else exactly. */
function contains(value: unknown, subset: unknown): boolean {
  if (subset === null || typeof subset !== 'object' || Array.isArray(subset)) return isDeepStrictEqual(value, subset)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const object = value as Record<string, unknown>
  return Object.entries(subset).every(([key, part]) => key in object && contains(object[key], part))
}

function queryMatches(url: string, wanted: Record<string, string | string[]>): boolean {
  const start = url.indexOf('?')
  // Without a query string nothing is sent: only an empty subset matches (and no query is parsed on every request).
  if (start === -1) return Object.keys(wanted).length === 0
  const query = new URLSearchParams(url.slice(start + 1))
  return Object.entries(wanted).every(([name, value]) => {
    const sent = query.getAll(name)
    if (!Array.isArray(value)) return sent.includes(value)
    const values = sent.flatMap((item) => item.split(','))
    return value.every((item) => values.includes(item))
  })
}

/** The fault has an effect, and its effects fit together. */
function effectErrors(input: FaultInput): ValidationErrors {
  const errors: ValidationErrors = {}
  const drop = input.drop === true
  if (input.status === undefined && input.delay_ms === undefined && !drop) errors.status = ['The status field is required when delay_ms and drop are not present.']
  if (!drop && input.response_body !== undefined && input.status === undefined) errors.status = ['The status field is required when response body is present.']
  if (drop && (input.status !== undefined || input.response_body !== undefined || input.retry_after !== undefined)) {
    errors.drop = ['The drop field prohibits status, response_body and retry_after from being present.']
  }
  if (input.retry_after !== undefined && input.status !== 429) errors.retry_after = ['The retry after field is prohibited unless status is in 429.']
  return errors
}

export interface FaultOptions {
  /** The mock's clock, in milliseconds (X-RateLimit-Reset of a 429). */
  nowMs: () => number
  /** What a 429 says: the rate limit, and the window's seconds (the default Retry-After). */
  rateLimit: { limit: number; windowSeconds: number }
  /** The largest body read (the operations' limit), for a fault that matches a body subset. */
  maxBodyBytes: number
}

export class Faults {
  private readonly byTeam = new Map<number, Fault[]>()
  private sequence = 0

  constructor(
    private readonly contracts: Contracts,
    private readonly options: FaultOptions,
  ) {}

  /** The API operation a fault names, if it names one that exists. */
  private operationOf(input: FaultInput): OperationContract | undefined {
    if (input.operationId !== undefined) {
      const op = this.contracts.operations.get(input.operationId)
      return op?.surface === 'api' ? op : undefined
    }
    const path = input.path?.replace(/^\/api\/v2(?=\/)/, '')
    for (const op of this.contracts.operations.values()) if (op.surface === 'api' && op.method === input.method && op.path === path) return op
    return undefined
  }

  /**
   * The rules of a fault its schema cannot state, every failing key at once (422). Each group of
   * rules reads its keys only when they all `passed` the schema (the others may have any shape).
   */
  errors(input: FaultInput, passed: (key: string) => boolean): ValidationErrors {
    return {
      ...(['operationId', 'method', 'path', 'body'].every(passed) ? this.operationErrors(input) : {}),
      ...(['status', 'response_body', 'retry_after', 'delay_ms', 'drop'].every(passed) ? effectErrors(input) : {}),
    }
  }

  /** The fault names one API operation (by operationId, or by method and path), and a body subset only for one that reads a JSON body. */
  private operationErrors(input: FaultInput): ValidationErrors {
    const byPath = input.method !== undefined || input.path !== undefined
    if (input.operationId === undefined && !byPath) return { operationId: ['The operationId field is required when method and path are not present.'] }
    if (input.operationId !== undefined && byPath) return { operationId: ['The operationId field prohibits method and path from being present.'] }
    if (input.operationId === undefined && input.path === undefined) return { path: ['The path field is required when method is present.'] }
    if (input.operationId === undefined && input.method === undefined) return { method: ['The method field is required when path is present.'] }
    const op = this.operationOf(input)
    if (!op && input.operationId !== undefined) return { operationId: ['The selected operationId is invalid.'] }
    if (!op) return { path: [`The selected path is invalid: no API operation has ${input.method ?? ''} ${input.path ?? ''} (write the contract's path, such as /clients/{id}).`] }
    if (input.body !== undefined && op.body === undefined) return { body: [`The body field is prohibited: ${op.id} takes no JSON body.`] }
    return {}
  }

  /** Adds a fault the rules passed; createdAt is the mock's clock. */
  add(team: number, input: FaultInput, createdAt: string): MockFaultJson {
    const op = this.operationOf(input)
    if (!op) throw new Error('faults: add a fault only after its rules passed')
    const times = input.times === undefined ? 1 : input.times
    const fault: Fault = {
      id: ++this.sequence,
      team,
      op,
      query: input.query as Record<string, string | string[]> | undefined,
      body: input.body,
      status: input.status,
      responseBody: input.response_body,
      retryAfter: input.status === 429 ? (input.retry_after ?? this.options.rateLimit.windowSeconds) : undefined,
      delayMs: input.delay_ms,
      drop: input.drop === true,
      times,
      remaining: times,
      applied: 0,
      createdAt,
    }
    const faults = this.byTeam.get(team) ?? []
    faults.push(fault)
    this.byTeam.set(team, faults)
    return present(fault)
  }

  /** The team's faults still to apply, oldest first. */
  list(team: number): MockFaultJson[] {
    return (this.byTeam.get(team) ?? []).map(present)
  }

  /** Removes one fault of the team; false when it has none by that id. */
  remove(team: number, id: number): boolean {
    const faults = this.byTeam.get(team)
    const fault = faults?.find((candidate) => candidate.id === id)
    if (!faults || !fault) return false
    this.forget(faults, fault)
    return true
  }

  clear(team: number): void {
    this.byTeam.delete(team)
  }

  /**
   * The gate's step for a request of `team` that reached `op`: undefined when no fault applies (the
   * operation runs); otherwise the fault is counted, `c` gets what the app must do after the gate,
   * and the answer is the fault's (or undefined for a delay alone: the operation runs, late). A
   * fault with a body subset reads the JSON body first (the operation reads the same text: kernel/body.ts).
   */
  intercept(c: AnyContext, team: number, op: OperationContract): Response | Promise<Response | undefined> | undefined {
    const faults = this.byTeam.get(team)
    if (faults === undefined) return undefined
    const url = c.req.url
    const candidates = faults.filter((fault) => fault.op === op && (fault.query === undefined || queryMatches(url, fault.query)))
    const first = candidates[0]
    if (first === undefined) return undefined
    // The oldest candidate applies; only when it needs the body is the body read.
    if (first.body === undefined) return this.apply(c, faults, first)
    return requestBodyText(c, this.options.maxBodyBytes).then((text) => {
      const body = jsonValueOf(text)
      // Another request may have used a fault up while this body was read.
      const fault = candidates.find((candidate) => faults.includes(candidate) && (candidate.body === undefined || contains(body, candidate.body)))
      return fault && this.apply(c, faults, fault)
    })
  }

  private apply(c: AnyContext, faults: Fault[], fault: Fault): Response | undefined {
    fault.applied++
    if (fault.remaining !== null && --fault.remaining === 0) this.forget(faults, fault)
    c.set('fault', { delayMs: fault.delayMs ?? 0, drop: fault.drop, description: describe(fault) })
    if (fault.drop) return new Response(null, { status: DROPPED_STATUS })
    if (fault.status === undefined) return undefined
    return this.answer(c, fault.status, fault)
  }

  private answer(c: AnyContext, status: number, fault: Fault): Response {
    const headers: Record<string, string> = {}
    if (status === 429) {
      const retryAfter = fault.retryAfter as number
      headers['X-RateLimit-Limit'] = String(this.options.rateLimit.limit)
      headers['X-RateLimit-Remaining'] = '0'
      headers['Retry-After'] = String(retryAfter)
      headers['X-RateLimit-Reset'] = String(Math.ceil(this.options.nowMs() / 1000) + retryAfter)
    }
    if (fault.responseBody !== undefined) return json(c, fault.responseBody, status, headers)
    const title = NGINX_TITLES[status]
    return title ? html(c, nginxPage(title), status, headers) : json(c, defaultBody(status), status, headers)
  }

  private forget(faults: Fault[], fault: Fault): void {
    faults.splice(faults.indexOf(fault), 1)
    if (faults.length === 0) this.byTeam.delete(fault.team)
  }
}

/** What the fault did, for the journal: "fault 3 (clients.get): answered 503, held 200 ms". */
function describe(fault: Fault): string {
  const effects: string[] = []
  if (fault.drop) effects.push('closed the connection without an answer')
  if (fault.status !== undefined) effects.push(`answered ${fault.status}${fault.retryAfter === undefined ? '' : ` with Retry-After ${fault.retryAfter}`} instead of running the operation`)
  if (fault.delayMs !== undefined) effects.push(`held the answer ${fault.delayMs} ms`)
  return `fault ${fault.id} (${fault.op.id}): ${effects.join(', ')}`
}

function present(fault: Fault): MockFaultJson {
  return {
    object: 'mock_fault',
    id: fault.id,
    team: fault.team,
    operationId: fault.op.id,
    method: fault.op.method,
    path: fault.op.path,
    query: fault.query ?? null,
    body: fault.body ?? null,
    status: fault.status ?? null,
    response_body: fault.responseBody ?? null,
    retry_after: fault.retryAfter ?? null,
    delay_ms: fault.delayMs ?? null,
    drop: fault.drop,
    times: fault.times,
    remaining: fault.remaining,
    applied: fault.applied,
    created_at: fault.createdAt,
  }
}

/**
 * What a dropped connection looks like in process (app.request(), app.fetch()): the rejection
 * Node's fetch gives when the server closes the connection without answering.
 */
export class ConnectionDropped extends TypeError {
  constructor(description: string) {
    super('fetch failed', { cause: new Error(`the mock closed the connection without an answer: ${description}`) })
  }
}

/** Closes the request's connection with no answer: the socket is destroyed, or in process the fetch rejects. */
export function dropConnection(c: AnyContext, description: string): void {
  const socket = c.env?.incoming?.socket
  if (!socket) throw new ConnectionDropped(description)
  socket.destroy()
}

/** A delay range for every answer (serve --latency), in milliseconds of real time. */
export interface Latency {
  minMs: number
  maxMs: number
}

/**
 * Draws each answer's delay uniformly from the range. Math.random, not the seeded random: the
 * world's uuids and secrets stay the same with or without --latency.
 */
export function latencyDraw(latency: Latency | undefined): () => number {
  if (!latency) return () => 0
  const { minMs, maxMs } = latency
  return minMs === maxMs ? () => minMs : () => minMs + Math.floor(Math.random() * (maxMs - minMs + 1))
}
