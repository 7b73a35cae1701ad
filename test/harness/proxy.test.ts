// The validating proxy (ivs-mock proxy), as a child process on 127.0.0.1 between a client and an
// upstream: in front of the mock, traffic passes through byte for byte with bounded memory; in front
// of a deliberately wrong server, the answers' violations are reported; the reports are written on
// SIGTERM; --record writes the session as a scenario.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { IncomingHttpHeaders } from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { IVS_MOCK_BIN as BIN, runToExit } from '../support/process.ts'
import { MB, proxyProcesses, send } from '../support/proxy.ts'
import { projectRoot } from '../../src/paths.ts'

const OWNER = 'Bearer ivs_acme_owner'

const { running, startMock, startProxy, stop, tempFolder, upstream } = proxyProcesses()

const json = (body: unknown) => ({ headers: { Authorization: OWNER, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

/** kB figures of /proc/<pid>/status. */
function memory(pid: number): { VmRSS: number; VmHWM: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kB = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return { VmRSS: kB('VmRSS'), VmHWM: kB('VmHWM') }
}

const BOUNDARY = 'ivs-proxy-boundary'
const ascii = (text: string) => new TextEncoder().encode(text)

/** A PDF of `size` bytes, made block by block (never whole in memory); `hash` sees the file's bytes. */
function* pdfFile(size: number, hash: ReturnType<typeof createHash>): Generator<Uint8Array> {
  const start = ascii('%PDF-1.4\n')
  hash.update(start)
  yield start
  const block = new Uint8Array(64 * 1024)
  for (let sent = start.length, round = 0; sent < size; sent += block.length, round++) {
    block.fill(0x41 + (round % 26))
    const part = sent + block.length <= size ? block : block.subarray(0, size - sent)
    hash.update(part)
    yield part
  }
}

const partHead = (name: string) => ascii(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`)
const partTail = ascii(`\r\n--${BOUNDARY}--\r\n`)

function* multipart(name: string, file: Iterable<Uint8Array>): Generator<Uint8Array> {
  yield partHead(name)
  yield* file
  yield partTail
}

/** Headers as the origin server sent them, without those of the connection and the date. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'transfer-encoding': _encoding, ...rest } = headers
  return rest
}

describe('in front of the mock', () => {
  it('passes a client\'s traffic through byte for byte, a 100 MB upload and download and a PDF among it, with bounded memory', { timeout: 180_000 }, async () => {
    const mock = await startMock()
    const proxy = await startProxy(mock.origin)
    const pid = proxy.child.pid as number

    // Small exchanges first: the same status, headers and bytes as straight from the mock.
    const client = await send(proxy.origin, 'POST', '/api/v2/clients', json({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }))
    expect(client.status, client.text).toBe(201)
    const clientId = JSON.parse(client.text).id as number
    const direct = await send(mock.origin, 'GET', `/api/v2/clients/${clientId}`, { headers: { Authorization: OWNER } })
    const proxied = await send(proxy.origin, 'GET', `/api/v2/clients/${clientId}`, { headers: { Authorization: OWNER } })
    expect(proxied.status).toBe(direct.status)
    expect({ ...endToEnd(proxied.headers), 'x-ratelimit-remaining': undefined }).toEqual({ ...endToEnd(direct.headers), 'x-ratelimit-remaining': undefined })
    expect(proxied.text).toBe(direct.text)
    const record = await send(proxy.origin, 'POST', '/api/v2/records', json({ client: clientId, steps: [{ type: 'check.identity' }], notification: false }))
    expect(record.status, record.text).toBe(201)
    const recordId = JSON.parse(record.text).id as number
    // The record's PDF is made afresh for each download (it shows the time): whole, with its headers.
    const pdf = await send(proxy.origin, 'GET', `/api/v2/records/${recordId}/download`, { headers: { Authorization: OWNER } })
    expect(pdf.status).toBe(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename=".+\.pdf"$/)
    expect(pdf.size).toBe(Number(pdf.headers['content-length']))
    expect(pdf.text.startsWith('%PDF-')).toBe(true)

    const measurable = process.platform === 'linux' && existsSync(`/proc/${pid}/clear_refs`)
    // Linux: writing 5 to clear_refs resets the peak resident memory (VmHWM) to the current one.
    if (measurable) writeFileSync(`/proc/${pid}/clear_refs`, '5')
    const before = measurable ? memory(pid) : undefined

    const size = 100 * MB
    const sent = createHash('sha256')
    const uploaded = await send(proxy.origin, 'POST', '/api/v2/attachments', {
      headers: { Authorization: OWNER, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipart('big.pdf', pdfFile(size, sent)),
    })
    expect(uploaded.status, uploaded.text).toBe(201)
    expect(JSON.parse(uploaded.text)).toMatchObject({ object: 'attachment', size })
    const file = await send(proxy.origin, 'POST', `/api/v2/clients/${clientId}/files`, json({ attachment: JSON.parse(uploaded.text).id }))
    expect(file.status, file.text).toBe(201)
    const downloaded = await send(proxy.origin, 'GET', `/api/v2/clients/${clientId}/files/${JSON.parse(file.text).id as number}/download`, { headers: { Authorization: OWNER } })
    expect(downloaded.status).toBe(200)
    expect(downloaded.size).toBe(size)
    // What the mock stored is what the client sent, and what came back is what the mock holds.
    expect(downloaded.sha256).toBe(sent.digest('hex'))
    const straight = await send(mock.origin, 'GET', `/api/v2/clients/${clientId}/files/${JSON.parse(file.text).id as number}/download`, { headers: { Authorization: OWNER } })
    expect(endToEnd(downloaded.headers)).toEqual({ ...endToEnd(straight.headers), 'x-ratelimit-remaining': downloaded.headers['x-ratelimit-remaining'] })

    if (before) {
      const after = memory(pid)
      const growthMB = (after.VmHWM - before.VmRSS) / 1024
      console.log(`proxy: 100 MB up and down: resident ${(before.VmRSS / 1024).toFixed(1)} MB before, peak ${(after.VmHWM / 1024).toFixed(1)} MB (growth ${growthMB.toFixed(1)} MB)`)
      // Holding either body would take at least 100 MB more.
      expect(growthMB).toBeLessThan(64)
    }
    const code = await stop(proxy.child)
    expect(code).toBe(0)
    // Stopped as a user stops it, the mock removes its uploads folder (the 100 MB file) from the temp dir.
    expect(await stop(mock.child)).toBe(0)
    const lines = proxy.output().split('\n')
    expect(lines).toContain(`GET /api/v2/clients/${clientId} -> 200 clients.get ok`)
    expect(lines).toContain(`GET /api/v2/records/${recordId}/download -> 200 records.download ok`)
    expect(lines.find((line) => line.startsWith('POST /api/v2/attachments'))).toBe(
      `POST /api/v2/attachments -> 201 attachments.create ok (request body not checked (multipart/form-data; boundary=${BOUNDARY}, ${partHead('big.pdf').length + size + partTail.length} bytes))`,
    )
  })
})

/** A server that gets the API wrong on purpose. */
function wrongServer(): Promise<string> {
  return upstream((req, res) => {
    if (req.method === 'GET' && req.url === '/api/v2/clients/7') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'client', id: 'seven' }))
    } else if (req.method === 'POST' && req.url === '/api/v2/clients') {
      req.resume()
      res.writeHead(418, { 'content-type': 'application/json', 'x-ratelimit-limit': '200', 'x-ratelimit-remaining': '199' })
      res.end('{}')
    } else {
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end('<h1>nope</h1>')
    }
  })
}

describe('in front of a deliberately wrong server', () => {
  it('reports the answers that break the contract, and writes --json and --junit on SIGTERM', { timeout: 60_000 }, async () => {
    const folder = tempFolder()
    const upstream = await wrongServer()
    const proxy = await startProxy(upstream, '--json', join(folder, 'report.json'), '--junit', join(folder, 'report.xml'))
    expect((await send(proxy.origin, 'GET', '/api/v2/clients/7', { headers: { Authorization: OWNER } })).status).toBe(200)
    expect((await send(proxy.origin, 'POST', '/api/v2/clients', json({ email: 'ada@example.com', colour: 'red' }))).status).toBe(418)
    expect((await send(proxy.origin, 'GET', '/api/v2/nothing-here?x=1')).status).toBe(404)
    expect(await stop(proxy.child)).toBe(0)

    const report = JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8'))
    const [wrongClient, teapot, unknown] = report.exchanges
    expect(report).toMatchObject({
      object: 'mock_journal_report',
      upstream,
      total: 3,
      verdicts: {
        request_violation: 1,
        ignored_body_property: 1,
        unknown_operation: 1,
        response_violation: wrongClient.responseViolations.length + 2,
      },
    })
    expect(wrongClient).toMatchObject({ method: 'GET', path: '/api/v2/clients/7', operationId: 'clients.get', status: 200, requestViolations: [] })
    expect(wrongClient.responseViolations).toEqual(
      expect.arrayContaining([
        'header X-RateLimit-Limit: missing or not a whole number (absent)',
        'header X-RateLimit-Remaining: missing or not a whole number (absent)',
        'body: must have required property \'email\' {"missingProperty":"email"}',
        'body.id: must be integer {"type":"integer"}',
      ]),
    )
    expect(teapot).toMatchObject({
      method: 'POST',
      path: '/api/v2/clients',
      operationId: 'clients.create',
      status: 418,
      requestViolations: ['request body: must have required property \'name\' {"missingProperty":"name"}'],
      responseViolations: ['status: 418 is not a status clients.create documents (201, 401, 403, 413, 422, 429)'],
    })
    expect(unknown).toMatchObject({
      method: 'GET',
      path: '/api/v2/nothing-here',
      query: 'x=1',
      operationId: null,
      status: 404,
      requestViolations: [],
      responseViolations: ['status: no operation has this method and path; the service answers 404 {"error": "Not Found."}, got 404'],
    })
    const xml = readFileSync(join(folder, 'report.xml'), 'utf8')
    expect(xml).toContain('<testsuites tests="3" failures="3"')
    expect(xml).toContain('<testcase classname="clients.get" name="GET /api/v2/clients/7 -> 200"')
    expect(proxy.output()).toContain('GET /api/v2/clients/7 -> 200 clients.get ✗ 0 request, ')
  })
})

describe('--record', () => {
  it("writes a client's session through the proxy as a scenario that replays green on a fresh mock", { timeout: 180_000 }, async () => {
    const folder = tempFolder()
    const scenarioFile = join(folder, 'session.yaml')
    const mock = await startMock()
    const made = await send(mock.origin, 'POST', '/_mock/teams', { headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(made.status).toBe(201)
    const tokens = JSON.parse(made.text).tokens as Record<string, string>
    const proxy = await startProxy(mock.origin, '--record', scenarioFile, '--role-token', `read-only=${tokens['read-only'] as string}`)
    const as = (role: string, body?: unknown) => ({
      headers: { Authorization: `Bearer ${tokens[role] as string}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })

    const client = await send(proxy.origin, 'POST', '/api/v2/clients', as('owner', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com', reference: 'AL-1' }))
    expect(client.status, client.text).toBe(201)
    const clientId = JSON.parse(client.text).id as number
    expect((await send(proxy.origin, 'PATCH', `/api/v2/clients/${clientId}`, as('owner', { mobile: '07700 900123' }))).status).toBe(200)
    const record = await send(proxy.origin, 'POST', '/api/v2/records', as('owner', { client: clientId, steps: [{ type: 'check.identity' }], notification: false }))
    expect(record.status, record.text).toBe(201)
    const recordId = JSON.parse(record.text).id as number
    expect((await send(proxy.origin, 'GET', `/api/v2/records/${recordId}?expand=client`, as('owner'))).status).toBe(200)
    expect((await send(proxy.origin, 'GET', `/api/v2/clients/${clientId}`, as('read-only'))).status).toBe(200)
    expect((await send(proxy.origin, 'DELETE', `/api/v2/clients/${clientId}`, as('read-only'))).status).toBe(403)
    expect(await stop(proxy.child)).toBe(0)

    const text = readFileSync(scenarioFile, 'utf8')
    // The schema line resolves where the file is saved (a temporary folder here), to the package's schema.
    const schemaLine = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text)
    expect(schemaLine).not.toBeNull()
    expect(resolve(dirname(scenarioFile), schemaLine?.[1] as string)).toBe(join(projectRoot, 'contracts', 'scenario.schema.json'))
    const scenario = parseYaml(text)
    expect(scenario.steps.map((step: any) => [step.operation, step.as, step.params ?? {}, step.expect.status])).toEqual([
      ['clients.create', 'owner', {}, 201],
      ['clients.update', 'owner', { id: '{{clientId}}' }, 200],
      ['records.create', 'owner', {}, 201],
      ['records.get', 'owner', { id: '{{recordId}}' }, 200],
      ['clients.get', 'read-only', { id: '{{clientId}}' }, 200],
      ['clients.delete', 'read-only', { id: '{{clientId}}' }, 403],
    ])
    expect(scenario.steps[0].capture).toEqual({ clientId: 'body.id' })
    expect(scenario.steps[2].body).toEqual({ client: '{{clientId}}', steps: [{ type: 'check.identity' }], notification: false })
    expect(scenario.steps[2].capture).toEqual({ recordId: 'body.id' })
    expect(scenario.steps[0].expect.body).toMatchObject({ id: { type: 'integer' }, created_at: { type: 'string' }, email: 'ada@example.com', reference: 'AL-1' })

    // Replayed by the scenario runner against a mock of its own, in a fresh team.
    const replay = await runToExit(BIN, ['verify', '--scenarios', scenarioFile], { limitMs: 120_000, started: (child) => running.add(child) })
    expect(replay.code, `${replay.stdout}\n${replay.stderr}`).toBe(0)
    expect(replay.stdout).toContain('1 passed, 0 failed, 0 skipped')
  })
})
