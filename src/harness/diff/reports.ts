// What `ivs-mock diff` writes: the console (the counts, by operation and kind, then each
// difference), JSON (everything), Markdown (for a pull-request comment) and JUnit XML (a test case
// per operation, failed by the differences that break clients).
import junitModule from 'junit-report-builder'
import type { AcceptedDifference, AcceptEntry } from './accept.ts'
import { BREAKS, FIDELITY } from './classify.ts'
import type { Comparison } from './compare.ts'
import { operationsReached, type Difference } from './differences.ts'

// A CommonJS package whose module.exports is the builder; under NodeNext the default is the module.
const junit = junitModule as unknown as typeof junitModule.default

export interface OperationRow {
  operation: string
  /** The mock's operationId, and the other document's. */
  operationId?: string
  otherOperationId?: string
  presence: 'both' | 'mock only' | 'other only'
  breaking: number
  fidelity: number
  accepted: number
}

export interface DiffReport {
  mock: { document: string; operations: number }
  other: { document: string; openapi: string; operations: number; notes: string[] }
  durationMs: number
  summary: { inBoth: number; onlyInMock: number; onlyInOther: number; breaking: number; fidelity: number; accepted: number; stale: number }
  operations: OperationRow[]
  /** The differences not accepted, those that break clients first. */
  differences: Difference[]
  accepted: AcceptedDifference[]
  stale: AcceptEntry[]
  /** Where a schema was read as any value. */
  warnings: string[]
}

const MOCK_DOCUMENT = "the mock's contracts (GET /openapi.json)"

