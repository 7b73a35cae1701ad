import { describe, expect, it } from 'vitest'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

const NOT_FOUND = { error: 'Not Found.' }
const BAD_JSON = { errors: ['The request body must be valid JSON.'] }
const NOT_AN_OBJECT = { errors: ['The request body must be a JSON object.'] }
const ORIGIN = 'https://app.example'

/** A raw response's status and parsed JSON body, for toMatchContract. */
async function parsed(res: Response): Promise<{ status: number; body: unknown; text: string }> {
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), text }
}

function headerList(value: string | null): string[] {
  return (value ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean)
}

describe('unknown routes', () => {
  const UNKNOWN_PATHS = ['', '/', '/bogus', '/clients/1/bogus', '/team/bogus', '/teams/1/bogus', '/credits/1', '/me/teams/1']

  it.each(UNKNOWN_PATHS)('GET /api/v2%s answers 404 Not Found. with a token', async (path) => {
    const res = await createTestMock().api().get(path)
    expect(res.status).toBe(404)
    expect(res.body).toEqual(NOT_FOUND)
    expect(res.operation).toBeUndefined()
  })

  it.each(UNKNOWN_PATHS)('GET /api/v2%s answers 404 Not Found. without a token', async (path) => {
    const res = await createTestMock().api().as(undefined).get(path)
    expect(res.status).toBe(404)
    expect(res.body).toEqual(NOT_FOUND)
  })

  it('answers 404 Not Found. with an invalid token too', async () => {
    const res = await createTestMock().api('ivs_revoked').get('/bogus')
    expect(res.status).toBe(404)
    expect(res.body).toEqual(NOT_FOUND)
  })

  it.each([
    ['DELETE', '/team'],
    ['POST', '/team'],
    ['PUT', '/team'],
    ['POST', '/me'],
    ['DELETE', '/me'],
    ['POST', '/status'],
    ['DELETE', '/credits'],
    ['PATCH', '/team/members'],
    ['POST', '/teams/1/members/1'],
    ['PUT', '/clients/1'],
  ])('%s %s (a wrong method on a known path) answers 404 Not Found.', async (method, path) => {
    const api = createTestMock().api()
    for (const client of [api, api.as(undefined)]) {
      const res = await client.request(method, path, { body: { telephone: null } })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
  })

  it.each(['/bogus', '/', '/api', '/api/v1/team', '/api/v3/team', '/team'])('%s outside the API answers 404 Not Found.', async (path) => {
    const mock = createTestMock()
    for (const headers of [{}, { Authorization: 'Bearer ivs_acme_owner' }] as Array<Record<string, string>>) {
      const res = await parsed(await mock.app.request(path, { headers }))
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
  })

  it.each([
    '/clients/abc',
    '/clients/1.5',
    '/clients/-1',
    '/clients/1e3',
    '/clients/12abc',
    '/clients/abc/address',
    '/teams/abc/members',
    '/teams/1/members/abc',
    '/teams/me/members',
  ])('GET %s (a non-numeric id) is an unknown route', async (path) => {
    const api = createTestMock().api()
    for (const client of [api, api.as(undefined)]) {
      const res = await client.get(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
  })
})

describe('request bodies', () => {
  it.each([
    ['PATCH', '/team', '{"contact":'],
    ['PATCH', '/team', '{"telephone": null,}'],
    ['PATCH', '/team', "{'telephone': null}"],
    ['PATCH', '/me', 'name=Ada'],
    ['POST', '/clients', '{"name": {"first_name": "Ada"'],
  ])('%s %s with malformed JSON answers 422', async (method, path, raw) => {
    const res = await createTestMock().api().request(method, path, { raw, headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(BAD_JSON)
  })

  it.each(['[]', '[{"telephone": null}]', '"hello"', '42', 'true', 'null'])('PATCH /team with %s (not an object) answers 422 under errors', async (raw) => {
    const res = await createTestMock().api().request('PATCH', '/team', { raw, headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(NOT_AN_OBJECT)
  })

  it('POST /clients with an array answers 422 under errors', async () => {
    const res = await createTestMock().api().post('/clients', [{ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }])
    expect(res.status).toBe(422)
    expect(res.body).toEqual(NOT_AN_OBJECT)
  })

  it('changes nothing when the body is refused', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    await api().request('PATCH', '/team', { raw: '{"telephone": "0161 496 0000"', headers: { 'Content-Type': 'application/json' } })
    await api().request('PATCH', '/team', { raw: '[{"telephone": "0161 496 0000"}]', headers: { 'Content-Type': 'application/json' } })
    expect((await api().get('/team')).body).toEqual(before)
  })

  it('ignores unknown extra fields on PATCH /team', async () => {
    const mock = createTestMock()
    const { api } = mock.newTeam()
    const before = (await api().get('/team')).body
    const res = await api().patch('/team', { telephone: '0161 496 0000', favourite_colour: 'teal', id: 1, identifier: 'hacked', name: 'Hacked' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...before, telephone: '0161 496 0000' })
  })

  it('ignores unknown extra fields on PATCH /me', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api('member').patch('/me', { name: 'Ada Lovelace', is_disabled: true, id: 1, password: 'secret' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: users.member.id, name: 'Ada Lovelace', is_disabled: false })
    expect(res.body).not.toHaveProperty('password')
  })

  it('ignores unknown extra fields on POST /clients', async () => {
    const { api } = createTestMock().newTeam()
    const res = await api().post('/clients', {
      name: { first_name: 'Ada', last_name: 'Lovelace', nickname: 'Countess' },
      email: 'ada@example.com',
      favourite_colour: 'teal',
    })
    expect(res.status).toBe(201)
    expect(res.body).not.toHaveProperty('favourite_colour')
    expect(res.body.name).not.toHaveProperty('nickname')
    expect(res.body.name).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' })
  })
})

describe('query strings', () => {
  it('ignore unknown parameters', async () => {
    const mock = createTestMock()
    const api = mock.api()
    const plain = await api.get('/credits')
    const extra = await api.get('/credits', { utm_source: 'newsletter', foo: 'bar' })
    expect(extra.status).toBe(200)
    // The same answer; only the links differ, as they carry every query parameter of the request (docs/behaviour-notes.md "Lists").
    expect(plain.body.total_pages).toBeGreaterThan(1)
    expect({ ...extra.body, links: plain.body.links }).toEqual(plain.body)
    expect(plain.body.links).toEqual({ next: 'http://localhost/api/v2/credits?page=2', previous: null })
    expect(extra.body.links).toEqual({ next: 'http://localhost/api/v2/credits?utm_source=newsletter&foo=bar&page=2', previous: null })
    const team = await api.get('/team', { include: 'everything' })
    expect(team.status).toBe(200)
    expect(team.body).toEqual((await api.get('/team')).body)
  })
})

describe('CORS', () => {
  it('answers a preflight from another origin, allowing the Authorization header', async () => {
    const mock = createTestMock()
    const res = await mock.app.request('/api/v2/team', {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, content-type' },
    })
    expect(res.status).toBeGreaterThanOrEqual(200)
    expect(res.status).toBeLessThan(300)
    expect([ORIGIN, '*']).toContain(res.headers.get('Access-Control-Allow-Origin'))
    expect(headerList(res.headers.get('Access-Control-Allow-Headers'))).toEqual(expect.arrayContaining(['authorization', 'content-type']))
    expect(headerList(res.headers.get('Access-Control-Allow-Methods'))).toEqual(
      expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
    )
    expect(await res.text()).toBe('')
  })

  it('answers a preflight without a token, for a path with an id', async () => {
    const mock = createTestMock()
    const res = await mock.app.request('/api/v2/clients/1', {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': 'Authorization' },
    })
    expect(res.status).toBeLessThan(300)
    expect([ORIGIN, '*']).toContain(res.headers.get('Access-Control-Allow-Origin'))
    expect(headerList(res.headers.get('Access-Control-Allow-Headers'))).toContain('authorization')
    expect(headerList(res.headers.get('Access-Control-Allow-Methods'))).toContain('delete')
  })

  it('lets a page from another origin read the answer and its rate-limit headers', async () => {
    const mock = createTestMock()
    const res = await mock.app.request('/api/v2/team', { headers: { Origin: ORIGIN, Authorization: 'Bearer ivs_acme_owner' } })
    const answer = await parsed(res)
    expect(answer.status).toBe(200)
    expect(answer).toMatchContract('team.get')
    expect([ORIGIN, '*']).toContain(res.headers.get('Access-Control-Allow-Origin'))
    expect(headerList(res.headers.get('Access-Control-Expose-Headers'))).toEqual(
      expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']),
    )
    expect(res.headers.get('X-RateLimit-Limit')).not.toBeNull()
  })

  it('lets a page from another origin read a 401 and a 429', async () => {
    const mock = createTestMock({ rateLimit: 1 })
    const unauthenticated = await mock.app.request('/api/v2/team', { headers: { Origin: ORIGIN } })
    const body401 = await parsed(unauthenticated)
    expect(body401).toMatchContract('team.get')
    expect(body401.body).toEqual({ error: 'Unauthenticated.' })
    expect([ORIGIN, '*']).toContain(unauthenticated.headers.get('Access-Control-Allow-Origin'))

    const headers = { Origin: ORIGIN, Authorization: 'Bearer ivs_acme_owner' }
    expect((await mock.app.request('/api/v2/team', { headers })).status).toBe(200)
    const limited = await mock.app.request('/api/v2/team', { headers })
    const body429 = await parsed(limited)
    expect(body429).toMatchContract('team.get')
    expect(body429.body).toEqual({ message: 'Too Many Attempts.' })
    expect([ORIGIN, '*']).toContain(limited.headers.get('Access-Control-Allow-Origin'))
    expect(headerList(limited.headers.get('Access-Control-Expose-Headers'))).toEqual(expect.arrayContaining(['retry-after', 'x-ratelimit-reset']))
  })
})

describe('HEAD', () => {
  it.each(['/team', '/team/members', '/me', '/credits'])('HEAD %s answers 200 with no body', async (path) => {
    const mock = createTestMock()
    const res = await mock.app.request(`/api/v2${path}`, { method: 'HEAD', headers: { Authorization: 'Bearer ivs_acme_owner' } })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    expect(res.headers.get('X-RateLimit-Limit')).not.toBeNull()
    expect(res.headers.get('X-RateLimit-Remaining')).not.toBeNull()
  })

  it('answers 401 with no body without a token, and 404 with no body on an unknown route', async () => {
    const mock = createTestMock()
    const unauthenticated = await mock.app.request('/api/v2/team', { method: 'HEAD' })
    expect(unauthenticated.status).toBe(401)
    expect(await unauthenticated.text()).toBe('')
    const unknown = await mock.app.request('/api/v2/bogus', { method: 'HEAD', headers: { Authorization: 'Bearer ivs_acme_owner' } })
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toBe('')
  })

  it('changes nothing', async () => {
    const mock = createTestMock()
    const { tokens, api } = mock.newTeam()
    const before = (await api().get('/team')).body
    mock.clock.advance(60_000)
    await mock.app.request('/api/v2/team', { method: 'HEAD', headers: { Authorization: `Bearer ${tokens.owner}` } })
    expect((await api().get('/team')).body).toEqual(before)
  })
})

describe('JSON answers', () => {
  it('are application/json and match the contract', async () => {
    const mock = createTestMock()
    for (const [path, operation] of [
      ['/team', 'team.get'],
      ['/team/me', 'team.me.get'],
      ['/team/members?search=olivia', 'team.members.list'],
      ['/credits?expand=causer', 'credits.list'],
    ] as const) {
      const res = await mock.app.request(`/api/v2${path}`, { headers: { Authorization: 'Bearer ivs_acme_owner' } })
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/)
      const answer = await parsed(res)
      expect(answer.status).toBe(200)
      expect(answer).toMatchContract(operation)
    }
  })
})

describe('GET /openapi.json', () => {
  it('is served without a token and describes every operation of the contracts', async () => {
    const mock = createTestMock()
    const res = await mock.app.request('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/)
    const doc = (await res.json()) as {
      openapi: string
      servers: Array<{ url: string }>
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.servers).toEqual([{ url: 'http://localhost/api/v2' }])
    const operationIds = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId))
    const apiOperations = [...contracts.operations.values()].filter((op) => op.surface === 'api').map((op) => op.id)
    expect(new Set(operationIds)).toEqual(new Set(apiOperations))
    expect(doc.paths['/teams/{teamId}/members/{teamMemberId}']?.get?.operationId).toBe('teams.members.get')
    expect(doc.paths['/credits']?.get?.operationId).toBe('credits.list')
  })

  it('is the same with a token, and names the origin it was asked on', async () => {
    const mock = createTestMock({ app: { allowedHosts: ['mock.test'] } })
    const res = await mock.app.request('http://mock.test:4010/openapi.json', { headers: { Authorization: 'Bearer ivs_revoked' } })
    expect(res.status).toBe(200)
    const doc = (await res.json()) as { servers: Array<{ url: string }> }
    expect(doc.servers).toEqual([{ url: 'http://mock.test:4010/api/v2' }])
  })
})

describe('which error wins (as Laravel: 401, then route binding 404, then authorize 403, then 422)', () => {
  it('answers 401 before looking at anything else', async () => {
    const res = await createTestMock().api().as(undefined).patch('/clients/999999', {})
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })

  it('answers 404 for a missing client before validating the body', async () => {
    const res = await createTestMock().api().patch('/clients/999999', {})
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Client not found' })
  })

  it('answers 404 for a missing client before validating the address', async () => {
    const res = await createTestMock().api().put('/clients/999999/address', { country: 'XX' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Client not found' })
  })

  it('answers 403 to a member before validating the team update', async () => {
    const res = await createTestMock().newTeam().api('member').patch('/team', { contact: 'not-an-email' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
  })

  it('answers 403 to a member before validating the credits query', async () => {
    const res = await createTestMock().newTeam().api('member').get('/credits', { expand: 'bogus' })
    expect(res.status).toBe(403)
  })

  it("answers 403 for another team's id before anything else", async () => {
    const res = await createTestMock().api().get('/teams/2/members', { limit: 0 })
    expect(res.status).toBe(403)
  })
})
