// Steps that follow what the API answered: a list walked through its links.next URL, and receive
// steps that take the delivery their expectations match, passing over others of the same event, and
// check its signature with the package's own receiver helper.
import { afterEach, describe, expect, it } from 'vitest'
import { runScenarios } from '../../src/harness/runner.ts'
import { FIXTURES, startTarget, type Target } from './support.ts'

const targets: Target[] = []
afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => target.close()))
})

async function run(file: string) {
  const target = await startTarget()
  targets.push(target)
  const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}walk/${file}`], concurrency: 1 })
  return { report, target, steps: (report.scenarios[0]?.steps ?? []).map((step) => [step.name, step.outcome, step.failures]) }
}

describe('an operation step with url', () => {
  it('requests the URL links.next gave, and fails one outside the API base, naming it', async () => {
    const { report, target, steps } = await run('links.yaml')
    expect(steps.slice(2, 4)).toEqual([
      ['the first page', 'passed', []],
      ['the next page, through links.next', 'passed', []],
    ])
    expect(steps[4]).toEqual(['a URL elsewhere', 'failed', [`url: http://elsewhere.example/api/v2/clients is not clients.list under the target's API base ${target.base}`]])
    expect([report.passed, report.failed]).toEqual([0, 1])
  })
})

describe('a receive step', () => {
  it('takes the delivery whose body matches, and leaves the other for a later step', async () => {
    const { report, steps } = await run('deliveries.yaml')
    expect(steps.slice(3)).toEqual([
      ["the second client's delivery", 'passed', []],
      ["the first client's delivery is still there", 'passed', []],
    ])
    expect([report.passed, report.failed]).toEqual([1, 0])
  })

  it('fails when the delivery is not signed with the secret it names', async () => {
    const { report, steps } = await run('wrong-secret.yaml')
    const [name, outcome, failures] = steps[2] as [string, string, string[]]
    expect([name, outcome, failures.length]).toEqual(['the delivery, checked with the wrong secret', 'failed', 1])
    expect(failures[0]).toMatch(/^header X-SVC-Signature: not the base64 HMAC-SHA256 of the body with the webhook's secret \(got [A-Za-z0-9+/]+=*\)$/)
    expect(report.failed).toBe(1)
  })
})
