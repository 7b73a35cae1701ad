// The validating proxy (ivs-mock proxy) under hostile and clumsy input, as a child process on
// 127.0.0.1: bodies it cannot decode and decompression bombs pass through unjudged with a note;
// request targets that would reach anything but --upstream (absolute-form, //host, another scheme,
// CONNECT) are a 400 the proxy answers itself; what it answered itself (the upstream down or gone
// mid-body) and an upstream's early answer (a 413 before the body is sent) are recorded with who
// answered; report paths are checked at start, and one that fails at stop does not stop the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createGzip, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { IVS_MOCK_BIN as BIN, runToExit } from '../support/process.ts'
import { MB, proxyProcesses, rawExchange, send } from '../support/proxy.ts'
import { receiversClosedAfterEach } from '../support/receiver.ts'

const OWNER = 'Bearer ivs_acme_owner'
const CLIENT = { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }
const CREATED = JSON.stringify({ object: 'client', id: 1 })
const RATE_LIMIT = { 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199' }

const { running, startMock, startProxy, stop, tempFolder, upstream: upstreamServer } = proxyProcesses()
const receiver = receiversClosedAfterEach()

/** A port nothing listens on: one just freed. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Writes `request` as it is on a new connection and reads until the proxy closes it. */
const raw = (origin: string, request: string): Promise<string> => rawExchange(Number(new URL(origin).port), request)

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1])
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4)

/** `size` bytes of zeros, gzipped as they stream (never whole in memory): a decompression bomb. */
async function gzipBomb(size: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 })
  const out: Buffer[] = []
  gzip.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve) => gzip.on('end', resolve))
  const block = Buffer.alloc(MB)
  for (let written = 0; written < size; written += block.length) {
    if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve))
  }
  gzip.end()
  await done
  return Buffer.concat(out)
}

interface ReportedExchange {
  method: string
  path: string
  status: number
  answeredBy: 'upstream' | 'proxy'
  operationId: string | null
  requestViolations: string[]
  responseViolations: string[]
  verdicts: Array<{ kind: string; message: string }>
  notes: string[]
}

const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { total: number; verdicts: Record<string, number>; exchanges: ReportedExchange[] }

