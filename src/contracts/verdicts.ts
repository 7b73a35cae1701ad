// The report of what a client did: the mock's journal (GET /_mock/journal/report) and the
// validating proxy (ivs-mock proxy) both summarise their exchanges here, so their reports have one
// shape (contracts/schemas/mock-journal-report.json) and read the same in Markdown.
import type { MockJournalEntryKindJson, MockJournalEntryVerdictJson, MockJournalReportJson } from './generated.ts'

export type VerdictKind = MockJournalEntryKindJson
export type Verdict = MockJournalEntryVerdictJson
export type Report = MockJournalReportJson

/** One exchange as the report needs it. */
export interface JudgedExchange {
  method: string
  /** Path and query string as sent. */
  path: string
  operation: string | null
  /** Whether the contract marks the operation deprecated. */
  deprecated: boolean
  status: number
  /** Wire timestamp of when it arrived. */
  at: string
  verdicts: readonly Verdict[]
}

export const VERDICT_TITLES: Record<VerdictKind, string> = {
  request_violation: 'Requests that break the contract (the service answers 422)',
  ignored_query_parameter: 'Query parameters the service ignores',
  ignored_body_property: 'Body properties the service ignores',
  deprecated: 'Deprecated operations, parameters and values',
  unauthenticated: 'Rejected tokens (401)',
  forbidden: 'Refused actions (403)',
  rate_limited: 'Rate-limit hits (429)',
  unknown_operation: 'Requests no operation matches',
  response_violation: 'Answers that break the contract',
  not_relayed: 'Exchanges that did not pass through whole (the proxy answered itself, or the answer broke off)',
  fault: 'Answers injected by a fault (POST /_mock/teams/{id}/faults)',
}

const KIND_ORDER = Object.keys(VERDICT_TITLES) as VerdictKind[]

/** Summarises exchanges in the order they happened. */
export function summarise(team: number | null, exchanges: readonly JudgedExchange[]): Report {
  const verdicts: Partial<Record<VerdictKind, number>> = {}
  const operations = new Map<string | null, Report['operations'][number]>()
  const findings = new Map<string, Report['findings'][number]>()
  for (const exchange of exchanges) {
    let used = operations.get(exchange.operation)
    if (!used) {
      used = { operation: exchange.operation, count: 0, statuses: {}, deprecated: exchange.deprecated }
      operations.set(exchange.operation, used)
    }
    used.count++
    used.statuses[exchange.status] = (used.statuses[exchange.status] ?? 0) + 1
    for (const verdict of exchange.verdicts) {
      verdicts[verdict.kind] = (verdicts[verdict.kind] ?? 0) + 1
      const key = JSON.stringify([verdict.kind, exchange.operation, verdict.at, verdict.message])
      const finding = findings.get(key)
      if (finding) finding.count++
      else {
        findings.set(key, {
          ...verdict,
          operation: exchange.operation,
          count: 1,
          example: { method: exchange.method, path: exchange.path, status: exchange.status },
        })
      }
    }
  }
  const byKind = (kind: VerdictKind) => KIND_ORDER.indexOf(kind)
  return {
    object: 'mock_journal_report',
    team,
    total: exchanges.length,
    from: exchanges[0]?.at ?? null,
    to: exchanges.at(-1)?.at ?? null,
    verdicts: Object.fromEntries(KIND_ORDER.filter((kind) => verdicts[kind]).map((kind) => [kind, verdicts[kind]])),
    operations: [...operations.values()].sort((a, b) => b.count - a.count),
    findings: [...findings.values()].sort((a, b) => byKind(a.kind) - byKind(b.kind) || b.count - a.count),
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The report as a Markdown document for people. */
export function reportMarkdown(report: Report, title = 'Client report'): string {
  const lines = [`# ${title}`, '']
  const scope = report.team === null ? 'requests not attributed to a team' : `team ${report.team}`
  lines.push(
    report.total === 0
      ? `No exchanges recorded (${scope}).`
      : `${report.total} exchange${report.total === 1 ? '' : 's'} from ${report.from} to ${report.to} (${scope}).`,
    '',
    '## Operations used',
    '',
  )
  if (report.operations.length === 0) lines.push('None.')
  else {
    lines.push('| Operation | Calls | Statuses |', '| --- | ---: | --- |')
    for (const used of report.operations) {
      const statuses = Object.entries(used.statuses).map(([status, count]) => `${status} x${count}`).join(', ')
      lines.push(`| ${cell(used.operation ?? '(no operation)')}${used.deprecated ? ' (deprecated)' : ''} | ${used.count} | ${statuses} |`)
    }
  }
  for (const kind of KIND_ORDER) {
    const findings = report.findings.filter((finding) => finding.kind === kind)
    if (findings.length === 0) continue
    lines.push('', `## ${VERDICT_TITLES[kind]}`, '')
    for (const finding of findings) {
      const where = finding.at === null ? '' : ` \`${finding.at}\``
      lines.push(
        `- ${finding.operation ?? '(no operation)'}${where}: ${finding.message} (${finding.count}x; e.g. ${finding.example.method} ${finding.example.path} -> ${finding.example.status})`,
      )
    }
  }
  if (report.findings.length === 0 && report.total > 0) lines.push('', 'Nothing to report: every request was one the service accepts and uses as documented.')
  return `${lines.join('\n')}\n`
}
