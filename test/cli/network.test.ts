// The mock on a real socket of 127.0.0.1, as a process, where the wire matters: the JSON body limit
// and its flag, clients that hang up mid-body, the Host check (Host header and absolute request
// targets), CORS flags, and webhooks that would point back at the mock.
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { childrenKilledAfterEach, IVS_MOCK_BIN as BIN, mockEnv, runToExit, startServe, type RunningServe } from '../support/process.ts'
import { startReceiver } from '../support/receiver.ts'
import { TOO_LARGE_PAGE } from '../support/uploads.ts'

const LIMIT_MS = 15_000

const running = childrenKilledAfterEach()

function serve(args: string[] = [], extra: Record<string, string> = {}): Promise<RunningServe> {
  return startServe(BIN, args, { env: mockEnv(extra), limitMs: LIMIT_MS, started: (child) => running.add(child) })
}

/** Writes raw HTTP/1.1 and reads what comes back until the server closes or `ms` pass. */
function raw(port: number, request: string, ms = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(answer)
    }, ms)
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString()
      // One answer is all these requests want.
      if (/\r\n\r\n/.test(answer) && /content-length: (\d+)/i.test(answer)) {
        const length = Number(/content-length: (\d+)/i.exec(answer)?.[1])
        if (Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4)) >= length) {
          clearTimeout(timer)
          socket.destroy()
          resolve(answer)
        }
      }
    })
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
    socket.write(request)
  })
}

const owner = { Authorization: 'Bearer ivs_acme_owner', 'Content-Type': 'application/json' }

describe('--max-body', () => {
  it('refuses a larger JSON body with the 413 page, from its Content-Length or while reading it', async () => {
    const mock = await serve(['--max-body', '2kb'])
    const big = JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com', reference: 'x'.repeat(3000) })
    const declared = await fetch(`${mock.origin}/api/v2/clients`, { method: 'POST', headers: owner, body: big })
    expect(declared.status).toBe(413)
    expect(await declared.text()).toBe(TOO_LARGE_PAGE)
    const streamed: RequestInit & { duplex: 'half' } = { method: 'POST', headers: owner, body: new Blob([big]).stream(), duplex: 'half' }
    const chunked = await fetch(`${mock.origin}/api/v2/clients`, streamed)
    expect(chunked.status).toBe(413)
    const small = await fetch(`${mock.origin}/api/v2/clients`, { method: 'POST', headers: owner, body: JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }) })
    expect(small.status).toBe(201)
  })

  it.each([
    [['--max-body', 'banana'], 'the body limit must be a number of bytes from 1024 to 1073741824, or a size such as 512kb, 1mb or 10mb.'],
    [['--max-body', '2tb'], 'the body limit must be a number of bytes'],
    [['--cors-origin', 'localhost:3000'], 'expected origins such as http://localhost:5173'],
    [['--mock-cors-origin', 'http://localhost:3000/path'], 'expected origins such as http://localhost:5173'],
    [['--allowed-host', 'ivs-mock:4010'], 'expected host names or addresses without a port'],
  ])('%j exits 2 with a clear message', async (args, message) => {
    const { code, stderr } = await runToExit(BIN, ['serve', '--port', '0', ...args], { env: mockEnv(), limitMs: LIMIT_MS, started: (child) => running.add(child) })
    expect(code).toBe(2)
    expect(stderr).toContain(message)
  })
})

