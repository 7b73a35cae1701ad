// Faults on demand (contracts/control/teams.faults.json): each kind of fault seen by a client that
// retries, over a real socket on 127.0.0.1; how faults match, count and stay in their team; the
// journal's record of them; the control contract's 422s. Timing is asserted only as "at least".
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_NOW, createTestMock, type TestMock } from '../support/mock.ts'

const CLIENT = { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }

let servers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(servers.map((close) => close()))
  servers = []
})

/** The mock on a real socket of 127.0.0.1: its API base URL. */
async function listen(mock: TestMock): Promise<string> {
  const server = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        ;(server as unknown as { closeAllConnections(): void }).closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
}

/** One attempt of the client loop below: a status, or the network error a dropped connection gives. */
type Attempt = { status: number; headers: Headers; body: unknown } | { error: string }

/**
 * What a careful client does: retries a network error, a 5xx and a 429, the 429 after waiting
 * Retry-After seconds. At most `attempts` requests; every attempt is returned.
 */
async function fetchWithRetry(url: string, init: RequestInit, attempts = 4): Promise<Attempt[]> {
  const seen: Attempt[] = []
  for (let attempt = 0; attempt < attempts; attempt++) {
    let response: Response
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
    } catch (error) {
      seen.push({ error: (error as Error).message })
      continue
    }
    const text = await response.text()
    seen.push({ status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) })
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('Retry-After')) * 1000))
      continue
    }
    if (response.status < 500) break
  }
  return seen
}

const statuses = (attempts: Attempt[]) => attempts.map((attempt) => ('error' in attempt ? attempt.error : attempt.status))

async function addFault(mock: TestMock, team: number, fault: Record<string, unknown>) {
  const res = await mock.control.post(`/teams/${team}/faults`, fault)
  expect(res.status, res.text).toBe(201)
  return res.body
}

async function faultsOf(mock: TestMock, team: number) {
  const res = await mock.control.get(`/teams/${team}/faults`)
  expect(res.status, res.text).toBe(200)
  return res.body.data as any[]
}

function setUp() {
  const mock = createTestMock()
  const team = mock.newTeam({ generate: { clients: 3 } })
  const token = team.tokens.owner
  const client = team.team.clients.all()[0]?.id as number
  return { mock, team, teamId: team.team.id, client, auth: { Authorization: `Bearer ${token}` } }
}

describe('a client that retries, against each kind of fault on a real socket', () => {
  it('sees 503 twice, then the real answer', async () => {
    const { mock, teamId, client, auth } = setUp()
    const base = await listen(mock)
    const fault = await addFault(mock, teamId, { operationId: 'clients.get', status: 503, times: 2 })
    expect(fault).toEqual({
      object: 'mock_fault',
      id: expect.any(Number),
      team: teamId,
      operationId: 'clients.get',
      method: 'GET',
      path: '/clients/{id}',
      query: null,
      body: null,
      status: 503,
      response_body: null,
      retry_after: null,
      delay_ms: null,
      drop: false,
      times: 2,
      remaining: 2,
      applied: 0,
      created_at: '2026-07-01T12:00:00Z',
    })
    const attempts = await fetchWithRetry(`${base}/clients/${client}`, { headers: auth })
    expect(statuses(attempts)).toEqual([503, 503, 200])
    const [first, , last] = attempts as Array<{ status: number; headers: Headers; body: any }>
    expect(first?.body).toEqual({ message: 'Service Unavailable' })
    expect(first?.headers.get('content-type')).toBe('application/json')
    expect(first?.headers.get('X-RateLimit-Limit')).toBe('10000')
    expect(last?.body).toMatchObject({ object: 'client', id: client })
    expect(await faultsOf(mock, teamId)).toEqual([])
  })

  it('sees a 429 with the rate-limit headers, honours Retry-After, and then gets the list', async () => {
    const { mock, teamId, auth } = setUp()
    const base = await listen(mock)
    await addFault(mock, teamId, { operationId: 'clients.list', status: 429, retry_after: 1 })
    const attempts = await fetchWithRetry(`${base}/clients?limit=2`, { headers: auth })
    expect(statuses(attempts)).toEqual([429, 200])
    const limited = attempts[0] as { headers: Headers; body: unknown }
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' })
    expect(limited.headers.get('Retry-After')).toBe('1')
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('10000')
    // Unix seconds on the mock's clock, which the test mock holds still.
    expect(limited.headers.get('X-RateLimit-Reset')).toBe(String(TEST_NOW.getTime() / 1000 + 1))
    expect((attempts[1] as { body: any }).body).toMatchObject({ object: 'paginated_list', count: 2 })
  })

  it('loses the connection once (no answer at all), retries, and gets the real answer', async () => {
    const { mock, teamId, client, auth } = setUp()
    const base = await listen(mock)
    await addFault(mock, teamId, { method: 'GET', path: '/clients/{id}', drop: true })
    const attempts = await fetchWithRetry(`${base}/clients/${client}`, { headers: auth })
    expect(statuses(attempts)).toEqual(['fetch failed', 200])
  })

  it('waits at least the delay for the real answer, and for a faulted one', async () => {
    const { mock, teamId, client, auth } = setUp()
    const base = await listen(mock)
    const expected = await mock.api(auth.Authorization.slice(7)).get(`/clients/${client}`)
    await addFault(mock, teamId, { operationId: 'clients.get', delay_ms: 300 })
    await addFault(mock, teamId, { operationId: 'clients.get', status: 500, delay_ms: 200 })
    let started = performance.now()
    const late = await fetchWithRetry(`${base}/clients/${client}`, { headers: auth }, 1)
    expect(performance.now() - started).toBeGreaterThanOrEqual(300)
    expect(late).toEqual([{ status: 200, headers: expect.any(Headers), body: expected.body }])
    started = performance.now()
    const failed = await fetchWithRetry(`${base}/clients/${client}`, { headers: auth }, 1)
    expect(performance.now() - started).toBeGreaterThanOrEqual(200)
    expect(statuses(failed)).toEqual([500])
    expect((failed[0] as { body: unknown }).body).toEqual({ message: 'Server Error' })
  })

  it('in process, a dropped connection makes the fetch reject as Node fetch does', async () => {
    const { mock, teamId, client, auth } = setUp()
    await addFault(mock, teamId, { operationId: 'clients.get', drop: true })
    const dropped = Promise.resolve(mock.app.request(`/api/v2/clients/${client}`, { headers: auth }))
    await expect(dropped).rejects.toThrow(TypeError)
    await expect(dropped).rejects.toThrow('fetch failed')
    expect((await mock.app.request(`/api/v2/clients/${client}`, { headers: auth })).status).toBe(200)
  })
})

