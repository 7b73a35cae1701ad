// A seeded, bounded property test of the validating proxy (in process, on 127.0.0.1): random
// methods, request targets, headers (content codings, lengths, transfer codings, expectations),
// bodies and upstream behaviours (down, slow, early hints, reset before or during the answer, an
// early answer before the body is read, an answer that is no HTTP, a hang-up), each request on a
// raw socket of its own. Whatever comes,
// the proxy stays up (it answers the next request), contacts nothing but its upstream, and
// records every exchange once, with the status the client got and who answered it.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect, createServer as createTcpServer, type AddressInfo, type Server } from 'node:net'
import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidatingProxy } from '../../src/harness/proxy.ts'
import { contracts } from '../support/contracts.ts'
import { waitUntil } from '../support/receiver.ts'

const SEED = 20260601
const RUNS = 150
/** The longest a client waits for an answer before it gives up. */
const CLIENT_PATIENCE_MS = 5_000
const RATE_LIMIT = { 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199' }

type Behaviour = 'answer' | 'gzip-answer' | 'slow' | 'early-hints' | 'reset' | 'early' | 'broken' | 'malformed' | 'hang-up' | 'down'

const listenOn = (server: Server | ReturnType<typeof createHttpServer>) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))

/** The upstream: it does what the request's x-behaviour header says. */
function upstreamServer() {
  const timers = new Set<NodeJS.Timeout>()
  const answer = (res: ServerResponse, status: number, body: Buffer | string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...RATE_LIMIT, ...headers })
    res.end(body)
  }
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    req.on('error', () => undefined)
    res.on('error', () => undefined)
    switch (req.headers['x-behaviour'] as Behaviour | undefined) {
      case 'reset':
        req.socket.resetAndDestroy()
        return
      case 'hang-up':
        req.socket.destroy()
        return
      case 'early':
        // What the mock does with a body too large: refuse it before reading it, and close.
        answer(res, 413, '<html>413</html>', { 'content-type': 'text/html', connection: 'close' })
        return
      case 'malformed':
        req.socket.end('HTTP/1.1 2OO OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}')
        return
      case 'broken':
        req.resume()
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', ...RATE_LIMIT })
        res.write('{"object": ', () => req.socket.resetAndDestroy())
        return
      default:
        req.resume()
        req.on('end', () => {
          const behaviour = req.headers['x-behaviour']
          if (behaviour === 'gzip-answer') answer(res, 200, gzipSync('{"object": "client", "id": 1}'), { 'content-encoding': 'gzip' })
          else if (behaviour === 'early-hints') {
            res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
            answer(res, 200, '{"object": "client", "id": 1}')
          }
          else if (behaviour === 'slow') {
            const timer = setTimeout(() => {
              timers.delete(timer)
              answer(res, 200, '{"object": "client", "id": 1}')
            }, 30)
            timers.add(timer)
          } else answer(res, 200, '{"object": "client", "id": 1}')
        })
    }
  })
  return {
    server,
    close: () => {
      for (const timer of timers) clearTimeout(timer)
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

interface Exchange {
  method: string
  target: string
  headers: Array<[string, string]>
  body: Buffer
  framing: 'length' | 'chunked' | 'gives-up'
  behaviour: Behaviour
  /** Bytes that are no HTTP at all, sent instead of the request. */
  garbage: Buffer | undefined
}

/** The request's bytes as they go on the wire. */
function wire(exchange: Exchange): Buffer {
  if (exchange.garbage) return exchange.garbage
  const head = [`${exchange.method} ${exchange.target} HTTP/1.1`, 'Host: upstream.example', 'Connection: close', `x-behaviour: ${exchange.behaviour}`]
  for (const [name, value] of exchange.headers) head.push(`${name}: ${value}`)
  let body = exchange.body
  if (exchange.framing === 'chunked') {
    head.push('Transfer-Encoding: chunked')
    const chunks: Buffer[] = []
    for (let at = 0; at < body.length; at += 7_000) {
      const chunk = body.subarray(at, at + 7_000)
      chunks.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'))
    }
    chunks.push(Buffer.from('0\r\n\r\n'))
    body = Buffer.concat(chunks)
  } else head.push(`Content-Length: ${exchange.framing === 'gives-up' ? body.length + 100 : body.length}`)
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body])
}

/** Sends the bytes on a new connection; reads the answer until the proxy closes it, or gives up (as the request says, or after CLIENT_PATIENCE_MS). */
function exchangeOver(port: number, bytes: Buffer, givesUp: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let answer = ''
    const done = () => {
      clearTimeout(patience)
      socket.destroy()
      resolve(answer)
    }
    const patience = setTimeout(done, givesUp ? 50 : CLIENT_PATIENCE_MS)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('close', done)
    socket.on('error', done)
  })
}

const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((value) => value.trim())
const JSON_BODY = Buffer.from(JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }))

