import { describe, expect, it } from 'vitest'
import { serveOptions } from '../../src/config.ts'
import type { ApiResponse } from '../support/api.ts'
import { createTestMock, TEST_NOW, type TestMock } from '../support/mock.ts'

const TOO_MANY = { message: 'Too Many Attempts.' }
const NOW_SECONDS = TEST_NOW.getTime() / 1000

function limited() {
  return createTestMock({ rateLimit: 3, rateLimitWindowSeconds: 60 })
}

function rateHeaders(res: ApiResponse) {
  return {
    limit: res.headers.get('X-RateLimit-Limit'),
    remaining: res.headers.get('X-RateLimit-Remaining'),
  }
}

/** A second token of the user of ivs_shared_acme, on the same team. */
async function secondSharedAcmeToken(mock: TestMock): Promise<string> {
  const me = await mock.api('ivs_shared_acme').get('/me')
  const team = await mock.api('ivs_shared_acme').get('/team')
  mock.store.addToken({
    token: 'ivs_shared_acme_second',
    name: 'Sam in Acme, second integration',
    user: me.body.id,
    team: team.body.id,
    created_at: '2026-06-01T09:00:00Z',
    expires_at: null,
    revoked_at: null,
  })
  return 'ivs_shared_acme_second'
}

describe('X-RateLimit headers', () => {
  it('are on a success and count down', async () => {
    const api = limited().api()
    const remaining = []
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/team')
      expect(res.status).toBe(200)
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3')
      remaining.push(res.headers.get('X-RateLimit-Remaining'))
    }
    expect(remaining).toEqual(['2', '1', '0'])
  })

  it('are on a 204 without a body', async () => {
    const res = await limited().api().get('/status')
    expect(res.status).toBe(204)
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('are on a 401', async () => {
    const res = await limited().api('ivs_revoked').get('/team')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('are on a 404 for an unknown route', async () => {
    const res = await limited().api().get('/bogus')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Not Found.' })
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('are on a 404 for an unknown resource', async () => {
    const res = await limited().api().get('/teams/1/members/999999')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Team member not found' })
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('are on a 403', async () => {
    const res = await limited().api('ivs_acme_member').get('/credits')
    expect(res.status).toBe(403)
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('are on a 422', async () => {
    const res = await limited().api().patch('/team', {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('count every answer of one caller, errors included', async () => {
    const api = limited().api()
    const answers = [await api.get('/team'), await api.get('/credits', { limit: 0 }), await api.get('/bogus')]
    expect(answers.map((res) => res.status)).toEqual([200, 422, 404])
    expect(answers.map((res) => res.headers.get('X-RateLimit-Remaining'))).toEqual(['2', '1', '0'])
    const fourth = await api.get('/team')
    expect(fourth.status).toBe(429)
  })
})

describe('429 Too Many Attempts', () => {
  it('answers the request after the limit, with Retry-After and X-RateLimit-Reset', async () => {
    const mock = limited()
    const api = mock.api()
    for (let i = 0; i < 3; i++) expect((await api.get('/team')).status).toBe(200)
    const res = await api.get('/team')
    expect(res.status).toBe(429)
    expect(res.body).toEqual(TOO_MANY)
    expect(res.headers.get('X-RateLimit-Limit')).toBe('3')
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect(res.headers.get('Retry-After')).toBe('60')
    expect(res.headers.get('X-RateLimit-Reset')).toBe(String(NOW_SECONDS + 60))
  })

  it('keeps the reset time and shortens Retry-After as the clock moves', async () => {
    const mock = limited()
    const api = mock.api()
    for (let i = 0; i < 3; i++) await api.get('/me')
    mock.clock.advance(45_000)
    const res = await api.get('/me')
    expect(res.status).toBe(429)
    expect(res.body).toEqual(TOO_MANY)
    expect(res.headers.get('Retry-After')).toBe('15')
    expect(res.headers.get('X-RateLimit-Reset')).toBe(String(NOW_SECONDS + 60))
    expect(Number(res.headers.get('X-RateLimit-Reset'))).toBe(Math.floor(mock.clock.now().getTime() / 1000) + Number(res.headers.get('Retry-After')))
  })

  it('counts the window from the first request of the caller', async () => {
    const mock = limited()
    const api = mock.api()
    mock.clock.advance(10_000)
    for (let i = 0; i < 3; i++) await api.get('/me')
    const res = await api.get('/me')
    expect(res.status).toBe(429)
    expect(res.headers.get('X-RateLimit-Reset')).toBe(String(NOW_SECONDS + 70))
    expect(res.headers.get('Retry-After')).toBe('60')
  })

  it('is answered whatever the request, without running it', async () => {
    const mock = limited()
    const { api } = mock.newTeam()
    for (let i = 0; i < 3; i++) await api().get('/status')
    const update = await api().patch('/team', { telephone: '0161 496 0000' })
    expect(update.status).toBe(429)
    expect(update.body).toEqual(TOO_MANY)
    const invalid = await api().patch('/team', {})
    expect(invalid.status).toBe(429)
    expect(invalid.body).toEqual(TOO_MANY)
    mock.clock.advance(60_000)
    expect((await api().get('/team')).body.telephone).toBeNull()
  })

  it('does not use up more of the budget', async () => {
    const mock = limited()
    const api = mock.api()
    for (let i = 0; i < 3; i++) await api.get('/me')
    for (let i = 0; i < 5; i++) expect((await api.get('/me')).status).toBe(429)
    mock.clock.advance(60_000)
    const res = await api.get('/me')
    expect(res.status).toBe(200)
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('2')
  })
})

describe('the window', () => {
  it('resets after the window has passed on the mock clock', async () => {
    const mock = limited()
    const api = mock.api()
    for (let i = 0; i < 3; i++) await api.get('/team')
    expect((await api.get('/team')).status).toBe(429)
    mock.clock.advance(59_999)
    expect((await api.get('/team')).status).toBe(429)
    mock.clock.advance(1)
    const res = await api.get('/team')
    expect(res.status).toBe(200)
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
    expect(res.headers.get('Retry-After')).toBeNull()
  })

  it('follows rateLimitWindowSeconds', async () => {
    const mock = createTestMock({ rateLimit: 1, rateLimitWindowSeconds: 10 })
    const api = mock.api()
    expect((await api.get('/me')).status).toBe(200)
    const res = await api.get('/me')
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe('10')
    expect(res.headers.get('X-RateLimit-Reset')).toBe(String(NOW_SECONDS + 10))
    mock.clock.advance(10_000)
    expect((await api.get('/me')).status).toBe(200)
  })
})

describe('whose budget', () => {
  it('is shared by all tokens of one user on one team', async () => {
    const mock = limited()
    const second = await secondSharedAcmeToken(mock)
    // Setting up used two requests of ivs_shared_acme's budget.
    const viaSecond = await mock.api(second).get('/me')
    expect(viaSecond.status).toBe(200)
    expect(viaSecond.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect((await mock.api('ivs_shared_acme').get('/me')).status).toBe(429)
    expect((await mock.api(second).get('/me')).status).toBe(429)
  })

  it('is separate per team for the same user', async () => {
    const mock = limited()
    const acme = mock.api('ivs_shared_acme')
    for (let i = 0; i < 3; i++) await acme.get('/team')
    expect((await acme.get('/team')).status).toBe(429)
    const globex = await mock.api('ivs_shared_globex').get('/team')
    expect(globex.status).toBe(200)
    expect(rateHeaders(globex)).toEqual({ limit: '3', remaining: '2' })
  })

  it('is separate per user on the same team', async () => {
    const mock = limited()
    const sam = mock.api('ivs_shared_acme')
    for (let i = 0; i < 3; i++) await sam.get('/team')
    expect((await sam.get('/team')).status).toBe(429)
    for (const token of ['ivs_acme_owner', 'ivs_acme_readonly', 'ivs_acme_member']) {
      const res = await mock.api(token).get('/team')
      expect(res.status).toBe(200)
      expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
    }
  })

  it('of unauthenticated callers is not any user\'s', async () => {
    const mock = limited()
    for (let i = 0; i < 3; i++) expect((await mock.api('ivs_nobody').get('/team')).status).toBe(401)
    const res = await mock.api('ivs_acme_owner').get('/team')
    expect(res.status).toBe(200)
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })

  it('is not used by a CORS preflight', async () => {
    const mock = limited()
    for (let i = 0; i < 5; i++) {
      const preflight = await mock.app.request('/api/v2/team', {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      })
      expect(preflight.status).toBe(204)
    }
    const res = await mock.api().get('/team')
    expect(res.status).toBe(200)
    expect(rateHeaders(res)).toEqual({ limit: '3', remaining: '2' })
  })
})

describe('the default limit', () => {
  it('is 200 requests a minute in the server configuration', () => {
    const options = new Map(serveOptions().map((option) => [option.long, option.defaultValue as unknown]))
    expect(options.get('--rate-limit')).toBe(200)
    expect(options.get('--rate-limit-window')).toBe(60)
  })

  it('allows 200 requests, then answers 429', async () => {
    const mock = createTestMock({ rateLimit: 200 })
    const api = mock.api()
    const first = await api.get('/status')
    expect(rateHeaders(first)).toEqual({ limit: '200', remaining: '199' })
    let last = first
    for (let i = 1; i < 200; i++) last = await api.get('/status')
    expect(last.status).toBe(204)
    expect(rateHeaders(last)).toEqual({ limit: '200', remaining: '0' })
    const over = await api.get('/status')
    expect(over.status).toBe(429)
    expect(over.body).toEqual(TOO_MANY)
    expect(over.headers.get('X-RateLimit-Remaining')).toBe('0')
  })
})
