// verify --baseline: a run compared with an earlier run's JSON report, against the seeded Acme team
// of a target without the control API (a deployment, lived in). Two runs say "no drift" while
// another user changes the team's data between them; a deployment that starts answering one
// operation wrongly is reported as newly failing for that operation only, first in the console,
// JSON and JUnit reports, and exits 1; a baseline that cannot be read is exit 2 with one line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareWithBaseline, violationKey, type Baseline } from '../../src/harness/drift.ts'
import type { OperationOutcome } from '../../src/harness/report.ts'
import { verify } from '../../src/harness/verify.ts'
import { reanswer, startTarget, type Target } from './support.ts'

const TOKENS = { owner: 'ivs_acme_owner', member: 'ivs_acme_member' }
/** Acme's second owner (Sam Carter), at work in the team between runs. */
const COLLEAGUE = 'ivs_shared_acme'

let target: Target
let folder: string
/** When set, GET /clients/{id} answers without the client's email: the one operation that goes wrong. */
let clientsWithoutEmail = false
const requests: string[] = []

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ivs-drift-'))
  target = await startTarget(async (request, mockFetch) => {
    const { pathname } = new URL(request.url)
    requests.push(`${request.method} ${pathname}`)
    if (pathname.startsWith('/_mock')) return Response.json({ error: 'Not Found.' }, { status: 404 })
    const response = await mockFetch(request)
    if (clientsWithoutEmail && request.method === 'GET' && /^\/api\/v2\/clients\/\d+$/.test(pathname) && response.status === 200) {
      return reanswer(response, { body: ({ email: _email, ...client }: Record<string, unknown>) => client })
    }
    return response
  })
})

afterAll(async () => {
  await target.close()
  rmSync(folder, { recursive: true, force: true })
})

interface Run {
  code: number
  out: string
  err: string
  json: string
  junit: string
}

/** verify as the CLI runs it, its console into strings and its reports into the test's folder. */
async function run(name: string, options: { readOnly?: boolean; scenarios?: string[]; baseline?: string }): Promise<Run> {
  const [out, err] = [new PassThrough(), new PassThrough()]
  let [outText, errText] = ['', '']
  out.on('data', (chunk: Buffer) => (outText += chunk.toString()))
  err.on('data', (chunk: Buffer) => (errText += chunk.toString()))
  const json = join(folder, `${name}.json`)
  const junit = join(folder, `${name}.xml`)
  const code = await verify({
    base: target.base,
    scenarioPaths: options.scenarios ?? ['scenarios'],
    tokens: TOKENS,
    readOnly: options.readOnly,
    baseline: options.baseline,
    json,
    junit,
    out: out as unknown as NodeJS.WriteStream,
    err: err as unknown as NodeJS.WriteStream,
  })
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8')
    } catch {
      return ''
    }
  }
  return { code, out: outText, err: errText, json: read(json), junit: read(junit) }
}

/** Another user at work in the team: clients made, a paid record, a case, a client renamed and one deleted. */
async function anotherUserWorks(): Promise<void> {
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${target.base}${path}`, { method, headers: { Authorization: `Bearer ${COLLEAGUE}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    expect(response.status, `${method} ${path}`).toBeLessThan(300)
    return response.status === 204 ? undefined : ((await response.json()) as { id: number })
  }
  for (let index = 0; index < 3; index++) {
    const client = await send('POST', '/clients', { name: { first_name: 'Busy', last_name: `Colleague ${index}` }, email: `busy${index}@example.com` })
    const record = await send('POST', '/records', { client: client?.id, notification: false, steps: [{ type: 'check.identity' }] })
    await send('POST', '/cases', { client: client?.id, name: `Busy ${index}` })
    if (index === 0) await send('PATCH', `/records/${String(record?.id)}`, { is_archived: true })
    if (index === 2) await send('DELETE', `/clients/${String(client?.id)}`)
  }
  await send('PATCH', '/clients/2', { name: { first_name: 'Renamed' } })
}

const closing = (out: string) => out.slice(out.indexOf('\nDrift since') + 1)