export function diffReport(
  comparison: Comparison,
  other: { source: string; openapi: string; notes: string[] },
  outcome: { open: Difference[]; accepted: AcceptedDifference[]; stale: AcceptEntry[] },
  durationMs: number,
): DiffReport {
  const rows = new Map<string, OperationRow>()
  for (const [key, mock] of comparison.mockOperations) {
    const match = comparison.otherOperations.get(key)
    rows.set(mock.label, { operation: mock.label, operationId: mock.operationId, otherOperationId: match?.operationId, presence: match ? 'both' : 'mock only', breaking: 0, fidelity: 0, accepted: 0 })
  }
  for (const [key, entry] of comparison.otherOperations) {
    if (!comparison.mockOperations.has(key)) rows.set(entry.label, { operation: entry.label, otherOperationId: entry.operationId, presence: 'other only', breaking: 0, fidelity: 0, accepted: 0 })
  }
  for (const difference of outcome.open) {
    for (const operation of operationsReached(difference)) {
      const row = rows.get(operation)
      if (row) row[difference.classification === BREAKS ? 'breaking' : 'fidelity']++
    }
  }
  for (const difference of outcome.accepted) for (const operation of operationsReached(difference)) if (rows.get(operation)) (rows.get(operation) as OperationRow).accepted++
  const operations = [...rows.values()]
  return {
    mock: { document: MOCK_DOCUMENT, operations: comparison.mockOperations.size },
    other: { document: other.source, openapi: other.openapi, operations: comparison.otherOperations.size, notes: other.notes },
    durationMs: Math.round(durationMs),
    summary: {
      inBoth: operations.filter((row) => row.presence === 'both').length,
      onlyInMock: operations.filter((row) => row.presence === 'mock only').length,
      onlyInOther: operations.filter((row) => row.presence === 'other only').length,
      breaking: outcome.open.filter((difference) => difference.classification === BREAKS).length,
      fidelity: outcome.open.filter((difference) => difference.classification === FIDELITY).length,
      accepted: outcome.accepted.length,
      stale: outcome.stale.length,
    },
    operations,
    differences: outcome.open,
    accepted: outcome.accepted,
    stale: outcome.stale,
    warnings: [...comparison.mockWarnings.map((warning) => `the mock's document: ${warning}`), ...comparison.otherWarnings.map((warning) => `${other.source}: ${warning}`)],
  }
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

/** `GET /clients/{id}` or `component client`. */
const placeOf = (difference: { operation?: string; component?: string }) => difference.operation ?? `component ${difference.component ?? ''}`

const staleLine = (entry: AcceptEntry) => `${entry.operation ?? `component ${entry.component ?? ''}`}: ${entry.where} (${entry.reason})`

function summaryLines(report: DiffReport): string[] {
  const { summary, other } = report
  return [
    `ivs-mock diff: ${report.mock.document} against ${other.document} (OpenAPI ${other.openapi}), ${(report.durationMs / 1000).toFixed(1)} s`,
    `Operations: ${report.mock.operations} in the mock, ${other.operations} in ${other.document}: ${summary.inBoth} in both, ${summary.onlyInMock} only in the mock, ${summary.onlyInOther} only in ${other.document}`,
    `Differences: ${plural(summary.breaking, 'breaks clients', 'break clients')}, ${summary.fidelity} fidelity only${summary.accepted > 0 ? `, ${summary.accepted} accepted (--accept)` : ''}${summary.stale > 0 ? `; ${plural(summary.stale, 'stale accepted entry', 'stale accepted entries')}` : ''}`,
  ]
}

/** Names, wrapped to lines of about `width` characters after `prefix`. */
function wrapped(prefix: string, names: string[], indent: string, width = 100): string[] {
  const lines: string[] = []
  let line = prefix
  for (const [index, name] of names.entries()) {
    const item = `${name}${index < names.length - 1 ? ',' : ''}`
    if (line.length + item.length + 1 > width && line.trim() !== prefix.trim()) {
      lines.push(line)
      line = `${indent}${item}`
    } else {
      line = line === prefix ? `${line}${item}` : `${line} ${item}`
    }
  }
  lines.push(line)
  return lines
}

function differenceLines(difference: Difference, mark: string): string[] {
  const lines = [
    `  ${mark} ${placeOf(difference)}: ${difference.where}`,
    `      mock:  ${difference.mock}`,
    `      other: ${difference.other}`,
    `      ${difference.meaning}`,
  ]
  if (difference.component !== undefined) {
    const reached = operationsReached(difference)
    lines.push(...wrapped(`      in ${plural(reached.length, 'operation')}: `, reached, '        '))
  }
  return lines
}

export function consoleText(report: DiffReport): string {
  const lines = summaryLines(report)
  for (const note of report.other.notes) lines.push(`Note: ${report.other.document}: ${note}`)
  for (const warning of report.warnings) lines.push(`Note: ${warning}`)
  const rows = report.operations.filter((row) => row.breaking > 0 || row.fidelity > 0)
  if (rows.length > 0) {
    const width = Math.max(...rows.map((row) => row.operation.length), 'By operation'.length)
    lines.push('', `${'By operation'.padEnd(width + 2)}  breaks clients  fidelity only`)
    for (const row of rows) lines.push(`  ${row.operation.padEnd(width)}  ${String(row.breaking).padStart(14)}  ${String(row.fidelity).padStart(13)}${row.presence === 'both' ? '' : `  (${row.presence})`}`)
  }
  const breaking = report.differences.filter((difference) => difference.classification === BREAKS)
  const fidelity = report.differences.filter((difference) => difference.classification === FIDELITY)
  if (breaking.length > 0) lines.push('', `Breaks clients (${breaking.length}):`, ...breaking.flatMap((difference) => differenceLines(difference, '✗')))
  if (fidelity.length > 0) lines.push('', `Fidelity only (${fidelity.length}):`, ...fidelity.flatMap((difference) => differenceLines(difference, '~')))
  if (report.stale.length > 0) lines.push('', `Stale accepted entries (${report.stale.length}): no such difference any more`, ...report.stale.map((entry) => `  - ${staleLine(entry)}`))
  if (report.differences.length === 0 && report.accepted.length === 0) lines.push('No differences.')
  return `${lines.join('\n')}\n`
}

export function jsonText(report: DiffReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``

function markdownTable(differences: Difference[]): string[] {
  const lines = ['| Where | Mock | Other | What it means |', '|---|---|---|---|']
  for (const difference of differences) {
    let where = `${difference.operation !== undefined ? code(difference.operation) : `component ${code(difference.component ?? '')}`} ${code(difference.where)}`
    if (difference.component !== undefined) {
      const reached = operationsReached(difference)
      where += `<br><details><summary>in ${plural(reached.length, 'operation')}</summary>${reached.map(code).join(', ')}</details>`
    }
    lines.push(`| ${cell(where)} | ${cell(code(difference.mock))} | ${cell(code(difference.other))} | ${cell(difference.meaning)} |`)
  }
  return lines
}

export function markdownText(report: DiffReport): string {
  const { summary } = report
  const breaking = report.differences.filter((difference) => difference.classification === BREAKS)
  const fidelity = report.differences.filter((difference) => difference.classification === FIDELITY)
  const lines = [
    `### ivs-mock diff: the mock's contracts against ${code(report.other.document)}`,
    '',
    `${breaking.length > 0 ? `**${plural(summary.breaking, 'difference breaks', 'differences break')} clients**` : 'Nothing breaks clients'}; ${summary.fidelity} fidelity only${summary.accepted > 0 ? `; ${summary.accepted} accepted` : ''}. ` +
      `Operations: ${summary.inBoth} in both, ${summary.onlyInMock} only in the mock, ${summary.onlyInOther} only in the other document (OpenAPI ${report.other.openapi}).`,
  ]
  if (breaking.length > 0) lines.push('', '#### Breaks clients', '', ...markdownTable(breaking))
  if (fidelity.length > 0) lines.push('', `<details><summary>Fidelity only (${fidelity.length})</summary>`, '', ...markdownTable(fidelity), '', '</details>')
  if (report.stale.length > 0) lines.push('', '#### Stale accepted entries', '', ...report.stale.map((entry) => `- ${cell(staleLine(entry))}`))
  return `${lines.join('\n')}\n`
}

const differenceText = (difference: Difference) => `${placeOf(difference)}: ${difference.where}\n  mock:  ${difference.mock}\n  other: ${difference.other}\n  ${difference.meaning}`

/** JUnit XML: a test case per operation of either document, failed by each difference that reaches it and breaks clients. */
export function junitXml(report: DiffReport): string {
  const builder = junit.newBuilder()
  const suite = builder
    .testSuite()
    .name('ivs-mock diff')
    .property('mock', report.mock.document)
    .property('other', report.other.document)
    .time(report.durationMs / 1000)
  const reaching = (operation: string, differences: Difference[]) => differences.filter((difference) => operationsReached(difference).includes(operation))
  for (const row of report.operations) {
    const testCase = suite.testCase().className('operations').name(`${row.operation}${row.operationId ? ` (${row.operationId})` : ''}`)
    const differences = reaching(row.operation, report.differences)
    const breaking = differences.filter((difference) => difference.classification === BREAKS)
    const other = [...differences.filter((difference) => difference.classification === FIDELITY), ...reaching(row.operation, report.accepted)]
    if (breaking.length > 0) {
      const first = breaking[0] as Difference
      testCase.failure(`${plural(breaking.length, 'difference breaks', 'differences break')} clients; first: ${placeOf(first)}: ${first.where}`, 'BreaksClients').stacktrace(breaking.map(differenceText).join('\n'))
    }
    if (other.length > 0) testCase.standardOutput(other.map((difference) => `${'reason' in difference ? `accepted (${String(difference.reason)})` : FIDELITY}: ${differenceText(difference)}`).join('\n'))
  }
  return builder.build()
}
