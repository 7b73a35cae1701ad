// The fixed-window RateLimiter and the headers it puts on responses (docs/specification-notes.md "Rate limits"),
// driven by explicit times in milliseconds: nothing here waits.
import { describe, expect, it } from 'vitest'
import { RateLimiter, rateLimitHeaders } from '../../src/kernel/rate-limit.ts'

/** The number of windows the limiter holds (private; read to check the sweep). */
const windowCount = (limiter: RateLimiter) => (limiter as unknown as { windows: Map<string, unknown> }).windows.size

const T0 = Date.UTC(2026, 6, 1, 12, 0, 0)

describe('RateLimiter', () => {
  it('opens a window on the first hit and counts down what remains', () => {
    const limiter = new RateLimiter(3, 60_000)
    expect(limiter.hit('user:team', T0)).toEqual({ limit: 3, remaining: 2, resetAt: T0 + 60_000, limited: false })
    expect(limiter.hit('user:team', T0 + 1_000)).toEqual({ limit: 3, remaining: 1, resetAt: T0 + 60_000, limited: false })
    expect(limiter.hit('user:team', T0 + 2_000)).toEqual({ limit: 3, remaining: 0, resetAt: T0 + 60_000, limited: false })
  })

  it('limits once the budget is used, until the window resets', () => {
    const limiter = new RateLimiter(2, 60_000)
    limiter.hit('k', T0)
    limiter.hit('k', T0)
    expect(limiter.hit('k', T0 + 10)).toEqual({ limit: 2, remaining: 0, resetAt: T0 + 60_000, limited: true })
    expect(limiter.hit('k', T0 + 59_999)).toEqual({ limit: 2, remaining: 0, resetAt: T0 + 60_000, limited: true })
  })

  it('does not count limited hits against the next window', () => {
    const limiter = new RateLimiter(1, 1_000)
    limiter.hit('k', T0)
    for (let i = 0; i < 5; i++) expect(limiter.hit('k', T0 + i).limited).toBe(true)
    expect(limiter.hit('k', T0 + 1_000)).toEqual({ limit: 1, remaining: 0, resetAt: T0 + 2_000, limited: false })
  })

  it('starts a fresh window at the reset moment, not one on a fixed grid', () => {
    const limiter = new RateLimiter(2, 60_000)
    limiter.hit('k', T0)
    limiter.hit('k', T0)
    expect(limiter.hit('k', T0 + 60_000)).toEqual({ limit: 2, remaining: 1, resetAt: T0 + 120_000, limited: false })
    // A hit long after the window ended opens a window from that moment.
    expect(limiter.hit('k', T0 + 500_000)).toEqual({ limit: 2, remaining: 1, resetAt: T0 + 560_000, limited: false })
  })

  it('keeps a separate budget per key', () => {
    const limiter = new RateLimiter(1, 60_000)
    expect(limiter.hit('1:1', T0).limited).toBe(false)
    expect(limiter.hit('1:1', T0).limited).toBe(true)
    expect(limiter.hit('1:2', T0)).toEqual({ limit: 1, remaining: 0, resetAt: T0 + 60_000, limited: false })
    expect(limiter.hit('2:1', T0 + 5)).toEqual({ limit: 1, remaining: 0, resetAt: T0 + 60_005, limited: false })
  })

  it('sweeps expired windows once it holds more than 10,000 keys', () => {
    const limiter = new RateLimiter(5, 1_000)
    for (let i = 0; i < 10_001; i++) limiter.hit(`old:${i}`, T0)
    for (let i = 0; i < 5; i++) limiter.hit(`recent:${i}`, T0 + 500)
    expect(windowCount(limiter)).toBe(10_006)
    // The old windows end at T0 + 1000; the recent ones at T0 + 1500.
    limiter.hit('new', T0 + 1_000)
    expect(windowCount(limiter)).toBe(6)
    // A swept key starts over with a full budget; a kept one keeps its count.
    expect(limiter.hit('old:1', T0 + 1_000).remaining).toBe(4)
    expect(limiter.hit('recent:1', T0 + 1_000).remaining).toBe(3)
  })

  it('does not sweep at 10,000 keys or fewer', () => {
    const limiter = new RateLimiter(5, 1_000)
    for (let i = 0; i < 10_000; i++) limiter.hit(`old:${i}`, T0)
    limiter.hit('new', T0 + 1_000)
    expect(windowCount(limiter)).toBe(10_001)
  })

  it('does not sweep while a live key is hit again', () => {
    const limiter = new RateLimiter(5, 1_000)
    for (let i = 0; i < 10_001; i++) limiter.hit(`old:${i}`, T0)
    limiter.hit('old:0', T0 + 999)
    expect(windowCount(limiter)).toBe(10_001)
  })
})

describe('rateLimitHeaders', () => {
  it('carries the limit and what remains on an allowed request', () => {
    expect(rateLimitHeaders({ limit: 200, remaining: 199, resetAt: T0 + 60_000, limited: false }, T0)).toEqual({
      'X-RateLimit-Limit': '200',
      'X-RateLimit-Remaining': '199',
    })
  })

  it('adds Retry-After (seconds, rounded up) and X-RateLimit-Reset (unix seconds) when limited', () => {
    expect(rateLimitHeaders({ limit: 200, remaining: 0, resetAt: T0 + 61_500, limited: true }, T0)).toEqual({
      'X-RateLimit-Limit': '200',
      'X-RateLimit-Remaining': '0',
      'Retry-After': '62',
      'X-RateLimit-Reset': String(T0 / 1000 + 62),
    })
  })

  it('never asks to retry after less than a second', () => {
    const headers = rateLimitHeaders({ limit: 1, remaining: 0, resetAt: T0 + 10, limited: true }, T0 + 10)
    expect(headers['Retry-After']).toBe('1')
    expect(rateLimitHeaders({ limit: 1, remaining: 0, resetAt: T0 + 1, limited: true }, T0)['Retry-After']).toBe('1')
  })

  it('rounds the reset time up to a whole second', () => {
    expect(rateLimitHeaders({ limit: 1, remaining: 0, resetAt: T0 + 1, limited: true }, T0)['X-RateLimit-Reset']).toBe(String(T0 / 1000 + 1))
  })

  it('agrees with the limiter', () => {
    const limiter = new RateLimiter(1, 30_000)
    limiter.hit('k', T0)
    const now = T0 + 12_000
    expect(rateLimitHeaders(limiter.hit('k', now), now)).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'Retry-After': '18',
      'X-RateLimit-Reset': String(T0 / 1000 + 30),
    })
  })
})