describe('which requests a fault applies to', () => {
  it('counts times, and null applies to every request until the fault is removed', async () => {
    const { mock, team, teamId, client } = setUp()
    const owner = team.api()
    const counted = await addFault(mock, teamId, { operationId: 'clients.get', status: 502, times: 3 })
    for (const remaining of [2, 1]) {
      expect((await mock.app.request(`/api/v2/clients/${client}`, { headers: { Authorization: `Bearer ${owner.token}` } })).status).toBe(502)
      expect(await faultsOf(mock, teamId)).toEqual([expect.objectContaining({ id: counted.id, remaining, applied: 3 - remaining })])
    }
    const page = await mock.app.request(`/api/v2/clients/${client}`, { headers: { Authorization: `Bearer ${owner.token}` } })
    expect(page.status).toBe(502)
    expect(page.headers.get('content-type')).toBe('text/html')
    expect(await page.text()).toContain('<center><h1>502 Bad Gateway</h1></center>')
    expect(await faultsOf(mock, teamId)).toEqual([])
    expect((await owner.get(`/clients/${client}`)).status).toBe(200)

    const always = await addFault(mock, teamId, { operationId: 'team.get', status: 500, times: null })
    for (let sent = 0; sent < 5; sent++) expect((await mock.app.request('/api/v2/team', { headers: { Authorization: `Bearer ${owner.token}` } })).status).toBe(500)
    expect(await faultsOf(mock, teamId)).toEqual([expect.objectContaining({ id: always.id, times: null, remaining: null, applied: 5 })])
  })

  it('matches a query subset: a value, or each of a list among repeated or comma-separated values', async () => {
    const { mock, team, teamId } = setUp()
    const headers = { Authorization: `Bearer ${team.tokens.owner}` }
    const status = async (path: string) => (await mock.app.request(`/api/v2${path}`, { headers })).status
    await addFault(mock, teamId, { operationId: 'clients.list', query: { status: 'approved' }, status: 500, times: null })
    await addFault(mock, teamId, { operationId: 'organisations.list', query: { expand: ['clients', 'assignees'] }, status: 503, times: null })
    expect(await status('/clients?status=pending')).toBe(200)
    expect(await status('/clients')).toBe(200)
    expect(await status('/clients?limit=2&status=approved')).toBe(500)
    expect(await status('/organisations?expand=clients')).toBe(200)
    expect(await status('/organisations?expand=assignees,clients')).toBe(503)
    expect(await status('/organisations?expand=clients&expand=assignees')).toBe(503)
  })

  it('matches a JSON body subset, property by property, and a faulted write changes nothing', async () => {
    const { mock, team, teamId } = setUp()
    const owner = team.api()
    const taken = { email: ['The email has already been taken.'] }
    await addFault(mock, teamId, { operationId: 'clients.create', body: { name: { last_name: 'Lovelace' } }, status: 422, response_body: taken, times: null })
    const before = team.team.clients.all().length
    const byron = await owner.post('/clients', { ...CLIENT, name: { first_name: 'Ada', last_name: 'Byron' } })
    expect(byron.status).toBe(201)
    const lovelace = await owner.post('/clients', CLIENT)
    expect(lovelace.status).toBe(422)
    expect(lovelace.body).toEqual(taken)
    expect(team.team.clients.all().length).toBe(before + 1)
  })

  it('applies only to requests of its team: another team, and a request without a token, are untouched', async () => {
    const { mock, team, teamId } = setUp()
    const other = mock.newTeam()
    await addFault(mock, teamId, { operationId: 'clients.list', status: 503, times: null })
    expect((await other.api().get('/clients')).status).toBe(200)
    expect((await mock.api().get('/clients')).status).toBe(200)
    expect((await team.api().as(undefined).get('/clients')).status).toBe(401)
    expect((await mock.app.request('/api/v2/clients', { headers: { Authorization: `Bearer ${team.tokens['read-only']}` } })).status).toBe(503)
  })

  it('applies before the operation looks anything up: an unknown id gets the fault, not a 404', async () => {
    const { mock, team, teamId } = setUp()
    await addFault(mock, teamId, { operationId: 'clients.get', status: 503 })
    const res = await mock.app.request('/api/v2/clients/987654', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })
    expect(res.status).toBe(503)
    expect((await team.api().get('/clients/987654')).status).toBe(404)
  })

  it.each([
    [401, { error: 'Unauthenticated.' }],
    [403, { message: 'This action is unauthorized.' }],
    [404, { error: 'Not Found.' }],
    [418, { message: "I'm a Teapot" }],
    [422, { errors: ['The given data was invalid.'] }],
    [500, { message: 'Server Error' }],
    [503, { message: 'Service Unavailable' }],
  ])('answers %i with the API stack\'s own body when the fault gives none', async (status, body) => {
    const { mock, team, teamId } = setUp()
    await addFault(mock, teamId, { operationId: 'me.get', status })
    const res = await mock.app.request('/api/v2/me', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual(body)
  })

  it('the oldest matching fault applies first', async () => {
    const { mock, team, teamId } = setUp()
    await addFault(mock, teamId, { operationId: 'me.get', status: 500 })
    await addFault(mock, teamId, { operationId: 'me.get', status: 503 })
    const status = async () => (await mock.app.request('/api/v2/me', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })).status
    expect([await status(), await status(), await status()]).toEqual([500, 503, 200])
  })
})

