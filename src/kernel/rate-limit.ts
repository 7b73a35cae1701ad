// Fixed-window rate limiting on the mock's clock (docs/specification-notes.md "Rate limits"): one budget per key,
// where the app uses one key per (user, team) and the client address for unauthenticated calls.
import type { Context } from 'hono'
import type { KernelEnv } from './env.ts'
import { tooManyRequests } from './errors.ts'

export interface RateLimitResult {
  limit: number
  remaining: number
  /** Unix milliseconds when the window resets. */
  resetAt: number
  limited: boolean
}

interface Window {
  resetAt: number
  used: number
}

const SWEEP_ABOVE = 10_000

export class RateLimiter {
  private readonly windows = new Map<string, Window>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  hit(key: string, nowMs: number): RateLimitResult {
    let window = this.windows.get(key)
    if (!window || nowMs >= window.resetAt) {
      if (this.windows.size > SWEEP_ABOVE) this.sweep(nowMs)
      window = { resetAt: nowMs + this.windowMs, used: 0 }
      this.windows.set(key, window)
    }
    const limited = window.used >= this.limit
    if (!limited) window.used += 1
    return { limit: this.limit, remaining: this.limit - window.used, resetAt: window.resetAt, limited }
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (nowMs >= window.resetAt) this.windows.delete(key)
  }
}

export function rateLimitHeaders(result: RateLimitResult, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(result.limit),
    'X-RateLimit-Remaining': String(result.remaining),
  }
  if (result.limited) {
    headers['Retry-After'] = String(Math.max(1, Math.ceil((result.resetAt - nowMs) / 1000)))
    headers['X-RateLimit-Reset'] = String(Math.ceil(result.resetAt / 1000))
  }
  return headers
}

/**
 * Counts a request against its key and puts the X-RateLimit headers on every answer, errors
 * included; over the limit it throws the 429 before the route runs. A step, run by app.ts after
 * the token is identified.
 */
export function rateLimiting<P>(
  limiter: RateLimiter,
  nowMs: () => number,
  keyOf: (principal: P) => string,
): (c: Context<KernelEnv<P>>) => void {
  return (c) => {
    const principal = c.get('principal')
    const key = principal === undefined ? `address:${c.env?.incoming?.socket?.remoteAddress ?? 'local'}` : keyOf(principal)
    const now = nowMs()
    const result = limiter.hit(key, now)
    const headers = rateLimitHeaders(result, now)
    if (result.limited) throw tooManyRequests(headers)
    // Every answer built by respond.ts on this context (errors and 404s included) carries them.
    c.set('responseHeaders', headers)
  }
}
