// Which API operations the scenarios call: by operationId, how many steps call it, and which no
// step calls (the coverage test fails on those).
import type { AjvContracts } from '../contracts/ajv.ts'
import { Conformance } from './conformance.ts'
import { stepOperationId, type LoadedScenario } from './scenarios.ts'

export interface Coverage {
  /** Every API operation (contracts/operations) with the number of scenario steps that call it. */
  operations: { operationId: string; steps: number }[]
  /** The API operations no step calls. */
  uncovered: string[]
}

export function coverage(scenarios: LoadedScenario[], contracts: AjvContracts): Coverage {
  const conformance = new Conformance(contracts)
  const calls = new Map<string, number>()
  for (const op of contracts.operations.values()) if (op.surface === 'api') calls.set(op.id, 0)
  for (const scenario of scenarios) {
    for (const step of scenario.steps) {
      const id = stepOperationId(step, conformance)
      if (id !== undefined && calls.has(id)) calls.set(id, (calls.get(id) ?? 0) + 1)
    }
  }
  const operations = [...calls].map(([operationId, steps]) => ({ operationId, steps })).sort((a, b) => a.operationId.localeCompare(b.operationId))
  return { operations, uncovered: operations.filter((entry) => entry.steps === 0).map((entry) => entry.operationId) }
}

/** The coverage as `ivs-mock verify --coverage` prints it. */
export function formatCoverage(result: Coverage): string {
  const width = Math.max(...result.operations.map((entry) => entry.operationId.length))
  const lines = result.operations.map((entry) => `${entry.operationId.padEnd(width)}  ${String(entry.steps).padStart(4)}${entry.steps === 0 ? '  not covered' : ''}`)
  const covered = result.operations.length - result.uncovered.length
  lines.push('', `${covered} of ${result.operations.length} operations covered${result.uncovered.length > 0 ? `; not covered: ${result.uncovered.join(', ')}` : ''}`)
  return lines.join('\n')
}