describe('listing and removing faults', () => {
  it('lists them oldest first, removes one or all, and answers 404 for an unknown team or fault', async () => {
    const { mock, teamId } = setUp()
    const other = mock.newTeam().team.id
    const first = await addFault(mock, teamId, { operationId: 'clients.get', status: 503 })
    const second = await addFault(mock, teamId, { method: 'POST', path: '/api/v2/records', delay_ms: 3000, times: null })
    const elsewhere = await addFault(mock, other, { operationId: 'clients.get', status: 500 })
    expect(second).toMatchObject({ operationId: 'records.create', method: 'POST', path: '/records', delay_ms: 3000, status: null, times: null, remaining: null })
    expect((await faultsOf(mock, teamId)).map((fault) => fault.id)).toEqual([first.id, second.id])

    expect((await mock.control.delete(`/teams/${teamId}/faults/${elsewhere.id as number}`)).body).toEqual({ error: 'Fault not found' })
    expect((await mock.control.delete(`/teams/${teamId}/faults/${first.id as number}`)).status).toBe(204)
    expect((await faultsOf(mock, teamId)).map((fault) => fault.id)).toEqual([second.id])
    expect((await mock.control.delete(`/teams/${teamId}/faults/${first.id as number}`)).status).toBe(404)
    expect((await mock.control.delete(`/teams/${teamId}/faults`)).status).toBe(204)
    expect(await faultsOf(mock, teamId)).toEqual([])
    expect((await faultsOf(mock, other)).map((fault) => fault.id)).toEqual([elsewhere.id])

    for (const [method, path] of [
      ['GET', '/teams/987654/faults'],
      ['POST', '/teams/987654/faults'],
      ['DELETE', '/teams/987654/faults'],
      ['DELETE', `/teams/987654/faults/${elsewhere.id as number}`],
    ] as const) {
      const res = await mock.control.request(method, path, method === 'POST' ? { body: { operationId: 'clients.get', status: 503 } } : {})
      expect([res.status, res.body], `${method} ${path}`).toEqual([404, { error: 'Team not found' }])
    }
  })
})

