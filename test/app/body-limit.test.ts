// JSON (and form) request bodies under a size limit (docs/behaviour-notes.md "Validation (422)"): a Content-Length
// over it is refused with the web server's 413 page before a byte is read, a body without one as
// soon as it passes the limit, on the API, the tokenless control API and the OAuth token endpoint.
// A body that breaks off is answered as malformed and logged in one quiet line.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_MAX_BODY_BYTES } from '../../src/kernel/body.ts'
import { ApiClient, CONTROL } from '../support/api.ts'
import { createTestMock } from '../support/mock.ts'
import { oauthEndpoints } from '../support/oauth.ts'
import { TOO_LARGE_PAGE } from '../support/uploads.ts'

const ascii = (text: string) => new TextEncoder().encode(text)

/** A body that never ends, counting how many chunks of `chunk` bytes were pulled from it. */
function endless(chunk: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0
  const block = new Uint8Array(chunk).fill(0x20)
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled++
        controller.enqueue(pulled === 1 ? ascii(`{"name":"${' '.repeat(chunk - 9)}`) : block)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, pulled: () => pulled }
}

/** The three surfaces that read a JSON or form body, each with a request that is fine when small. */
function surfaces(mock: ReturnType<typeof createTestMock>) {
  return [
    { name: 'the API (POST /clients)', client: mock.api(), path: '/clients', headers: { 'Content-Type': 'application/json' } },
    { name: 'the control API (POST /_mock/teams)', client: new ApiClient(mock.app, undefined, CONTROL), path: '/teams', headers: { 'Content-Type': 'application/json' } },
    { name: 'the OAuth token endpoint', client: oauthEndpoints(mock), path: '/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
  ]
}

function expectTooLarge(res: { status: number; headers: Headers; text: string }) {
  expect(res.status).toBe(413)
  expect(res.headers.get('content-type')).toBe('text/html')
  expect(res.headers.get('connection')).toBe('close')
  expect(res.text).toBe(TOO_LARGE_PAGE)
}

describe('a JSON or form body over the limit', () => {
  it("is 1 MiB by default (nginx's default)", () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1024 * 1024)
  })

  it.each([0, 1, 2])('is refused at once from its Content-Length, reading none of it: surface %i', async (index) => {
    const mock = createTestMock()
    const surface = surfaces(mock)[index] as ReturnType<typeof surfaces>[number]
    const { stream, pulled } = endless(64 * 1024)
    const teams = [...mock.store.allTeams()].length
    const res = await surface.client.request('POST', surface.path, {
      raw: stream,
      headers: { ...surface.headers, 'Content-Length': String(DEFAULT_MAX_BODY_BYTES + 1) },
    })
    expectTooLarge(res)
    expect(pulled()).toBe(0)
    expect([...mock.store.allTeams()].length).toBe(teams)
  })

  it.each([0, 1, 2])('is refused as soon as it passes the limit when it comes without a Content-Length: surface %i', async (index) => {
    const mock = createTestMock({ app: { maxBodyBytes: 256 * 1024 } })
    const surface = surfaces(mock)[index] as ReturnType<typeof surfaces>[number]
    const { stream, pulled } = endless(64 * 1024)
    const res = await surface.client.request('POST', surface.path, { raw: stream, headers: surface.headers })
    expectTooLarge(res)
    // Four chunks make the limit; the fifth passes it, and nothing more is read.
    expect(pulled()).toBe(5)
  })

  it('a body of exactly the limit is read', async () => {
    const body = JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' })
    const limit = 4096
    const mock = createTestMock({ app: { maxBodyBytes: limit } })
    const exact = await mock.api().request('POST', '/clients', { raw: body + ' '.repeat(limit - body.length), headers: { 'Content-Type': 'application/json' } })
    expect(exact.status, exact.text).toBe(201)
    const over = await mock.api().request('POST', '/clients', { raw: body + ' '.repeat(limit - body.length + 1), headers: { 'Content-Type': 'application/json' } })
    expectTooLarge(over)
  })

  it('a body of a million keys is refused before it is parsed', async () => {
    const mock = createTestMock()
    const keys = Array.from({ length: 1_000_000 }, (_, index) => `"k${index}":1`).join(',')
    const body = ascii(`{"name":{"first_name":"Ada","last_name":"Lovelace"},"email":"ada@example.com",${keys}}`)
    expect(body.length).toBeGreaterThan(DEFAULT_MAX_BODY_BYTES)
    const clients = [...mock.store.allTeams()].reduce((sum, team) => sum + team.clients.size, 0)
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < body.length; offset += 64 * 1024) controller.enqueue(body.subarray(offset, offset + 64 * 1024))
        controller.close()
      },
    })
    expectTooLarge(await mock.api().request('POST', '/clients', { raw: chunked, headers: { 'Content-Type': 'application/json' } }))
    expect([...mock.store.allTeams()].reduce((sum, team) => sum + team.clients.size, 0)).toBe(clients)
  })

  it('is kept out of the journal, which goes on recording', async () => {
    const mock = createTestMock({ app: { maxBodyBytes: 1024 } })
    const team = mock.newTeam()
    const res = await team.api().request('POST', '/clients', { raw: `{"reference":"${'x'.repeat(2000)}"}`, headers: { 'Content-Type': 'application/json' } })
    expectTooLarge(res)
    const journal = await mock.control.get('/journal', { team: team.team.id })
    expect(journal.status).toBe(200)
    expect(journal.body.data).toMatchObject([{ method: 'POST', path: '/api/v2/clients', operation: 'clients.create', status: 413 }])
  })
})

describe('a body that breaks off', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('is answered as malformed JSON, changes nothing and is logged in one line without a stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const mock = createTestMock()
    const team = mock.newTeam()
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(ascii('{"name": {"first_name": "Ada", '))
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      },
    })
    const res = await team.api().request('POST', '/clients', { raw: broken, headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['The request body must be valid JSON.'] })
    expect(team.team.clients.size).toBe(0)
    expect(logged.mock.calls).toEqual([['ivs-mock: POST /api/v2/clients: the client went away before sending its whole body']])
    // The journal, which reads the same body, records the answer and nothing more happens.
    const journal = await mock.control.get('/journal', { team: team.team.id })
    expect(journal.body.data).toMatchObject([{ path: '/api/v2/clients', status: 422 }])
  })
})
