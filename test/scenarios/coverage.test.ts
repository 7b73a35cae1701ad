// Every API operation of contracts/operations is called by at least one scenario step, by its
// operationId or by its method and contract path; the rules 1 to 9 of
// docs/specification-notes.md "Rules of the service" each have a scenario of their own.
import { describe, expect, it } from 'vitest'
import { Conformance } from '../../src/harness/conformance.ts'
import { coverage } from '../../src/harness/coverage.ts'
import { loadScenarios, stepKind, type OperationStep, type PathStep } from '../../src/harness/scenarios.ts'
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

  it('gives every scenario a description and tags, and mutates: false only to scenarios that change nothing', () => {
    const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
    // POST /steps validates and prices steps without creating anything.
    const readOnlyPosts = new Set(['steps.validate'])
    const wrong = scenarios
      .filter((scenario) => scenario.mutates === false)
      .filter((scenario) =>
        scenario.steps.some((step) => {
          if (stepKind(step) === 'control') return true
          if (stepKind(step) === 'receive') return false
          const id = calledOperation(step as OperationStep | PathStep)
          const op = id === undefined ? undefined : contracts.operation(id)
          const method = op?.method ?? (step as PathStep).method
          // A write refused by the target (401, 403, 404, 422) changes nothing either.
          const status = (step as OperationStep | PathStep).expect?.status
          const refused = typeof status === 'number' && status >= 400
          return writes.has(method) && !refused && !readOnlyPosts.has(id ?? '')
        }),
      )
      .map((scenario) => scenario.file)
    expect(wrong).toEqual([])
    expect(scenarios.filter((scenario) => !scenario.tags || scenario.tags.length === 0).map((scenario) => scenario.file)).toEqual([])
  })
})
