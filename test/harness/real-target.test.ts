// A target without the mock's control API, as a real deployment: tokens come from options, control
// steps skip with their reason (or alone, with wait), scenarios whose role has no token skip, and
// nothing fails.
import { createServer, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { FIXTURES, startTarget, type Target, type Wrapper } from './support.ts'

const targets: Target[] = []
afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => target.close()))
})

/** The mock without /_mock: every control path is an unknown route. */
const withoutControl: Wrapper = async (request, mockFetch) =>
  new URL(request.url).pathname.startsWith('/_mock') ? Response.json({ error: 'Not Found.' }, { status: 404 }) : mockFetch(request)

async function runWithoutControl(options: { wait?: boolean; keep?: boolean } = {}): Promise<{ report: RunReport; target: Target; token: string }> {
  const target = await startTarget(withoutControl)
  targets.push(target)
  const token = target.mock.newTeam().tokens.owner
  const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}suite`], tokens: { owner: token }, concurrency: 1, ...options })
  return { report, target, token }
}

async function totals(target: Target, token: string): Promise<{ clients: unknown; webhooks: unknown }> {
  const total = async (path: string) => ((await (await fetch(`${target.base}${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { total: unknown }).total
  return { clients: await total('/clients'), webhooks: await total('/webhooks') }
}

const summary = (report: RunReport) =>
  Object.fromEntries(report.scenarios.map((scenario) => [scenario.name, [scenario.outcome, scenario.skipReason, scenario.steps.map((step) => `${step.outcome} ${step.name}${step.skipReason ? `: ${step.skipReason}` : ''}`)]]))

describe('a target without the control API', () => {
  it('skips control steps and the rest of their scenario with the reason, and scenarios whose role has no token', async () => {
    const { report, target } = await runWithoutControl()
    const noControl = `needs the mock's control API (/_mock), which ${target.base} does not have`
    expect(report.control).toBe(false)
    expect(summary(report)).toEqual({
      'A client is created, read back and refused without a name': ['passed', undefined, ['passed create a client', 'passed read the client back', 'passed a client without a first name is refused']],
      "The token is checked and the mock's clock read": [
        'skipped',
        noControl,
        ['passed a valid token', 'passed no token', `skipped the mock's clock: ${noControl}`, `skipped the token still works: ${noControl}`],
      ],
      'A read-only member cannot create a client': [
        'skipped',
        'needs a token for the read-only role (--role-token read-only=<token> or IVS_TOKEN_READ_ONLY)',
        ['skipped the read-only member tries to create a client: needs a token for the read-only role (--role-token read-only=<token> or IVS_TOKEN_READ_ONLY)'],
      ],
      'A webhook pointed at the runner receives a signed client.created': ['passed', undefined, ['passed subscribe to client events', 'passed create a client', 'passed the delivery arrives signed']],
    })
    expect({ passed: report.passed, failed: report.failed, skipped: report.skipped }).toEqual({ passed: 2, failed: 0, skipped: 2 })
  })

  it('with wait, skips only the control steps and runs the rest', async () => {
    const { report, target } = await runWithoutControl({ wait: true })
    const clock = report.scenarios.find((scenario) => scenario.name === "The token is checked and the mock's clock read")
    expect(clock?.outcome).toBe('passed')
    expect(clock?.steps.map((step) => `${step.outcome} ${step.name}`)).toEqual(['passed a valid token', 'passed no token', "skipped the mock's clock", 'passed the token still works'])
    expect(clock?.steps[2]?.skipReason).toBe(`needs the mock's control API (/_mock), which ${target.base} does not have`)
    expect(report.failed).toBe(0)
  })

  it('with wait, skips a step that needs what a skipped control step would have captured', async () => {
    const target = await startTarget(withoutControl)
    targets.push(target)
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}wait`], tokens: { owner: target.mock.newTeam().tokens.owner }, wait: true })
    expect(report.scenarios[0]?.steps.map((step) => [step.outcome, step.name, step.skipReason])).toEqual([
      ['skipped', "read the mock's clock", `needs the mock's control API (/_mock), which ${target.base} does not have`],
      ['skipped', 'list the clients created since then', `needs {{now}}, which the skipped step "read the mock's clock" captures`],
      ['passed', 'the token works', undefined],
    ])
    expect(report.failed).toBe(0)
  })

  it('deletes what the scenarios created, unless keep', async () => {
    const cleaned = await runWithoutControl()
    expect(cleaned.report.failed).toBe(0)
    expect(await totals(cleaned.target, cleaned.token)).toEqual({ clients: 0, webhooks: 0 })
    const kept = await runWithoutControl({ keep: true })
    expect(kept.report.failed).toBe(0)
    expect(await totals(kept.target, kept.token)).toEqual({ clients: 2, webhooks: 1 })
  })

  it('waits out a 429 the step does not expect (Retry-After) and sends the request again', async () => {
    let limited = 0
    const target = await startTarget(async (request, mockFetch) => {
      if (new URL(request.url).pathname === '/api/v2/team' && limited++ === 0) {
        return Response.json({ message: 'Too Many Attempts.' }, { status: 429, headers: { 'Retry-After': '1', 'X-RateLimit-Reset': '1', 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '0' } })
      }
      return withoutControl(request, mockFetch)
    })
    targets.push(target)
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}divergence/header.yaml`], tokens: { owner: target.mock.newTeam().tokens.owner } })
    expect(report.scenarios[0]?.steps.map((step) => [step.outcome, step.status])).toEqual([['passed', 200]])
    // The first GET /team is the runner's own, learning the team: it is sent again after the wait.
    expect(limited).toBe(3)
    expect(report.rateLimited.times).toBe(1)
  })

  it('with bail, starts no scenario after a failure and reports the rest skipped', async () => {
    const target = await startTarget(async (request, mockFetch) =>
      new URL(request.url).pathname === '/api/v2/status' && request.headers.has('authorization') ? new Response(null, { status: 500 }) : withoutControl(request, mockFetch),
    )
    targets.push(target)
    const report = await runScenarios({
      base: target.base,
      scenarios: [`${FIXTURES}divergence/status.yaml`, `${FIXTURES}divergence/untouched.yaml`],
      tokens: { owner: target.mock.newTeam().tokens.owner },
      concurrency: 1,
      bail: true,
    })
    expect(report.scenarios.map((scenario) => [scenario.outcome, scenario.skipReason])).toEqual([
      ['failed', undefined],
      ['skipped', '--bail: an earlier scenario failed'],
    ])
    expect(report.scenarios[0]?.steps[0]?.failures).toEqual([
      'contract of status.get: header X-RateLimit-Limit: missing or not a whole number (absent)',
      'contract of status.get: header X-RateLimit-Remaining: missing or not a whole number (absent)',
      'contract of status.get: status: 500 is not a status status.get documents (204, 401, 429)',
      'status: expected 204, got 500',
    ])
  })

  it('listens for webhooks on the receiver port it is given', async () => {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const target = await startTarget()
    targets.push(target)
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}suite/webhook.yaml`], receiverPort: port })
    expect(report.scenarios[0]?.steps.map((step) => step.outcome)).toEqual(['passed', 'passed', 'passed'])
    expect(report.scenarios[0]?.steps[2]?.url).toBe(`http://127.0.0.1:${port}/0-a-webhook-pointed-at-the-runner-receives`)
  })
})
