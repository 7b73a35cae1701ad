// The traffic journal: the most recent API exchanges of each team, in a ring of fixed size, with
// what the contracts say about each request. Recording copies a few fields (it runs on every
// request); the verdicts that need the contracts are worked out when the journal is read, once
// per exchange.
import { jsonValueOf } from '../contracts/body.ts'
import { InputAudit } from '../contracts/ignored.ts'
import type { Contracts, OperationContract } from '../contracts/load.ts'
import { summarise, type Report, type Verdict } from '../contracts/verdicts.ts'
import type { MockJournalEntryJson } from '../contracts/generated.ts'
import { toTimestamp } from './clock.ts'

export const DEFAULT_JOURNAL_SIZE = 1000

/** Longer JSON bodies are not kept (nor audited for ignored properties): the ring stays small. */
export const MAX_KEPT_BODY = 64 * 1024

/** What the app copies from one exchange as it ends. */
export interface Exchange {
  /** When it arrived, in milliseconds on the mock's clock. */
  atMs: number
  method: string
  /** The request's absolute URL. */
  url: string
  /** The operation the request reached; undefined when no route matched (or before routing, a 429). */
  op: OperationContract | undefined
  status: number
  durationMs: number
  /** The team the caller acts in; undefined when the request cannot be traced to one. */
  team: number | undefined
  /** The JSON body as the operation read it. */
  body: string | undefined
  /** A 422's body: each field (or query parameter) with its messages. */
  problems: Record<string, unknown> | undefined
  /** Why a 401 or 403 was answered. */
  reason: string | undefined
  /** What a fault did to the exchange (kernel/faults.ts), when one applied. */
  fault: string | undefined
}

/**
 * An exchange as kept: a slot of its team's ring, filled anew when the ring comes round, so that
 * a full ring keeps requests without allocating (each would otherwise live long enough to be
 * copied by the garbage collector, and then collected from the old generation).
 */
class Kept implements Exchange {
  id = 0
  atMs = 0
  method = ''
  url = ''
  op: OperationContract | undefined = undefined
  status = 0
  durationMs = 0
  team: number | undefined = undefined
  body: string | undefined = undefined
  problems: Record<string, unknown> | undefined = undefined
  reason: string | undefined = undefined
  fault: string | undefined = undefined
  /** Worked out at the first read. */
  verdicts: Verdict[] | undefined = undefined
  path: string | undefined = undefined
  query: string | undefined = undefined

  fill(id: number, exchange: Exchange): void {
    this.id = id
    this.atMs = exchange.atMs
    this.method = exchange.method
    this.url = exchange.url
    this.op = exchange.op
    this.status = exchange.status
    this.durationMs = exchange.durationMs
    this.team = exchange.team
    this.body = exchange.body
    this.problems = exchange.problems
    this.reason = exchange.reason
    this.fault = exchange.fault
    this.verdicts = undefined
    this.path = undefined
    this.query = undefined
  }
}

/** A fixed-size ring: pushing onto a full ring drops the oldest item. */
export class Ring<T> {
  private readonly items: (T | undefined)[]
  private next = 0
  private count = 0

  constructor(readonly size: number) {
    this.items = new Array<T | undefined>(size)
  }

  push(item: T): void {
    this.items[this.next] = item
    this.next = (this.next + 1) % this.size
    if (this.count < this.size) this.count++
  }

  /** The item the next push drops (the oldest, once the ring is full), to be reused for it. */
  dropsNext(): T | undefined {
    return this.count === this.size ? this.items[this.next] : undefined
  }

  /** Oldest first. */
  toArray(): T[] {
    const result: T[] = []
    for (let index = 0; index < this.count; index++) result.push(this.items[(this.next - this.count + index + this.size) % this.size] as T)
    return result
  }

  get length(): number {
    return this.count
  }
}

const UNATTRIBUTED = 'unattributed'

export class Journal {
  private readonly rings = new Map<number | typeof UNATTRIBUTED, Ring<Kept>>()
  private readonly audit: InputAudit
  private sequence = 0

  /** size: exchanges kept per team (and for the unattributed ones); 0 keeps none. */
  constructor(
    contracts: Contracts,
    readonly size: number,
  ) {
    this.audit = new InputAudit(contracts)
  }

  get enabled(): boolean {
    return this.size > 0
  }