describe('verify --baseline', () => {
  it('reports no drift between two runs while another user changes the team, with --read-only and without', { timeout: 120_000 }, async () => {
    const pairs: [string, { readOnly?: boolean; scenarios?: string[] }][] = [
      ['read-only', { readOnly: true }],
      ['scenarios', { scenarios: ['scenarios/clients/address.yaml', 'scenarios/clients/organisations.yaml', 'scenarios/organisations/lifecycle.yaml'] }],
    ]
    for (const [name, options] of pairs) {
      const first = await run(`${name}-1`, options)
      expect(first.code, first.out).toBe(0)
      await anotherUserWorks()
      const second = await run(`${name}-2`, { ...options, baseline: join(folder, `${name}-1.json`) })
      expect({ code: second.code, err: second.err }).toEqual({ code: 0, err: '' })
      expect(closing(second.out).split('\n')[0]).toBe(`Drift since the baseline ${join(folder, `${name}-1.json`)} (${JSON.parse(first.json).startedAt as string}): no drift`)
      const report = JSON.parse(second.json) as { drift: { worse: boolean; operations: unknown[] } }
      expect(Object.keys(report)[0]).toBe('drift')
      expect([report.drift.worse, report.drift.operations]).toEqual([false, []])
      expect(second.junit).toMatch(/^<\?xml[^>]*>\s*<testsuites[^>]*>\s*<testsuite name="drift"[^>]*>\s*<properties>[\s\S]*?<testcase classname="drift" name="no drift since the baseline"\/>/)
    }
  })

  it('reports a deployment that starts answering one operation wrongly as newly failing for that operation only, first, and exits 1', { timeout: 120_000 }, async () => {
    const first = await run('right', { readOnly: true })
    expect(first.code).toBe(0)
    clientsWithoutEmail = true
    try {
      const second = await run('wrong', { readOnly: true, baseline: join(folder, 'right.json') })
      expect(second.code).toBe(1)
      const report = JSON.parse(second.json) as { drift: { worse: boolean; operations: { operationId: string; kind: string; was: string; now: string; newViolations: string[] }[] }; operations: OperationOutcome[] }
      expect(report.drift.worse).toBe(true)
      expect(report.drift.operations).toEqual([
        { operationId: 'clients.get', method: 'GET', path: '/clients/{id}', kind: 'newly failing', was: 'passed', now: 'failed', newViolations: ["contract: body: must have required property 'email' {\"missingProperty\":\"email\"}"] },
      ])
      expect(report.operations.filter((entry) => entry.outcome === 'failed').map((entry) => entry.operationId)).toEqual(['clients.get'])
      expect(closing(second.out).split('\n').slice(0, 3)).toEqual([
        `Drift since the baseline ${join(folder, 'right.json')} (${JSON.parse(first.json).startedAt as string}): 1 newly failing`,
        '  ✗ newly failing: clients.get (GET /clients/{id}): passed -> failed',
        "      new: contract: body: must have required property 'email' {\"missingProperty\":\"email\"}",
      ])
      expect(second.out).toMatch(/✗ clients\.get +GET \/clients\/\{id\} +failed \(\d+ answers\) \(newly failing since the baseline\)/)
      expect(second.junit).toMatch(/<testsuite name="drift" tests="1" failures="1"[^>]*>[\s\S]*?<testcase classname="drift" name="clients.get \(GET \/clients\/\{id\}\)">\s*<failure message="newly failing: clients.get \(GET \/clients\/\{id\}\): passed -(?:&gt;|>) failed" type="Drift">/)
      expect(second.junit.indexOf('<testsuite name="drift"')).toBeLessThan(second.junit.indexOf('<testsuite name="ivs-mock verify"'))
    } finally {
      clientsWithoutEmail = false
    }
  })

  it('exits 2 with one line for a baseline that cannot be read or is no report of verify --json, before any request', async () => {
    writeFileSync(join(folder, 'garbled.json'), '{"operations": [')
    writeFileSync(join(folder, 'proxy.json'), JSON.stringify({ total: 3, exchanges: [] }))
    writeFileSync(join(folder, 'other.json'), JSON.stringify({ operations: [{ operationId: 'clients.get', outcome: 'broken' }] }))
    requests.length = 0
    const lines = []
    for (const name of ['missing.json', 'garbled.json', 'proxy.json', 'other.json']) {
      const result = await run('unused', { baseline: join(folder, name) })
      expect([result.code, result.out]).toEqual([2, ''])
      lines.push(result.err.replaceAll(folder, '<folder>'))
    }
    expect(lines).toEqual([
      'ivs-mock verify: cannot read the baseline <folder>/missing.json: ENOENT\n',
      expect.stringMatching(/^ivs-mock verify: the baseline <folder>\/garbled\.json is not JSON: [^\n]+\n$/),
      'ivs-mock verify: the baseline <folder>/proxy.json is not a report of ivs-mock verify --json: it has no operations list\n',
      'ivs-mock verify: the baseline <folder>/other.json is not a report of ivs-mock verify --json: operations.0.outcome is "broken", not passed, failed or not reached\n',
    ])
    expect(requests).toEqual([])
  })
})

