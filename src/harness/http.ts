// The runner's HTTP: every request of a run (steps, what it learns of the target, the crawl, the
// clean-up) goes through one client, which reads answers as JSON or a note of binary content and
// waits out the target's rate limit: a 429 pauses every request of the run until its Retry-After
// has passed, then the request is sent again, since a deployment counts the requests of a whole
// run (200 a minute per user and team), not of one scenario.

import { bodyText, jsonValueOf } from '../contracts/body.ts'

export interface Answer {
  status: number
  headers: Headers
  body: unknown
  text: string
}

interface Exchange {
  method: string
  url: string
  requestExcerpt: string
  answer?: Answer
  /** Why no answer came (timeout, connection refused). */
  error?: string
}

export interface RequestInit {
  headers: Record<string, string>
  body?: string | FormData
  excerpt?: string
  /** Answer a 429 as it is instead of waiting it out (a step that expects one). */
  keep429?: boolean
  /** A write its step marks safe (safe: refused or computes): a read-only client sends it. */
  safe?: boolean
}

/** The methods that change nothing: a read-only client sends only these, and the writes marked safe. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD'])

/** The requests a run sent (each sent again after a 429 counts again), and how often and how long it waited for the target's rate limit. */
export interface RateLimitWaits {
  requests: number
  times: number
  waitedMs: number
}

/** 429s in a row a request waits out before its 429 is the answer; each wait is at most RATE_LIMIT_WAIT_LIMIT_S. */
const RATE_LIMIT_RETRIES = 20
const RATE_LIMIT_WAIT_LIMIT_S = 60

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if ((error as Error).name === 'TimeoutError') return 'timed out'
  return cause?.code ?? cause?.message ?? (error as Error).message
}

/** The JSON body of an answer (read as the mock and the proxy read bodies: contracts/body.ts), its text, or a note for binary content. */
async function readAnswer(response: Response): Promise<Answer> {
  const type = response.headers.get('content-type') ?? ''
  if (/json|^text\//i.test(type) || type === '') {
    const text = bodyText(new Uint8Array(await response.arrayBuffer()))
    return { status: response.status, headers: response.headers, body: jsonValueOf(text), text }
  }
  const bytes = (await response.arrayBuffer()).byteLength
  return { status: response.status, headers: response.headers, body: undefined, text: bytes === 0 ? '' : `[${bytes} bytes of ${type}]` }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class HttpClient {
  /** performance.now() before which no request is sent: the end of the last Retry-After. */
  private pausedUntil = 0
  readonly waits: RateLimitWaits = { requests: 0, times: 0, waitedMs: 0 }

  /** readOnly: verify --read-only's client, which sends no write that is not marked safe, whoever asks. */
  constructor(
    private readonly timeoutMs: number,
    private readonly readOnly = false,
  ) {}

  async send(method: string, url: string, init: RequestInit): Promise<Exchange> {
    const requestExcerpt = `${method} ${url}${init.excerpt ? ` ${init.excerpt}` : ''}`
    if (this.readOnly && !READ_METHODS.has(method.toUpperCase()) && !init.safe) return { method, url, requestExcerpt, error: `not sent: --read-only sends no ${method} that a step does not mark safe` }
    for (let retry = 0; ; retry++) {
      const pause = this.pausedUntil - performance.now()
      if (pause > 0) await sleep(pause)
      let answer: Answer
      this.waits.requests++
      try {
        const response = await fetch(url, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' })
        answer = await readAnswer(response)
      } catch (error) {
        return { method, url, requestExcerpt, error: reasonOf(error) }
      }
      if (answer.status !== 429 || init.keep429 || retry >= RATE_LIMIT_RETRIES) return { method, url, requestExcerpt, answer }
      const seconds = Number(answer.headers.get('retry-after'))
      const waitMs = Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, RATE_LIMIT_WAIT_LIMIT_S) * 1000
      const now = performance.now()
      const until = Math.max(this.pausedUntil, now + waitMs)
      this.waits.times++
      this.waits.waitedMs += until - Math.max(this.pausedUntil, now)
      this.pausedUntil = until
    }
  }

  /** A GET with a token, answering the JSON body of a 200 (undefined otherwise). */
  async json(url: string, token: string | undefined): Promise<unknown> {
    const exchange = await this.send('GET', url, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } })
    return exchange.answer?.status === 200 ? exchange.answer.body : undefined
  }
}
