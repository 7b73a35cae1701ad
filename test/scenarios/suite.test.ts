// The whole scenario suite (scenarios/) against an in-process mock on a loopback socket: every
// scenario must pass, so the scenarios and the mock keep telling the same story. A scenario tagged
// known-mock-gap states what the service does (docs/specification-notes.md) where the mock still differs: it must
// fail, so the day the mock is fixed this test asks for the tag to go.
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScenarios, type RunReport, type ScenarioReport } from '../../src/harness/runner.ts'
import { createTestMock } from '../support/mock.ts'
import { contracts } from '../support/contracts.ts'

const SCENARIOS = 'scenarios'
const KNOWN_MOCK_GAP = 'known-mock-gap'

/** One readable paragraph per failed scenario: its file, the failed step, the request and answer. */
function describeFailure(scenario: ScenarioReport): string {
  const lines = [`${scenario.file}: "${scenario.name}"`, ...scenario.failures.map((failure) => `  ${failure}`)]
  for (const step of scenario.steps.filter((candidate) => candidate.outcome === 'failed')) {
    lines.push(`  step "${step.name}"`)
    if (step.request) lines.push(`    request: ${step.request}`)
    if (step.response) lines.push(`    answer:  ${step.response.slice(0, 400)}`)
    for (const failure of step.failures) lines.push(`    - ${failure}`)
  }
  return lines.join('\n')
}

describe('the scenario suite against the mock', () => {
  const mock = createTestMock()
  const server = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' })
  let report: RunReport

  beforeAll(async () => {
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    report = await runScenarios({ base: `http://127.0.0.1:${port}/api/v2`, scenarios: [SCENARIOS], contracts })
  }, 120_000)

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    mock.services.blobs.dispose()
  })

  it('runs every scenario with the control API (none skipped)', () => {
    expect(report.control).toBe(true)
    expect(report.scenarios.filter((scenario) => scenario.outcome === 'skipped').map((scenario) => `${scenario.file}: ${scenario.skipReason}`)).toEqual([])
  })

  it('passes every scenario but the known mock gaps', () => {
    const expected = report.scenarios.filter((scenario) => !scenario.tags.includes(KNOWN_MOCK_GAP))
    const failures = expected.filter((scenario) => scenario.outcome !== 'passed')
    expect(failures.map(describeFailure).join('\n\n'), `${failures.length} of ${expected.length} scenarios failed`).toBe('')
  })

  it(`still fails each scenario tagged ${KNOWN_MOCK_GAP} (remove the tag once the mock is fixed)`, () => {
    const gaps = report.scenarios.filter((scenario) => scenario.tags.includes(KNOWN_MOCK_GAP))
    for (const gap of gaps) console.info(`known mock gap:\n${describeFailure(gap)}`)
    expect(gaps.filter((scenario) => scenario.outcome !== 'failed').map((scenario) => scenario.file)).toEqual([])
  })
})