const body = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.constant(JSON_BODY),
  fc.uint8Array({ maxLength: 3_000 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(gzipSync(JSON_BODY)),
  // 3 MiB of zeros in a few kilobytes: a small decompression bomb.
  fc.constant(gzipSync(Buffer.alloc(3 * 1024 * 1024))),
  fc.constant(deflateRawSync(JSON_BODY)),
  fc.constant(brotliCompressSync(JSON_BODY)),
  fc.constant(Buffer.alloc(1024 * 1024 + 10, 0x20)),
)

const exchange: fc.Arbitrary<Exchange> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'BREW'),
  target: fc.oneof(
    fc.constantFrom('/api/v2/clients', '/api/v2/clients/7', '/api/v2/status', '/api/v2/records?limit=2&bogus=1', '/_mock/teams', '/nowhere', '/api/v2/%zz/..%2f'),
    fc.stringMatching(/^\/[A-Za-z0-9._~%!$&'()*+,;=:@/?-]{0,60}$/),
    fc.constantFrom('http://SENTINEL/x', '//SENTINEL/x', 'ftp://SENTINEL/x', 'https://SENTINEL/', '*', 'SENTINEL'),
  ),
  headers: fc.array(
    fc.oneof(
      fc.tuple(fc.constant('Content-Type'), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'multipart/form-data; boundary=x', 'text/plain', 'application/octet-stream')),
      fc.tuple(fc.constant('Content-Encoding'), fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'zstd', 'gzip, br', 'x-gzip', 'chunked')),
      fc.tuple(fc.constant('Authorization'), fc.constantFrom('Bearer ivs_acme_owner', 'Bearer', 'Basic abc')),
      fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'the-unexpected')),
      fc.tuple(fc.constantFrom('Accept-Encoding', 'Upgrade', 'TE', 'Proxy-Authorization', 'X-Forwarded-For'), printable),
      fc.tuple(token.map((name) => `x-${name}`), printable),
    ),
    { maxLength: 6 },
  ),
  body,
  framing: fc.constantFrom('length', 'chunked', 'gives-up'),
  behaviour: fc.constantFrom('answer', 'gzip-answer', 'slow', 'early-hints', 'reset', 'early', 'broken', 'malformed', 'hang-up', 'down'),
  garbage: fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Buffer.concat([Buffer.from([0x01]), Buffer.from(bytes), Buffer.from('\r\n\r\n')])) },
  ),
})

describe('the validating proxy under random traffic', () => {
  const upstream = upstreamServer()
  const sentinelConnections: string[] = []
  const sentinel = createTcpServer((socket) => {
    sentinelConnections.push(socket.remoteAddress ?? '?')
    socket.destroy()
  })
  let upstreamPort = 0
  let sentinelHost = ''
  let proxy: ValidatingProxy
  let proxyDown: ValidatingProxy
  let ports: { up: number; down: number }

  beforeAll(async () => {
    upstreamPort = await listenOn(upstream.server)
    sentinelHost = `127.0.0.1:${await listenOn(sentinel)}`
    // An upstream that is down: a port just freed.
    const freed = createTcpServer()
    const downPort = await listenOn(freed)
    await new Promise<void>((resolve) => freed.close(() => resolve()))
    const log = () => undefined
    proxy = new ValidatingProxy(contracts, { upstream: `http://127.0.0.1:${upstreamPort}`, host: '127.0.0.1', port: 0, log })
    proxyDown = new ValidatingProxy(contracts, { upstream: `http://127.0.0.1:${downPort}`, host: '127.0.0.1', port: 0, log })
    ports = { up: await proxy.start(), down: await proxyDown.start() }
  })

  afterAll(async () => {
    await proxy?.stop()
    await proxyDown?.stop()
    await upstream.close()
    sentinel.close()
  })

  it(`stays up, contacts only its upstream and records every exchange once (${RUNS} runs, seed ${SEED})`, { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(exchange, async (generated) => {
        const sent = { ...generated, target: generated.target.replace('SENTINEL', sentinelHost) }
        const through = sent.behaviour === 'down' ? proxyDown : proxy
        const before = through.exchanges.length
        const answer = await exchangeOver(sent.behaviour === 'down' ? ports.down : ports.up, wire(sent), sent.framing === 'gives-up' && !sent.garbage)

        await waitUntil(() => through.exchanges.length > before, CLIENT_PATIENCE_MS, () => `the exchange recorded: ${JSON.stringify(answer.slice(0, 200))}`)
        const recordedNow = through.exchanges.slice(before)
        expect(recordedNow.length, JSON.stringify(recordedNow.map(({ method, path, status, notes }) => [method, path, status, notes]))).toBe(1)
        const [recorded] = recordedNow as [(typeof recordedNow)[number]]
        // The final answer's status: after any 100 Continue.
        const status = Number(/^(?:HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)*HTTP\/1\.1 ([2-9]\d\d) /.exec(answer)?.[1] ?? Number.NaN)
        const proxyBody = answer.includes('\r\n\r\n{"message":"ivs-mock proxy: ')
        // The status the client got is the one recorded, and the proxy's own answers (their bodies say so; HEAD has none) are marked as its.
        if (Number.isInteger(status)) {
          expect(recorded.status, answer.slice(0, 300)).toBe(status)
          if (sent.method !== 'HEAD') expect(recorded.answeredBy).toBe(proxyBody ? 'proxy' : 'upstream')
        }
        if (recorded.answeredBy === 'proxy') expect(recorded.verdicts.map((verdict) => verdict.kind)).toContain('not_relayed')
        const foreign = !sent.garbage && (!sent.target.startsWith('/') || sent.target.startsWith('//') || sent.method === 'CONNECT')
        if (foreign && recorded.method === sent.method) expect([recorded.status, recorded.answeredBy]).toEqual([400, 'proxy'])

        // Still up: the next request through it is the upstream's answer.
        const next = await exchangeOver(ports.up, Buffer.from('GET /api/v2/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-behaviour: answer\r\n\r\n'), false)
        expect(next).toMatch(/^HTTP\/1\.1 200 OK/)
        await waitUntil(() => proxy.exchanges.at(-1)?.path === '/api/v2/status' && proxy.exchanges.at(-1)?.answeredBy === 'upstream')
        expect(sentinelConnections).toEqual([])
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    // And it stops: every exchange under way ends and is recorded.
    await proxy.stop()
    await proxyDown.stop()
  })
})