describe('a client that hangs up before its whole body has arrived', () => {
  it('is logged in one line without a stack, and the mock goes on', async () => {
    const mock = await serve()
    for (const path of ['/api/v2/clients', '/_mock/teams', '/oauth/token']) {
      const socket = connect(mock.port, '127.0.0.1')
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${mock.port}\r\nAuthorization: Bearer ivs_acme_owner\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name": `)
      await new Promise((resolve) => setTimeout(resolve, 100))
      socket.destroy()
    }
    const deadline = Date.now() + 5_000
    while (mock.stderr.split('\n').filter((line) => line.includes('went away')).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    const lines = mock.stderr.split('\n').filter((line) => line !== '' && !line.includes('building it first'))
    expect(lines).toEqual([
      'ivs-mock: POST /api/v2/clients: the client went away before sending its whole body',
      'ivs-mock: POST /_mock/teams: the client went away before sending its whole body',
      'ivs-mock: POST /oauth/token: the client went away before sending its whole body',
    ])
    expect((await fetch(`${mock.origin}/api/v2/status`, { headers: owner })).status).toBe(204)
  })
})

describe('the Host check on the wire', () => {
  it('answers the loopback names and refuses others, by Host header or absolute request target', async () => {
    const mock = await serve()
    const get = (target: string, host: string) => raw(mock.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ivs_acme_owner\r\nConnection: close\r\n\r\n`)
    expect(await get('/api/v2/status', `localhost:${mock.port}`)).toMatch(/^HTTP\/1\.1 204 /)
    expect(await get('/api/v2/status', `[::1]:${mock.port}`)).toMatch(/^HTTP\/1\.1 204 /)
    const rebound = await get('/api/v2/clients?limit=1', `evil.example:${mock.port}`)
    expect(rebound).toMatch(/^HTTP\/1\.1 421 /)
    expect(rebound).toContain('This mock does not answer to the host name evil.example')
    expect(rebound).not.toContain('"links"')
    expect(await get(`http://evil.example:${mock.port}/_mock/clock`, `127.0.0.1:${mock.port}`)).toMatch(/^HTTP\/1\.1 421 /)
  })

  it('answers the names --allowed-host (or IVS_ALLOWED_HOSTS) adds', async () => {
    const mock = await serve([], { IVS_ALLOWED_HOSTS: 'ivs-mock,mock.internal' })
    const res = await raw(mock.port, `GET /api/v2/clients?limit=1 HTTP/1.1\r\nHost: ivs-mock:${mock.port}\r\nAuthorization: Bearer ivs_acme_owner\r\nConnection: close\r\n\r\n`)
    expect(res).toMatch(/^HTTP\/1\.1 200 /)
    expect(res).toContain(`"next":"http://ivs-mock:${mock.port}/api/v2/clients?limit=1&page=2"`)
  })
})

describe('CORS flags', () => {
  it('--cors-origin narrows the API to the listed origins; --mock-cors-origin opens the control API to its own', async () => {
    const mock = await serve(['--cors-origin', 'http://localhost:5173', '--mock-cors-origin', 'http://localhost:8080'])
    const api = (origin: string) => fetch(`${mock.origin}/api/v2/status`, { headers: { ...owner, Origin: origin } })
    expect((await api('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect((await api('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull()
    const control = (origin: string) => fetch(`${mock.origin}/_mock/clock`, { headers: { Origin: origin } })
    const allowed = await control('http://localhost:8080')
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:8080')
    expect((await control('http://localhost:5173')).status).toBe(403)
  })
})

describe('webhooks that would point back at the mock', () => {
  it('are refused under every name of its address and port; other ports are fine', async () => {
    const mock = await serve()
    const receiver = await startReceiver()
    try {
      const create = (url: string) => fetch(`${mock.origin}/api/v2/webhooks`, { method: 'POST', headers: owner, body: JSON.stringify({ url, events: ['client.*'], is_enabled: false }) })
      for (const url of [`http://127.0.0.1:${mock.port}/_mock/teams`, `http://localhost:${mock.port}/api/v2/clients`, `http://[::1]:${mock.port}/_mock/teams`, `http://0.0.0.0:${mock.port}/_mock/teams`]) {
        const res = await create(url)
        expect(res.status, url).toBe(422)
        expect(await res.json()).toEqual({ url: ['The url field must not point at the mock itself.'] })
      }
      expect((await create(receiver.url)).status).toBe(201)
    } finally {
      await receiver.close()
    }
  })
})
