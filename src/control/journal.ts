// The traffic journal's control operations (contracts/control/journal.json): what a team's client
// sent, and the report of it, in JSON or, for Accept: text/markdown, in Markdown.
import { reportMarkdown } from '../contracts/verdicts.ts'
import type { Journal } from '../kernel/journal.ts'
import { paginate } from '../kernel/pagination.ts'
import type { ControlRoutes } from './routes.ts'

const NO_OPERATION = 'none'

export function journalRoutes(routes: ControlRoutes, journal: Journal): void {
  routes.handle('control.journal.list', ({ query, url }) => {
    const { operation, status, verdict } = query
    const entries = journal
      .entries(query.team)
      .reverse()
      .filter(
        (entry) =>
          (operation === undefined || (entry.operation ?? NO_OPERATION) === operation) &&
          (status === undefined || entry.status === status) &&
          (verdict === undefined || entry.verdicts.some((found) => found.kind === verdict)),
      )
    return paginate(entries, query, url, (entry) => entry)
  })

  routes.handle('control.journal.clear', ({ query }) => {
    journal.clear(query.team)
  })

  routes.handle('control.journal.report', ({ query, request }) => {
    const report = journal.report(query.team)
    if (!/text\/markdown/i.test(request.headers.get('Accept') ?? '')) return report
    const title = query.team === undefined ? 'Journal report: requests not attributed to a team' : `Journal report: team ${query.team}`
    return { kind: 'binary' as const, type: 'text/markdown; charset=utf-8', bytes: new TextEncoder().encode(reportMarkdown(report, title)) }
  })
}
