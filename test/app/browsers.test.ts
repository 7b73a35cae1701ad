// What the mock lets web pages do (docs/behaviour-notes.md "Security: browsers, hosts and webhooks"): browsers may call /api/v2 from any origin
// by default (frontend development), but not the tokenless control API nor the OAuth endpoints
// unless their origins are configured; requests under a Host name that is neither loopback nor
// allowed (DNS rebinding) are refused before anything else, so no link names such a host.
import { describe, expect, it } from 'vitest'
import { createTestMock, type MockOptions } from '../support/mock.ts'

const PAGE = 'https://evil.example'
const FRONTEND = 'http://localhost:5173'

const preflight = (method: string, origin: string) => ({
  method: 'OPTIONS',
  headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
})

function mockWith(app: MockOptions['app'] = {}) {
  const mock = createTestMock({ app })
  const teams = () => [...mock.store.allTeams()].length
  return { mock, teams }
}

describe('CORS on /api/v2', () => {
  it('answers every origin by default', async () => {
    const { mock } = mockWith()
    const res = await mock.app.request('/api/v2/team', { headers: { Origin: PAGE, Authorization: 'Bearer ivs_acme_owner' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
  })

  it('answers only the configured origins, naming the one that asked', async () => {
    const { mock } = mockWith({ corsOrigins: [FRONTEND, 'http://127.0.0.1:3000'] })
    const allowed = await mock.app.request('/api/v2/team', { headers: { Origin: FRONTEND, Authorization: 'Bearer ivs_acme_owner' } })
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe(FRONTEND)
    expect(allowed.headers.get('Vary')).toContain('Origin')
    const other = await mock.app.request('/api/v2/team', { headers: { Origin: PAGE, Authorization: 'Bearer ivs_acme_owner' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('Access-Control-Allow-Origin')).toBeNull()
    const refused = await mock.app.request('/api/v2/clients', preflight('POST', PAGE))
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })

  it('serves the OpenAPI document to the same origins', async () => {
    const { mock } = mockWith()
    const res = await mock.app.request('/openapi.json', { headers: { Origin: PAGE } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
  })

  it('answers no browser at all with cors false', async () => {
    const { mock } = mockWith({ cors: false })
    const res = await mock.app.request('/api/v2/team', { headers: { Origin: PAGE, Authorization: 'Bearer ivs_acme_owner' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
  })
})

describe('the control API and the OAuth endpoints', () => {
  it.each(['/_mock/teams', '/_mock/clock/advance', '/oauth/token'])('give a page from another origin no CORS answer on %s by default', async (path) => {
    const { mock } = mockWith()
    const res = await mock.app.request(path, preflight('POST', PAGE))
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
    expect(res.headers.get('Access-Control-Allow-Methods')).toBeNull()
  })

  it('refuse a request a page from another origin sends without a preflight, before it changes anything', async () => {
    const { mock, teams } = mockWith()
    const before = teams()
    // A "simple" request: the browser sends it without asking first, and the mock reads any body as JSON.
    const res = await mock.app.request('/_mock/teams', { method: 'POST', body: '{"name": "From a web page"}', headers: { Origin: PAGE, 'Content-Type': 'text/plain' } })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({
      message: `Requests from ${PAGE} to /_mock and /oauth are refused. To let pages from that origin call them, start the mock with --mock-cors-origin ${PAGE} (or IVS_MOCK_CORS_ORIGIN).`,
    })
    expect(teams()).toBe(before)
    const token = await mock.app.request('/oauth/token', { method: 'POST', body: 'grant_type=authorization_code', headers: { Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' } })
    expect(token.status).toBe(403)
  })

  it("take requests from the mock's own pages (the consent form posts with its own origin) and from tools that send no Origin", async () => {
    const { mock, teams } = mockWith()
    const before = teams()
    const own = await mock.app.request('/_mock/teams', { method: 'POST', body: '{}', headers: { Origin: 'http://localhost', 'Content-Type': 'application/json' } })
    expect(own.status).toBe(201)
    expect(await mock.control.post('/teams', {})).toMatchObject({ status: 201 })
    expect(teams()).toBe(before + 2)
  })

  it('answer the configured origins', async () => {
    const { mock, teams } = mockWith({ mockCorsOrigins: [FRONTEND] })
    const asked = await mock.app.request('/_mock/teams', preflight('POST', FRONTEND))
    expect(asked.headers.get('Access-Control-Allow-Origin')).toBe(FRONTEND)
    const before = teams()
    const res = await mock.app.request('/_mock/teams', { method: 'POST', body: '{}', headers: { Origin: FRONTEND, 'Content-Type': 'application/json' } })
    expect(res.status).toBe(201)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(FRONTEND)
    expect(teams()).toBe(before + 1)
    expect((await mock.app.request('/_mock/teams', { method: 'POST', body: '{}', headers: { Origin: PAGE } })).status).toBe(403)
  })

  it('answer any origin when * is configured', async () => {
    const { mock } = mockWith({ mockCorsOrigins: ['*'] })
    const res = await mock.app.request('/_mock/clock', { headers: { Origin: PAGE } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
  })
})

describe('the Host check', () => {
  it.each(['localhost', '127.0.0.1', '[::1]', 'localhost:4010', '127.0.0.1:4010', '[::1]:4010', 'app.localhost:4010', '127.1.2.3'])('answers under the loopback name %s', async (host) => {
    const { mock } = mockWith()
    const res = await mock.app.request(`http://${host}/api/v2/clients?limit=1`, { headers: { Authorization: 'Bearer ivs_acme_owner' } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { links: { next: string } }
    expect(body.links.next).toBe(`http://${host}/api/v2/clients?limit=1&page=2`)
  })

  it.each(['/api/v2/clients', '/_mock/clock', '/openapi.json', '/oauth/authorize', '/nowhere'])('refuses another name with 421 before anything else: %s', async (path) => {
    const { mock, teams } = mockWith()
    const before = teams()
    for (const method of ['GET', 'POST']) {
      const res = await mock.app.request(`http://evil.example:4010${path}`, { method, headers: { Authorization: 'Bearer ivs_acme_owner', Origin: 'http://evil.example:4010' } })
      expect(res.status).toBe(421)
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull()
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({
        message:
          'This mock does not answer to the host name evil.example, only to localhost, 127.0.0.1 and [::1]. To reach it by that name, start it with --allowed-host evil.example (or IVS_ALLOWED_HOSTS=evil.example).',
      })
    }
    expect(teams()).toBe(before)
  })

  it.each([['127.0.0.1'], ['::1'], ['localhost'], ['127.0.0.1', 'ivs-mock', 'ivs-mock']].map((hosts) => ({ hosts })))('names each host once when the bound address or an allowed name is a loopback one: $hosts', async ({ hosts: allowedHosts }) => {
    const { mock } = mockWith({ allowedHosts })
    const refused = await mock.app.request('http://other:4010/api/v2/status')
    expect(refused.status).toBe(421)
    const extra = allowedHosts.includes('ivs-mock') ? ', [::1] and ivs-mock' : ' and [::1]'
    expect(((await refused.json()) as { message: string }).message).toContain(`only to localhost, 127.0.0.1${extra}. `)
  })

  it('answers the allowed names too, and any name with *', async () => {
    const { mock } = mockWith({ allowedHosts: ['ivs-mock', '192.0.2.10'] })
    for (const host of ['ivs-mock:4010', '192.0.2.10:4010', 'IVS-MOCK']) {
      expect((await mock.app.request(`http://${host}/api/v2/status`, { headers: { Authorization: 'Bearer ivs_acme_owner' } })).status, host).toBe(204)
    }
    const refused = await mock.app.request('http://other:4010/api/v2/status')
    expect(refused.status).toBe(421)
    expect(((await refused.json()) as { message: string }).message).toContain('only to localhost, 127.0.0.1, [::1], ivs-mock and 192.0.2.10')
    const any = mockWith({ allowedHosts: ['*'] }).mock
    expect((await any.app.request('http://anything.example/api/v2/status', { headers: { Authorization: 'Bearer ivs_acme_owner' } })).status).toBe(204)
  })
})
