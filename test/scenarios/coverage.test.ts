// Every API operation of contracts/operations is called by at least one scenario step, by its
// operationId or by its method and contract path; the rules 1 to 9 of
// docs/specification-notes.md "Rules of the service" each have a scenario of their own.
import { describe, expect, it } from 'vitest'
import { Conformance } from '../../src/harness/conformance.ts'
import { coverage } from '../../src/harness/coverage.ts'
import { loadScenarios, type OperationStep, type PathStep } from '../../src/harness/scenarios.ts'
import { contracts } from '../support/contracts.ts'

const scenarios = loadScenarios(['scenarios'], contracts)
const conformance = new Conformance(contracts)

/** The operationId an API step calls (undefined for an unknown route). */
function calledOperation(step: OperationStep | PathStep): string | undefined {
  if ('operation' in step) return step.operation
  return conformance.match(step.method, step.path)?.op.id
}

describe('scenario coverage', () => {
  it('calls every API operation', () => {
    const { operations, uncovered } = coverage(scenarios, contracts)
    console.info(`scenarios: ${scenarios.length}; API operations called: ${operations.length - uncovered.length} of ${operations.length}`)
    expect(operations.length).toBe(99)
    expect(uncovered, `operations no scenario calls: ${uncovered.join(', ')}`).toEqual([])
  })

  it('has a scenario of its own for each of the rules 1 to 9 of docs/specification-notes.md "Rules of the service", citing the rule', () => {
    const rules = Array.from({ length: 9 }, (_, index) => index + 1)
    const missing = rules.filter(
      (rule) => !scenarios.some((scenario) => scenario.file.includes(`rule-${rule}-`) && scenario.description.includes(`rule ${rule}`) && scenario.tags?.includes('rules')),
    )
    expect(missing, `rules without a scenario in scenarios/rules/rule-<n>-*.yaml citing "rule <n>"`).toEqual([])
  })

  it('gives every scenario a description and tags, and marks safe only refusals and POST /steps', () => {
    // The loader refuses a write a scenario with mutates: false does not mark safe; here, the marks are right.
    const marked = scenarios.flatMap((scenario) => scenario.steps.filter((step) => 'safe' in step && step.safe !== undefined).map((step) => ({ scenario, step: step as OperationStep | PathStep })))
    const wrong = marked
      .filter(({ step }) => {
        const status = step.expect?.status
        // A refusal (401, 403, 404, 422) the step checks.
        if (step.safe === 'refused') return typeof status !== 'number' || status < 400 || status > 499
        // POST /steps validates and prices steps without creating anything.
        return calledOperation(step) !== 'steps.validate'
      })
      .map(({ scenario, step }) => `${scenario.file}: ${step.name}`)
    expect(wrong).toEqual([])
    expect(scenarios.filter((scenario) => !scenario.tags || scenario.tags.length === 0).map((scenario) => scenario.file)).toEqual([])
  })
})
