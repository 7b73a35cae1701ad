// Which API operations the scenarios call: by operationId, how many steps call it, and which no
// step calls (the coverage test fails on those); and which operations a run reached: passed,
// failed, or not reached and why (the table every report ends with).
import type { AjvContracts } from '../contracts/ajv.ts'
import { Conformance } from './conformance.ts'
import { violationKeys } from './drift.ts'
import type { OperationOutcome, RunReport, ScenarioReport, SkipKind, StepReport } from './report.ts'
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

export interface OutcomeContext {
  /** Every scenario loaded, and those the run selected (--grep, --tag, --read-only). */
  loaded: LoadedScenario[]
  selected: LoadedScenario[]
  readOnly: boolean
  /** Whether the run crawled the team (--read-only with a token). */
  crawled: boolean
}

/** What a skip of a kind means in the table. */
const NOT_REACHED_BECAUSE: Record<SkipKind, (reason: string) => string> = {
  control: () => 'no control API (/_mock) on the target',
  token: (reason) => `no token for a role: ${reason.replace(/^needs /, '')}`,
  data: (reason) => `no data in the team: ${reason.replace(/^no data in the team: /, '')}`,
  'fresh-team': () => 'needs a team of its own (tag fresh-team), which only the control API makes',
  'read-only': (reason) => `--read-only: ${reason}`,
  receiver: () => "the target cannot reach the runner's webhook receiver (--receiver-url)",
  'not-run': (reason) => reason,
}

/**
 * Why an operation was not reached when the run chose so (its options, its scenarios), not the
 * target: the table gives each such reason one line for all its operations, so a run of a few
 * scenarios shows theirs, not 80 lines of what it left out. The JSON and JUnit reports list each.
 */
const RUN_CHOICES = [
  { reason: 'its scenarios were not selected (--grep, --tag, --read-only)', together: 'their scenarios were not selected (--grep, --tag, --read-only)' },
  { reason: '--read-only: it changes the team', together: '--read-only: they change the team' },
  { reason: 'no scenario calls it', together: 'no scenario of the run calls them' },
]
const [NOT_SELECTED, READ_ONLY_WRITE, NOT_CALLED] = RUN_CHOICES.map((choice) => choice.reason) as [string, string, string]

/** The order in which a skip explains an operation best: the target's lack first, then the run's choices. */
const KIND_ORDER: SkipKind[] = ['data', 'token', 'control', 'fresh-team', 'read-only', 'receiver', 'not-run']

/** Every API operation's outcome in a run, from the steps of its scenarios (and crawl). */
export function operationOutcomes(reports: ScenarioReport[], contracts: AjvContracts, context: OutcomeContext): { operations: OperationOutcome[]; reached: number; failed: number } {
  const conformance = new Conformance(contracts)
  const steps = new Map<string, StepReport[]>()
  for (const report of reports) {
    for (const step of report.steps) {
      if (step.operationId === undefined || step.kind === 'control' || step.kind === 'receive') continue
      steps.set(step.operationId, [...(steps.get(step.operationId) ?? []), step])
    }
  }
  const calledBy = (scenarios: LoadedScenario[], id: string) => scenarios.some((scenario) => scenario.steps.some((step) => stepOperationId(step, conformance) === id))
  const operations: OperationOutcome[] = []
  for (const op of [...contracts.operations.values()].filter((candidate) => candidate.surface === 'api').sort((a, b) => a.id.localeCompare(b.id))) {
    const mine = steps.get(op.id) ?? []
    const answered = mine.filter((step) => step.status !== undefined)
    const succeeded = answered.filter((step) => (step.status as number) >= 200 && (step.status as number) < 300).length
    const entry: OperationOutcome = { operationId: op.id, method: op.method, path: op.path, outcome: 'not reached', answered: answered.length, succeeded }
    if (answered.some((step) => step.outcome === 'failed')) {
      entry.outcome = 'failed'
      entry.violations = violationKeys(answered.flatMap((step) => step.failures))
    }
    else if (answered.length > 0) entry.outcome = 'passed'
    else if (mine.length > 0) {
      const skipped = mine.filter((step) => step.outcome === 'skipped').sort((a, b) => KIND_ORDER.indexOf(a.skipKind ?? 'not-run') - KIND_ORDER.indexOf(b.skipKind ?? 'not-run'))[0]
      const unsent = mine.find((step) => step.outcome === 'failed')
      entry.reason = skipped ? NOT_REACHED_BECAUSE[skipped.skipKind ?? 'not-run'](skipped.skipReason ?? '') : `not sent: ${unsent?.failures[0] ?? 'the step failed before its request'}`
    } else if (context.readOnly && op.method !== 'GET') entry.reason = READ_ONLY_WRITE
    else if (context.readOnly && !context.crawled) entry.reason = 'the crawl needs a token to read the team with (--token)'
    else if (calledBy(context.loaded, op.id) && !calledBy(context.selected, op.id)) entry.reason = NOT_SELECTED
    else entry.reason = NOT_CALLED
    operations.push(entry)
  }
  const reached = operations.filter((entry) => entry.outcome !== 'not reached').length
  return { operations, reached, failed: operations.filter((entry) => entry.outcome === 'failed').length }
}

/** "N of 99 operations reached, M failed" */
export function operationsLine(report: Pick<RunReport, 'operations' | 'reached' | 'operationsFailed'>): string {
  return `${report.reached} of ${report.operations.length} operations reached, ${report.operationsFailed} failed`
}

/**
 * The table of the operations, one line each but one line a reason for those the run left out by
 * choice (an operation that drifted since the baseline keeps its own line), and the count line last.
 */
export function formatOperations(report: Pick<RunReport, 'operations' | 'reached' | 'operationsFailed' | 'drift'>): string[] {
  const movedOf = (entry: OperationOutcome) => report.drift?.operations.find((drift) => drift.operationId === entry.operationId)
  const choice = (entry: OperationOutcome) => (entry.outcome === 'not reached' && movedOf(entry) === undefined ? RUN_CHOICES.find((candidate) => candidate.reason === entry.reason) : undefined)
  const shown = report.operations.filter((entry) => choice(entry) === undefined)
  const idWidth = Math.max(...shown.map((entry) => entry.operationId.length))
  const routeWidth = Math.max(...shown.map((entry) => entry.method.length + entry.path.length + 1))
  const lines = shown.map((entry) => {
    const mark = entry.outcome === 'passed' ? '✓' : entry.outcome === 'failed' ? '✗' : '-'
    const refusals = entry.succeeded === 0 ? `, ${entry.answered === 1 ? 'a refusal' : 'all refusals'}` : ''
    const what = entry.outcome === 'not reached' ? `not reached: ${entry.reason ?? ''}` : `${entry.outcome} (${entry.answered} ${entry.answered === 1 ? 'answer' : 'answers'}${refusals})`
    const moved = movedOf(entry)
    return `  ${mark} ${entry.operationId.padEnd(idWidth)}  ${`${entry.method} ${entry.path}`.padEnd(routeWidth)}  ${what}${moved ? ` (${moved.kind} since the baseline)` : ''}`
  })
  for (const { reason, together } of RUN_CHOICES) {
    const left = report.operations.filter((entry) => choice(entry)?.reason === reason).length
    if (left > 0) lines.push(left === 1 ? `  - 1 other not reached: ${reason}` : `  - ${left} others not reached: ${together}`)
  }
  return [`Operations (${report.operations.length}):`, ...lines, operationsLine(report)]
}