describe('bodies it cannot judge', () => {
  it('passes a body that is not what its Content-Encoding says, a decompression bomb and an unknown coding through unjudged, with a note, and keeps running', { timeout: 120_000 }, async () => {
    const folder = tempFolder()
    const upstream = await receiver(() => ({ status: 201, headers: { 'content-type': 'application/json', ...RATE_LIMIT }, body: CREATED }))
    const proxy = await startProxy(new URL(upstream.url).origin, '--json', join(folder, 'report.json'))
    const headers = (encoding: string) => ({ Authorization: OWNER, 'Content-Type': 'application/json', 'Content-Encoding': encoding })
    const notGzip = JSON.stringify(CLIENT)
    // 600 MiB of zeros in about 600 KB: decoded whole, it is longer than a string may be.
    const bomb = await gzipBomb(600 * MB)
    expect(bomb.length).toBeLessThan(MB)

    expect((await send(proxy.origin, 'POST', '/api/v2/clients', { headers: headers('gzip'), body: notGzip })).status).toBe(201)
    expect((await send(proxy.origin, 'POST', '/api/v2/clients', { headers: headers('gzip'), body: bomb })).status).toBe(201)
    expect((await send(proxy.origin, 'POST', '/api/v2/clients', { headers: headers('zstd'), body: notGzip })).status).toBe(201)
    // A body that is gzip as it says is still judged.
    expect((await send(proxy.origin, 'POST', '/api/v2/clients', { headers: headers('gzip'), body: gzipSync(JSON.stringify({ email: 'ada@example.com' })) })).status).toBe(201)
    // The upstream got every body as it was sent.
    expect(upstream.received.map((request) => request.raw.length)).toEqual([Buffer.byteLength(notGzip), bomb.length, Buffer.byteLength(notGzip), expect.any(Number)])
    expect(upstream.received[1]?.raw.equals(bomb)).toBe(true)

    expect(await stop(proxy.child)).toBe(0)
    const { exchanges } = readReport(join(folder, 'report.json'))
    expect(exchanges.map((exchange) => [exchange.status, exchange.answeredBy, exchange.requestViolations, exchange.notes])).toEqual([
      [201, 'upstream', [], ['request body not checked: it is not gzip as its Content-Encoding says (incorrect header check)']],
      [201, 'upstream', [], [`request body not checked: over ${MB} bytes once decoded (gzip)`]],
      [201, 'upstream', [], ['request body not checked: its Content-Encoding zstd is not one the proxy decodes']],
      [201, 'upstream', ['request body: must have required property \'name\' {"missingProperty":"name"}'], []],
    ])
  })

  it('passes an answer it cannot decode through unjudged, with a note', { timeout: 60_000 }, async () => {
    const folder = tempFolder()
    const bomb = await gzipBomb(64 * MB)
    const upstream = await upstreamServer((req, res) => {
      req.resume()
      const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip', ...RATE_LIMIT }
      res.writeHead(200, headers)
      res.end(req.url === '/api/v2/clients/1' ? Buffer.from('{"not":"gzip"}') : bomb)
    })
    const proxy = await startProxy(upstream, '--json', join(folder, 'report.json'))
    const broken = await send(proxy.origin, 'GET', '/api/v2/clients/1', { headers: { Authorization: OWNER } })
    expect([broken.status, broken.text]).toEqual([200, '{"not":"gzip"}'])
    const bombed = await send(proxy.origin, 'GET', '/api/v2/clients/2', { headers: { Authorization: OWNER } })
    expect([bombed.status, bombed.size]).toEqual([200, bomb.length])
    expect(await stop(proxy.child)).toBe(0)
    const { exchanges } = readReport(join(folder, 'report.json'))
    expect(exchanges.map((exchange) => exchange.notes)).toEqual([
      ['response body not checked: it is not gzip as its Content-Encoding says (incorrect header check)'],
      [`response body not checked: over ${MB} bytes once decoded (gzip)`],
    ])
  })
})

describe('request targets', () => {
  it('contacts only --upstream: absolute-form, //host, another scheme, * and CONNECT are a 400 it answers itself, recorded as such', { timeout: 60_000 }, async () => {
    const folder = tempFolder()
    const upstream = await receiver(() => ({ status: 204, headers: RATE_LIMIT }))
    const other = await receiver(() => ({ status: 200, body: 'the other server' }))
    const otherHost = new URL(other.url).host
    const proxy = await startProxy(new URL(upstream.url).origin, '--json', join(folder, 'report.json'), '--junit', join(folder, 'report.xml'))
    const targets: Array<[string, string]> = [
      ['GET', `http://${otherHost}/x`],
      ['GET', `//${otherHost}/x`],
      ['GET', 'ftp://127.0.0.1:1/x'],
      ['OPTIONS', '*'],
      ['CONNECT', otherHost],
    ]
    for (const [method, target] of targets) {
      const answer = await raw(proxy.origin, `${method} ${target} HTTP/1.1\r\nHost: ${otherHost}\r\nConnection: close\r\n\r\n`)
      expect(statusOf(answer), `${method} ${target}: ${answer}`).toBe(400)
      const { message } = JSON.parse(bodyOf(answer)) as { message: string }
      expect(message, target).toMatch(/^ivs-mock proxy: not forwarded: /)
      expect(message).not.toContain('\n')
    }
    // And a request the proxy does forward, on the path the upstream has.
    expect((await send(proxy.origin, 'GET', '/api/v2/status')).status).toBe(204)
    expect(other.received).toEqual([])
    expect(upstream.received.map((request) => request.path)).toEqual(['/api/v2/status'])

    expect(await stop(proxy.child)).toBe(0)
    expect(proxy.output()).toContain(`GET http://${otherHost}/x -> 400 (no operation) ✗ answered by the proxy: not forwarded: the request target is not a path ("http://${otherHost}/x")`)
    const report = readReport(join(folder, 'report.json'))
    expect(report.total).toBe(6)
    expect(report.verdicts.not_relayed).toBe(5)
    expect(report.exchanges.map((exchange) => [exchange.method, exchange.path, exchange.status, exchange.answeredBy, exchange.operationId])).toEqual([
      ['GET', `http://${otherHost}/x`, 400, 'proxy', null],
      ['GET', `//${otherHost}/x`, 400, 'proxy', null],
      ['GET', 'ftp://127.0.0.1:1/x', 400, 'proxy', null],
      ['OPTIONS', '*', 400, 'proxy', null],
      ['CONNECT', otherHost, 400, 'proxy', null],
      ['GET', '/api/v2/status', 204, 'upstream', 'status.get'],
    ])
    const xml = readFileSync(join(folder, 'report.xml'), 'utf8')
    expect(xml).toContain('<testsuites tests="6" failures="0" errors="5"')
  })
})