describe('the comparison', () => {
  const outcome = (operationId: string, value: OperationOutcome['outcome'], violations?: string[], reason?: string): OperationOutcome => ({
    operationId,
    method: 'GET',
    path: `/${operationId}`,
    outcome: value,
    answered: value === 'not reached' ? 0 : 1,
    succeeded: value === 'passed' ? 1 : 0,
    ...(violations && { violations }),
    ...(reason && { reason }),
  })
  const baselineOf = (operations: OperationOutcome[]): Baseline => ({ file: 'last.json', operations: new Map(operations.map((entry) => [entry.operationId, entry])) })

  it('names each move, the worse first, and a failing operation\'s new violations alone', () => {
    const baseline = baselineOf([outcome('a', 'passed'), outcome('b', 'passed'), outcome('c', 'failed', ['contract: body: x']), outcome('d', 'failed', ['contract: body: x']), outcome('e', 'not reached'), outcome('f', 'failed', ['y']), outcome('g', 'passed')])
    const drift = compareWithBaseline(
      { operations: [outcome('a', 'failed', ['z']), outcome('b', 'not reached', undefined, 'no data in the team: none'), outcome('c', 'failed', ['contract: body: x', 'w']), outcome('d', 'failed', ['contract: body: x']), outcome('e', 'passed'), outcome('f', 'passed'), outcome('g', 'passed'), outcome('h', 'failed', ['v'])] },
      baseline,
    )
    expect(drift.worse).toBe(true)
    expect(drift.operations.map((entry) => [entry.kind, entry.operationId, entry.newViolations, entry.reason])).toEqual([
      ['newly failing', 'a', ['z'], undefined],
      ['newly failing', 'h', ['v'], undefined],
      ['newly unreachable', 'b', [], 'no data in the team: none'],
      ['new violations', 'c', ['w'], undefined],
      ['recovered', 'f', [], undefined],
      ['newly reached', 'e', [], undefined],
    ])
    expect(compareWithBaseline({ operations: [outcome('c', 'failed', ['contract: body: x'])] }, baseline)).toMatchObject({ worse: false, operations: [] })
  })

  it('knows a violation again without the values that change from run to run: ids, list positions, what an answer held, captured values', () => {
    const pairs = [
      ['contract of clients.list: body.data.3.email: must be string {"type":"string"}', 'contract of clients.list: body.data.17.email: must be string {"type":"string"}'],
      ['contract of team.get: header X-RateLimit-Remaining: missing or not a whole number (plenty)', 'contract of team.get: header X-RateLimit-Remaining: missing or not a whole number (lots)'],
      ['contract of clients.get: body: a 200 of clients.get has no body, got {"id":151}', 'contract of clients.get: body: a 200 of clients.get has no body, got {"id":212}'],
      ['body.id: expected 151, got 152', 'body.id: expected 212, got 213'],
      ['body.data.0.reference: expected "ivs-ab12cd", got nothing (absent)', 'body.data.0.reference: expected "ivs-99ffee", got "other"'],
      ['page 3: contract of clients.list: body.data.1.name: must be object {"type":"object"}', 'page 7: contract of clients.list: body.data.0.name: must be object {"type":"object"}'],
      ['find: found 0 of 1 item matching {"id":151} in 3 pages, looked for 1', 'find: found 1 of 2 items matching {"id":{"oneOf":[212,213]}} in 5 pages, looked for 2'],
    ]
    for (const [one, other] of pairs) expect(violationKey(one as string), one).toBe(violationKey(other as string))
    expect(violationKey('status: expected 204, got 500')).not.toBe(violationKey('status: expected 200, got 500'))
    expect(violationKey('contract of clients.get: body.email: must be string {"type":"string"}')).not.toBe(violationKey('contract of clients.get: body.name: must be string {"type":"string"}'))
  })
})