describe('the journal', () => {
  it('shows each injected answer with a fault verdict, a dropped connection as 444, and the report counts them', async () => {
    const { mock, team, teamId, client } = setUp()
    const headers = { Authorization: `Bearer ${team.tokens.owner}` }
    const status = await addFault(mock, teamId, { operationId: 'clients.get', status: 503 })
    const limited = await addFault(mock, teamId, { operationId: 'clients.list', status: 429, retry_after: 2 })
    const drop = await addFault(mock, teamId, { operationId: 'team.get', drop: true })
    const delay = await addFault(mock, teamId, { operationId: 'me.get', delay_ms: 5 })
    expect((await mock.app.request(`/api/v2/clients/${client}`, { headers })).status).toBe(503)
    expect((await mock.app.request('/api/v2/clients', { headers })).status).toBe(429)
    await expect(Promise.resolve(mock.app.request('/api/v2/team', { headers }))).rejects.toThrow('fetch failed')
    expect((await mock.app.request('/api/v2/me', { headers })).status).toBe(200)
    expect((await mock.app.request('/api/v2/me', { headers })).status).toBe(200)

    const res = await mock.control.get('/journal', { team: teamId, verdict: 'fault' })
    expect(res.status, res.text).toBe(200)
    expect(res.body.data.map((entry: any) => [entry.operation, entry.status, entry.verdicts])).toEqual([
      ['me.get', 200, [{ kind: 'fault', at: null, message: `fault ${delay.id as number} (me.get): held the answer 5 ms` }]],
      ['team.get', 444, [{ kind: 'fault', at: null, message: `fault ${drop.id as number} (team.get): closed the connection without an answer` }]],
      ['clients.list', 429, [{ kind: 'fault', at: null, message: `fault ${limited.id as number} (clients.list): answered 429 with Retry-After 2 instead of running the operation` }]],
      ['clients.get', 503, [{ kind: 'fault', at: null, message: `fault ${status.id as number} (clients.get): answered 503 instead of running the operation` }]],
    ])
    expect(res.body.data[0].duration_ms).toBeGreaterThanOrEqual(5)

    const report = await mock.control.get('/journal/report', { team: teamId })
    expect(report.body.verdicts).toEqual({ fault: 4 })
    const markdown = await mock.app.request(`/_mock/journal/report?team=${teamId}`, { headers: { Accept: 'text/markdown' } })
    expect(await markdown.text()).toContain('## Answers injected by a fault (POST /_mock/teams/{id}/faults)')
  })
})

describe('the control contract', () => {
  it.each([
    [{}, { operationId: ['The operationId field is required when method and path are not present.'], status: ['The status field is required when delay_ms and drop are not present.'] }],
    [{ operationId: 'clients.nope', status: 503 }, { operationId: ['The selected operationId is invalid.'] }],
    [{ operationId: 'control.clock.get', status: 503 }, { operationId: ['The selected operationId is invalid.'] }],
    [{ method: 'GET', path: '/clients/12', status: 503 }, { path: ["The selected path is invalid: no API operation has GET /clients/12 (write the contract's path, such as /clients/{id})."] }],
    [{ operationId: 'clients.get', method: 'GET', status: 503 }, { operationId: ['The operationId field prohibits method and path from being present.'] }],
    [{ method: 'GET', status: 503 }, { path: ['The path field is required when method is present.'] }],
    [{ path: '/clients', status: 503 }, { method: ['The method field is required when path is present.'] }],
    [{ operationId: 'clients.get', body: { id: 1 }, status: 503 }, { body: ['The body field is prohibited: clients.get takes no JSON body.'] }],
    [{ operationId: 'clients.get', drop: true, status: 503 }, { drop: ['The drop field prohibits status, response_body and retry_after from being present.'] }],
    [{ operationId: 'clients.get', response_body: { oops: true } }, { status: ['The status field is required when response body is present.'] }],
    [{ operationId: 'clients.get', status: 503, retry_after: 5 }, { retry_after: ['The retry after field is prohibited unless status is in 429.'] }],
    [{ operationId: 'clients.get', status: 200 }, { status: ['The status field must be at least 400.'] }],
    [{ operationId: 'clients.get', delay_ms: 0 }, { delay_ms: ['The delay ms field must be at least 1.'] }],
    [{ operationId: 'clients.get', status: 503, times: 0 }, { times: ['The times field must be at least 1.'] }],
  ])('%j is a 422: %j', async (fault, errors) => {
    const { mock, teamId } = setUp()
    const res = await mock.control.post(`/teams/${teamId}/faults`, fault)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect(await faultsOf(mock, teamId)).toEqual([])
  })
})