describe('what the proxy answers itself, and early answers', () => {
  it('records the 502s of an upstream that is down or gone mid-body, and an answer that broke off, with who answered', { timeout: 60_000 }, async () => {
    const folder = tempFolder()
    const down = await closedPort()
    const proxyDown = await startProxy(`http://127.0.0.1:${down}`, '--json', join(folder, 'down.json'), '--junit', join(folder, 'down.xml'))
    const refused = await send(proxyDown.origin, 'GET', '/api/v2/status', { headers: { Authorization: OWNER } })
    expect(refused.status).toBe(502)
    expect(JSON.parse(refused.text)).toEqual({ message: `ivs-mock proxy: the upstream http://127.0.0.1:${down} did not answer: connect ECONNREFUSED 127.0.0.1:${down}` })
    expect(await stop(proxyDown.child)).toBe(0)
    expect(proxyDown.output()).toMatch(/SIGTERM, 1 exchanges, 0 breaking the contract, 1 answered by the proxy/)
    const downReport = readReport(join(folder, 'down.json'))
    expect(downReport.exchanges.map((exchange) => [exchange.status, exchange.answeredBy, exchange.operationId, exchange.verdicts.map((verdict) => verdict.kind)])).toEqual([[502, 'proxy', 'status.get', ['not_relayed']]])
    expect(readFileSync(join(folder, 'down.xml'), 'utf8')).toContain('errors="1"')

    // Reads a little of the request body, then resets; or answers half its body, then resets.
    const flaky = await upstreamServer((req, res) => {
      if (req.url === '/api/v2/clients') {
        req.once('data', () => req.socket.resetAndDestroy())
        return
      }
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      res.write('{"object": "client", ', () => req.socket.resetAndDestroy())
    })
    const proxy = await startProxy(flaky, '--json', join(folder, 'flaky.json'))
    const cut = await send(proxy.origin, 'POST', '/api/v2/clients', { headers: { Authorization: OWNER, 'Content-Type': 'application/json' }, body: JSON.stringify(CLIENT) })
    expect(cut.status).toBe(502)
    await expect(send(proxy.origin, 'GET', '/api/v2/clients/1', { headers: { Authorization: OWNER } })).rejects.toThrow()
    expect(await stop(proxy.child)).toBe(0)
    const flakyReport = readReport(join(folder, 'flaky.json'))
    expect(flakyReport.exchanges.map((exchange) => [exchange.method, exchange.status, exchange.answeredBy, exchange.verdicts.filter((verdict) => verdict.kind === 'not_relayed').length])).toEqual([
      ['POST', 502, 'proxy', 1],
      ['GET', 200, 'upstream', 1],
    ])
    expect(flakyReport.exchanges[1]?.notes).toEqual([expect.stringMatching(/^the answer broke off after 21 bytes/)])
  })

  it("forwards the mock's early 413 for a 100 MB body (not a 502), and judges no 2 MB body it refused as missing fields", { timeout: 180_000 }, async () => {
    const folder = tempFolder()
    const mock = await startMock()
    const proxy = await startProxy(mock.origin, '--json', join(folder, 'report.json'))
    const headers = { Authorization: OWNER, 'Content-Type': 'application/json' }
    function* spaces(size: number): Generator<Uint8Array> {
      const block = new Uint8Array(64 * 1024).fill(0x20)
      for (let sent = 0; sent < size; sent += block.length) yield sent + block.length <= size ? block : block.subarray(0, size - sent)
    }
    for (let round = 0; round < 3; round++) {
      const refused = await send(proxy.origin, 'POST', '/api/v2/clients', { headers: { ...headers, 'Content-Length': String(100 * MB) }, body: spaces(100 * MB) })
      expect(refused.status, refused.text).toBe(413)
      expect(refused.text).toContain('413 Request Entity Too Large')
    }
    const twoMb = await send(proxy.origin, 'POST', '/api/v2/clients', { headers, body: `${' '.repeat(2 * MB)}${JSON.stringify(CLIENT)}` })
    expect(twoMb.status).toBe(413)
    expect(await stop(proxy.child)).toBe(0)
    const { exchanges } = readReport(join(folder, 'report.json'))
    expect(exchanges).toHaveLength(4)
    for (const exchange of exchanges) {
      expect(exchange).toMatchObject({ status: 413, answeredBy: 'upstream', operationId: 'clients.create', requestViolations: [] })
      expect(exchange.notes).toEqual([expect.stringMatching(/^request body not checked \(/)])
    }
  })
})

describe('report paths', () => {
  it('are checked at start: one that cannot be written is a clear error and exit 2, before it listens', async () => {
    const folder = tempFolder()
    const file = join(folder, 'a-file')
    writeFileSync(file, '')
    const cases: Array<[string[], string]> = [
      [['--json', join(file, 'report.json')], `ivs-mock proxy: --json ${join(file, 'report.json')}: cannot be written: ${file} is not a folder`],
      [['--junit', folder], `ivs-mock proxy: --junit ${folder}: cannot be written: it is a folder`],
      [['--record', join(file, 'deeper', 'session.yaml')], `ivs-mock proxy: --record ${join(file, 'deeper', 'session.yaml')}: cannot be written: ${file} is not a folder`],
      [['--json', join(folder, 'same.json'), '--junit', join(folder, 'same.json')], `ivs-mock proxy: --json and --junit name the same file ${join(folder, 'same.json')}`],
    ]
    for (const [args, message] of cases) {
      const run = await runToExit(BIN, ['proxy', '--upstream', 'http://127.0.0.1:1', '--port', '0', ...args], { limitMs: 20_000, started: (child) => running.add(child) })
      expect(run.code, run.stdout + run.stderr).toBe(2)
      expect(run.stderr.trim()).toBe(message)
      expect(run.stdout).not.toContain('listening')
    }
  })

  it('a report that cannot be written at stop does not stop the others: they are written, and the exit code is 1', { timeout: 60_000 }, async () => {
    const folder = tempFolder()
    const upstream = await receiver(() => ({ status: 204, headers: RATE_LIMIT }))
    const gone = join(folder, 'gone')
    const proxy = await startProxy(new URL(upstream.url).origin, '--json', join(gone, 'report.json'), '--junit', join(folder, 'report.xml'), '--record', join(folder, 'session.yaml'))
    expect((await send(proxy.origin, 'GET', '/api/v2/status', { headers: { Authorization: OWNER } })).status).toBe(204)
    // A file takes the place of the report's folder before the reports are written.
    writeFileSync(gone, '')
    expect(await stop(proxy.child)).toBe(1)
    expect(proxy.output()).toContain(`ivs-mock proxy: could not write --json ${join(gone, 'report.json')}: EEXIST`)
    expect(proxy.output()).toMatch(/SIGTERM, 1 exchanges, 0 breaking the contract; wrote .*report\.xml, .*session\.yaml/)
    expect(readFileSync(join(folder, 'report.xml'), 'utf8')).toContain('tests="1"')
    expect(parseYaml(readFileSync(join(folder, 'session.yaml'), 'utf8')).steps).toHaveLength(1)
    expect(existsSync(join(gone, 'report.json'))).toBe(false)
  })
})
