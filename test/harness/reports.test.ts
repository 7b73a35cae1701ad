// The reports of a run with a passed, a failed and a skipped scenario: the console's plain lines,
// JUnit XML (one test case per scenario) and JSON (every scenario and step).
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConsoleReporter, jsonReport, junitXml } from '../../src/harness/reports.ts'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { FIXTURES, reanswer, startTarget, type Target } from './support.ts'

let target: Target
let report: RunReport
let consoleText = ''

beforeAll(async () => {
  // A target without /_mock whose GET /team breaks a header: one scenario fails, one is skipped, one passes.
  target = await startTarget(async (request, mockFetch) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith('/_mock')) return Response.json({ error: 'Not Found.' }, { status: 404 })
    const response = await mockFetch(request)
    return pathname === '/api/v2/team' ? reanswer(response, { headers: { 'X-RateLimit-Remaining': 'plenty' } }) : response
  })
  const stream = new PassThrough()
  stream.on('data', (chunk: Buffer) => (consoleText += chunk.toString()))
  const reporter = new ConsoleReporter({ stream: stream as unknown as NodeJS.WriteStream, live: false, total: 3 })
  report = await runScenarios({
    base: target.base,
    scenarios: [`${FIXTURES}divergence/header.yaml`, `${FIXTURES}divergence/untouched.yaml`, `${FIXTURES}suite/clock.yaml`],
    tokens: { owner: target.mock.newTeam().tokens.owner },
    concurrency: 1,
    onScenarioStart: (scenario) => reporter.started(scenario),
    onScenarioEnd: (scenario) => reporter.ended(scenario),
  })
  reporter.finish(report)
})

afterAll(() => target.close())

const header = 'contract of team.get: header X-RateLimit-Remaining: missing or not a whole number (plenty)'

describe('reports', () => {
  it('prints a line per scenario, the failure details, whom it acted as, what it left, the summary and the operations table last (what the run left out in one line)', () => {
    const lines = consoleText.trimEnd().split('\n')
    expect(lines[0]).toBe('✗ The team is read (test/harness/fixtures/divergence/header.yaml)')
    expect(lines[1]).toBe('    step 1 "read the team" (team.get)')
    expect(lines[2]).toBe(`      request:  GET ${target.base}/team`)
    expect(lines[3]).toMatch(/^ {6}answer: {3}200 \{"object":"team","id":\d+,/)
    expect(lines[4]).toBe(`      - ${header}`)
    expect(lines[5]).toMatch(/^✓ The user reads themselves \(\d+ ms\)$/)
    expect(lines[6]).toBe(`- The token is checked and the mock's clock read (skipped: needs the mock's control API (/_mock), which ${target.base} does not have)`)
    expect(lines[7]).toMatch(/^Acted in team .+ \(\d+\); tokens for owner: .+ \(\d+\)$/)
    expect(lines[8]).toMatch(/^Requests: \d+$/)
    expect(lines[9]).toBe('Left behind: nothing')
    expect(lines[10]).toBe('1 passed, 1 failed, 1 skipped')
    // The operations the scenarios call, one line each; those no scenario of the run calls, one line for all.
    expect(lines.slice(11)).toEqual([
      'Operations (99):',
      '  ✓ status.get   GET /status   passed (2 answers)',
      '  ✗ team.get     GET /team     failed (1 answer)',
      '  ✓ team.me.get  GET /team/me  passed (1 answer)',
      '  - 96 others not reached: no scenario of the run calls them',
      '3 of 99 operations reached, 1 failed',
    ])
  })

  it('writes JUnit XML with one test case per scenario, the failure and the skip', () => {
    const xml = junitXml(report)
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites tests="102" failures="2" errors="0" skipped="97">/)
    expect(xml).toMatch(/<testsuite name="ivs-mock verify" time="[\d.]+" tests="3" failures="1" errors="0" skipped="1">/)
    expect(xml).toContain(`<property name="base" value="${target.base}"/>`)
    expect(xml).toMatch(/<testcase classname="test\/harness\/fixtures\/divergence\/header" name="The team is read" file="test\/harness\/fixtures\/divergence\/header.yaml" time="[\d.]+">/)
    expect(xml).toContain(`<failure message="step &quot;read the team&quot;: ${header}" type="ScenarioFailure"><![CDATA[step 1 "read the team" (team.get)\n  request:  GET ${target.base}/team\n  answer:   200 {`)
    expect(xml).toContain(`  - ${header}]]></failure>`)
    expect(xml).toMatch(/<testcase classname="test\/harness\/fixtures\/divergence\/untouched" name="The user reads themselves" file="[^"]+" time="[\d.]+"\/>/)
    expect(xml).toMatch(/<testcase classname="test\/harness\/fixtures\/suite\/clock" name="The token is checked and the mock's clock read" file="[^"]+" time="[\d.]+">\s*<skipped\/>\s*<system-out><!\[CDATA\[skipped: needs the mock's control API/)
    // The operations as a suite of their own, one test case each, with the count line as a property.
    expect(xml).toMatch(/<testsuite name="operations" tests="99" failures="1" errors="0" skipped="96">\s*<properties>\s*<property name="summary" value="3 of 99 operations reached, 1 failed"\/>/)
    expect(xml).toContain('<testcase classname="operations" name="team.get (GET /team)">')
    expect(xml).toMatch(/<testcase classname="operations" name="clients.list \(GET \/clients\)">\s*<skipped\/>\s*<system-out><!\[CDATA\[not reached: no scenario calls it\]\]><\/system-out>/)
  })

  it('writes JSON with every scenario and step: operationId, status, outcome and failures', () => {
    const json = JSON.parse(jsonReport(report))
    expect({ passed: json.passed, failed: json.failed, skipped: json.skipped, base: json.base, control: json.control }).toEqual({ passed: 1, failed: 1, skipped: 1, base: target.base, control: false })
    expect({ reached: json.reached, operationsFailed: json.operationsFailed, count: json.operations.length, leftBehind: json.leftBehind }).toEqual({ reached: 3, operationsFailed: 1, count: 99, leftBehind: [] })
    expect(json.operations.find((entry: any) => entry.operationId === 'team.me.get')).toEqual({ operationId: 'team.me.get', method: 'GET', path: '/team/me', outcome: 'passed', answered: 1, succeeded: 1 })
    expect(
      json.scenarios.map((scenario: any) => ({
        name: scenario.name,
        outcome: scenario.outcome,
        steps: scenario.steps.map((step: any) => ({ operationId: step.operationId, status: step.status, outcome: step.outcome, failures: step.failures })),
      })),
    ).toEqual([
      { name: 'The team is read', outcome: 'failed', steps: [{ operationId: 'team.get', status: 200, outcome: 'failed', failures: [header] }] },
      { name: 'The user reads themselves', outcome: 'passed', steps: [{ operationId: 'team.me.get', status: 200, outcome: 'passed', failures: [] }] },
      {
        name: "The token is checked and the mock's clock read",
        outcome: 'skipped',
        steps: [
          { operationId: 'status.get', status: 204, outcome: 'passed', failures: [] },
          { operationId: 'status.get', status: 401, outcome: 'passed', failures: [] },
          { operationId: 'control.clock.get', status: undefined, outcome: 'skipped', failures: [] },
          { operationId: 'status.get', status: undefined, outcome: 'skipped', failures: [] },
        ],
      },
    ])
  })
})