  /**
   * Keeps an exchange; its JSON body (as read by the gate) once the read settles, unless it is
   * longer than MAX_KEPT_BODY or could not be read (too large, cut short: the answer says why).
   */
  record(exchange: Exchange, body?: Promise<string>): void {
    const key = exchange.team ?? UNATTRIBUTED
    let ring = this.rings.get(key)
    if (!ring) {
      ring = new Ring<Kept>(this.size)
      this.rings.set(key, ring)
    }
    const kept = ring.dropsNext() ?? new Kept()
    const id = ++this.sequence
    kept.fill(id, exchange)
    ring.push(kept)
    if (!body) return
    const keepBody = (text: string) => {
      // By the time the body settles, the slot may hold a later exchange.
      if (kept.id === id) kept.body = text.length <= MAX_KEPT_BODY ? text : undefined
    }
    body.then(keepBody).catch(() => undefined)
  }

  /** A team's exchanges (undefined: the unattributed ones), oldest first. */
  entries(team: number | undefined): MockJournalEntryJson[] {
    return (this.rings.get(team ?? UNATTRIBUTED)?.toArray() ?? []).map((kept) => this.present(kept))
  }

  clear(team: number | undefined): void {
    this.rings.delete(team ?? UNATTRIBUTED)
  }

  report(team: number | undefined): Report {
    const kept = this.rings.get(team ?? UNATTRIBUTED)?.toArray() ?? []
    return summarise(
      team ?? null,
      kept.map((exchange) => {
        const entry = this.present(exchange)
        return {
          method: entry.method,
          path: entry.query === '' ? entry.path : `${entry.path}?${entry.query}`,
          operation: entry.operation,
          deprecated: exchange.op?.deprecated === true,
          status: entry.status,
          at: entry.at,
          verdicts: entry.verdicts,
        }
      }),
    )
  }

  private present(kept: Kept): MockJournalEntryJson {
    if (kept.path === undefined) {
      const { url } = kept
      const pathStart = url.indexOf('/', url.indexOf('//') + 2)
      const queryStart = url.indexOf('?', pathStart)
      kept.path = queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart)
      kept.query = queryStart === -1 ? '' : url.slice(queryStart + 1)
    }
    kept.verdicts ??= this.verdictsOf(kept as Kept & { path: string; query: string })
    return {
      object: 'mock_journal_entry',
      id: kept.id,
      team: kept.team ?? null,
      at: toTimestamp(new Date(kept.atMs)),
      method: kept.method,
      path: kept.path,
      query: kept.query as string,
      operation: kept.op?.id ?? null,
      status: kept.status,
      duration_ms: Math.round(kept.durationMs * 1000) / 1000,
      verdicts: kept.verdicts,
    }
  }

  private verdictsOf(exchange: Kept & { path: string; query: string }): Verdict[] {
    const verdicts: Verdict[] = []
    const { status, op } = exchange
    // A faulted status is the fault's, not the service's verdict on the request.
    if (exchange.fault !== undefined) verdicts.push({ kind: 'fault', at: null, message: exchange.fault })
    else if (status === 422 && exchange.problems) {
      for (const [at, messages] of Object.entries(exchange.problems)) {
        for (const message of Array.isArray(messages) ? messages : [messages]) {
          // {"errors": ["..."]} is about the body as a whole.
          verdicts.push({ kind: 'request_violation', at: at === 'errors' ? null : at, message: String(message) })
        }
      }
    }
    const byService = exchange.fault === undefined
    if (byService && status === 401) verdicts.push({ kind: 'unauthenticated', at: null, message: exchange.reason ?? 'unauthenticated' })
    if (byService && status === 403) verdicts.push({ kind: 'forbidden', at: null, message: exchange.reason ?? 'forbidden' })
    if (byService && status === 429) verdicts.push({ kind: 'rate_limited', at: null, message: 'over the rate limit: answered 429 Too Many Attempts' })
    if (!op) {
      if (status !== 429) verdicts.push({ kind: 'unknown_operation', at: null, message: `no operation has ${exchange.method} ${exchange.path}` })
      return verdicts
    }
    // Not JSON: the 422 already says so.
    const body = exchange.body === undefined ? undefined : jsonValueOf(exchange.body)
    const findings = this.audit.audit(op, { query: new URLSearchParams(exchange.query), body })
    for (const name of findings.ignoredQuery) {
      verdicts.push({ kind: 'ignored_query_parameter', at: name, message: `${op.id} takes no query parameter ${name}; the service ignores it` })
    }
    for (const path of findings.ignoredBody) {
      verdicts.push({ kind: 'ignored_body_property', at: path, message: `${op.id} does not read ${path}; the service ignores it` })
    }
    for (const use of findings.deprecated) verdicts.push({ kind: 'deprecated', ...use })
    return verdicts
  }
}
