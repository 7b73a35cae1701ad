// The runner catches a target that diverges from the contracts or from a scenario: the mock
// behind a wrapper that drops a required field, changes a status, renames a 422 key and breaks a
// header fails exactly those steps, with messages naming the field, the status, the key and the
// header; the same scenarios pass against the mock itself.
import { afterEach, describe, expect, it } from 'vitest'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { FIXTURES, reanswer, startTarget, type Target, type Wrapper } from './support.ts'

const targets: Target[] = []
afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => target.close()))
})

async function run(wrapper?: Wrapper): Promise<RunReport> {
  const target = await startTarget(wrapper)
  targets.push(target)
  return runScenarios({ base: target.base, scenarios: [`${FIXTURES}divergence`], concurrency: 2 })
}

/** The wrong server: each change touches one operation only. */
const wrong: Wrapper = async (request, mockFetch) => {
  const { pathname } = new URL(request.url)
  const response = await mockFetch(request)
  if (request.method === 'GET' && /^\/api\/v2\/clients\/\d+$/.test(pathname)) {
    return reanswer(response, { body: ({ email: _dropped, ...client }) => client })
  }
  if (request.method === 'GET' && pathname === '/api/v2/status') return reanswer(response, { status: 200, headers: { 'Content-Type': 'application/json' }, body: undefined })
  if (request.method === 'POST' && pathname === '/api/v2/clients' && response.status === 422) {
    return reanswer(response, { body: (errors) => Object.fromEntries(Object.entries(errors).map(([key, value]) => [key.replace(/^name\./, ''), value])) })
  }
  if (request.method === 'GET' && pathname === '/api/v2/team') return reanswer(response, { headers: { 'X-RateLimit-Remaining': 'plenty' } })
  return response
}

/** Each scenario's steps as `outcome name` and the failures of the failed ones. */
function outcomes(report: RunReport) {
  return Object.fromEntries(
    report.scenarios.map((scenario) => [scenario.name, scenario.steps.map((step) => ({ step: step.name, outcome: step.outcome, failures: step.failures }))]),
  )
}

describe('divergence', () => {
  it('passes every scenario against the mock itself', async () => {
    const report = await run()
    expect(report.scenarios.flatMap((scenario) => scenario.steps.flatMap((step) => step.failures))).toEqual([])
    expect({ passed: report.passed, failed: report.failed, skipped: report.skipped, control: report.control }).toEqual({ passed: 5, failed: 0, skipped: 0, control: true })
  })

  it('fails exactly the steps whose answers were changed, naming the field, the status, the key and the header', async () => {
    const report = await run(wrong)
    expect(outcomes(report)).toEqual({
      'A client is read back': [
        { step: 'create a client', outcome: 'passed', failures: [] },
        { step: 'read the client', outcome: 'failed', failures: [`contract of clients.get: body: must have required property 'email' {"missingProperty":"email"}`] },
        { step: 'list the clients', outcome: 'skipped', failures: [] },
      ],
      'The token is checked': [
        {
          step: 'check the token',
          outcome: 'failed',
          failures: ['contract of status.get: status: 200 is not a status status.get documents (204, 401, 429)', 'status: expected 204, got 200'],
        },
      ],
      'A client without a first name is refused': [
        { step: 'create a client without a first name', outcome: 'failed', failures: ['body.name.first_name: expected type array, got nothing (absent)'] },
      ],
      'The team is read': [
        { step: 'read the team', outcome: 'failed', failures: ['contract of team.get: header X-RateLimit-Remaining: missing or not a whole number (plenty)'] },
      ],
      'The user reads themselves': [{ step: 'read me', outcome: 'passed', failures: [] }],
    })
    expect({ passed: report.passed, failed: report.failed, skipped: report.skipped }).toEqual({ passed: 1, failed: 4, skipped: 0 })
    const readBack = report.scenarios.find((scenario) => scenario.name === 'A client is read back')?.steps[1]
    expect(readBack).toMatchObject({ operationId: 'clients.get', method: 'GET', status: 200 })
    expect(readBack?.request).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/clients\/\d+$/)
    expect(readBack?.response).toMatch(/^200 \{"object":"client","id":\d+,/)
    expect(readBack?.response).not.toContain('"email"')
  })
})
