// `verify --baseline <report.json>`: this run's operations table against an earlier run's JSON report
// (what --json wrote), for watching a deployment night after night. An operation's verdict moves
// (passed, failed, not reached); a failing one may fail in new ways. Violations are compared by
// an identity that leaves out what changes from run to run on a lived-in, shared team: ids, item
// positions in lists, captured values and run ids, and the values an answer held ("got ...").
import { readFileSync } from 'node:fs'
import type { Drift, DriftKind, OperationDrift, OperationOutcome, RunReport } from './report.ts'

/** An earlier run's verdicts, as its JSON report holds them. */
export interface Baseline {
  file: string
  base?: string
  startedAt?: string
  operations: Map<string, Pick<OperationOutcome, 'outcome' | 'reason' | 'violations'>>
}

/** A baseline that cannot be read or is no report of verify --json (exit 2, one line). */
export class BaselineError extends Error {}

const OUTCOMES: readonly string[] = ['passed', 'failed', 'not reached']
const ORDER: DriftKind[] = ['newly failing', 'newly unreachable', 'new violations', 'recovered', 'newly reached']

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads a report verify --json wrote; throws BaselineError saying what is wrong and where. */
export function readBaseline(file: string): Baseline {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new BaselineError(`cannot read the baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new BaselineError(`the baseline ${file} is not JSON: ${(error as Error).message}`)
  }
  const notReport = (why: string) => new BaselineError(`the baseline ${file} is not a report of ivs-mock verify --json: ${why}`)
  if (!isObject(parsed) || !Array.isArray(parsed.operations)) throw notReport('it has no operations list')
  const operations = new Map<string, Pick<OperationOutcome, 'outcome' | 'reason' | 'violations'>>()
  parsed.operations.forEach((entry: unknown, index) => {
    if (!isObject(entry) || typeof entry.operationId !== 'string') throw notReport(`operations.${index} has no operationId`)
    if (typeof entry.outcome !== 'string' || !OUTCOMES.includes(entry.outcome)) throw notReport(`operations.${index}.outcome is ${JSON.stringify(entry.outcome)}, not passed, failed or not reached`)
    const violations = entry.violations
    if (violations !== undefined && !(Array.isArray(violations) && violations.every((item) => typeof item === 'string'))) throw notReport(`operations.${index}.violations is not a list of strings`)
    operations.set(entry.operationId, { outcome: entry.outcome as OperationOutcome['outcome'], reason: typeof entry.reason === 'string' ? entry.reason : undefined, violations })
  })
  return { file, base: typeof parsed.base === 'string' ? parsed.base : undefined, startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : undefined, operations }
}

/** A list position or an id in a path (body.data.3.id, /clients/151): the same place whatever the team holds. */
const place = (at: string) => at.replace(/\.\d+(?=\.|$)/g, '.*')

/**
 * A step's failure as an identity that holds from run to run: what broke and where, without the
 * values that change (what an answer held, ids, list positions, the run's own names).
 */
export function violationKey(failure: string): string {
  const text = failure.replace(/^page \d+(?: \([^)]*\))?: /, 'page: ')
  const contract = /^(page: )?contract(?: of [\w.]+)?: ([^:]+): (.*)$/s.exec(text)
  if (contract) {
    // A conformance message ends with the value it saw: ", got <value>" or " (<value>)".
    const message = (contract[3] as string)
      .replace(/, got .*$/s, '')
      .replace(/ \([^()]*\)$/, '')
      .replace(/([./])\d+(?=[./"]|$)/g, '$1*')
    return `${contract[1] ?? ''}contract: ${place(contract[2] as string)}: ${message}`
  }
  const status = /^status: (expected [^,]+), got/.exec(text)
  if (status) return `expectation status: ${status[1] as string}`
  // The scenario's own expectations hold values it captured (ids, its run id): only where it looked counts.
  const expectation = /^((?:body|header )[^:]*): expected/.exec(text)
  if (expectation) return `expectation ${place(expectation[1] as string)}`
  if (text.startsWith('no answer: ')) return text.replace(/ \(.*\)$/, '')
  if (text.startsWith('find: ')) return 'find: fewer items found than looked for'
  if (text.startsWith('url: ')) return 'url: not this operation under the API base'
  if (/^page: status /.test(text)) return text.replace(/^page: status (\d+).*$/, 'page: status $1')
  return text.replace(/still so after polling \d+ times/, 'still so after polling').replace(/\d{2,}/g, '#')
}

/** The distinct violation identities of an operation's failed steps, sorted. */
export function violationKeys(failures: Iterable<string>): string[] {
  return [...new Set([...failures].map(violationKey))].sort()
}

/** This run's operations against the baseline's. An operation the baseline does not list counts as not reached there. */
export function compareWithBaseline(report: Pick<RunReport, 'operations'>, baseline: Baseline): Drift {
  const operations: OperationDrift[] = []
  for (const entry of report.operations) {
    const before = baseline.operations.get(entry.operationId) ?? { outcome: 'not reached' as const }
    const known = new Set(before.violations ?? [])
    const newViolations = (entry.violations ?? []).filter((violation) => !known.has(violation))
    let kind: DriftKind | undefined
    if (entry.outcome === 'failed') kind = before.outcome !== 'failed' ? 'newly failing' : newViolations.length > 0 ? 'new violations' : undefined
    else if (entry.outcome === 'not reached') kind = before.outcome !== 'not reached' ? 'newly unreachable' : undefined
    else kind = before.outcome === 'failed' ? 'recovered' : before.outcome === 'not reached' ? 'newly reached' : undefined
    if (!kind) continue
    operations.push({
      operationId: entry.operationId,
      method: entry.method,
      path: entry.path,
      kind,
      was: before.outcome,
      now: entry.outcome,
      ...(kind === 'newly unreachable' && { reason: entry.reason }),
      newViolations: entry.outcome === 'failed' ? newViolations : [],
    })
  }
  operations.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.operationId.localeCompare(b.operationId))
  return {
    baseline: { file: baseline.file, base: baseline.base, startedAt: baseline.startedAt },
    worse: operations.some((drift) => drift.kind === 'newly failing' || drift.kind === 'newly unreachable'),
    operations,
  }
}

/** "newly failing: clients.get (GET /clients/{id}): passed -> failed" */
export function driftLine(drift: OperationDrift): string {
  const reason = drift.reason ? `: ${drift.reason}` : ''
  return `${drift.kind}: ${drift.operationId} (${drift.method} ${drift.path}): ${drift.was} -> ${drift.now}${reason}`
}

/** The drift as the console prints it, before the rest of the run's closing lines. */
export function formatDrift(drift: Drift): string[] {
  const since = `since the baseline ${drift.baseline.file}${drift.baseline.startedAt ? ` (${drift.baseline.startedAt})` : ''}`
  if (drift.operations.length === 0) return [`Drift ${since}: no drift`]
  const count = (kind: DriftKind) => drift.operations.filter((entry) => entry.kind === kind).length
  const counts = ORDER.filter((kind) => count(kind) > 0).map((kind) => `${count(kind)} ${kind}`)
  const lines = [`Drift ${since}: ${counts.join(', ')}`]
  for (const entry of drift.operations) {
    lines.push(`  ${entry.kind === 'recovered' || entry.kind === 'newly reached' ? '+' : '✗'} ${driftLine(entry)}`)
    for (const violation of entry.newViolations) lines.push(`      new: ${violation}`)
  }
  return lines
}
