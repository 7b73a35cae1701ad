// GET /aggregates/case-status (docs/specification-notes.md "Case-status aggregate"): how many of the team's cases are in each status,
// after the request's filters, for a dashboard. Every case status (docs/specification-notes.md "Cases") is listed
// once, in that order, with 0 where no case matches; the deprecated pending too (docs/specification-notes.md "Cases":
// older cases may still carry it).
import { canSee, type RequestContext } from '../../context.ts'
import type { AggregatesCaseStatusQuery, CaseStatusJson } from '../../contracts/generated.ts'
import { invalid } from '../../kernel/errors.ts'
import { hasVisibility } from '../../kernel/visibility.ts'
import type { CaseRow } from '../cases/index.ts'

/** The order docs/specification-notes.md "Cases" lists the statuses in (contracts/schemas/case.json#/$defs/status). */
export const CASE_STATUSES: readonly CaseStatusJson[] = [
  'pending',
  'awaiting_response',
  'action_required',
  'reviewed_pending_decision',
  'approved',
  'rejected',
  'on_hold',
]

/** Cases exist only for teams with cases enabled; a legacy team gets 403 before its input is checked (docs/specification-notes.md "Cases"). */
export const hasCases = (ctx: RequestContext): boolean => ctx.team.row.cases_enabled

/** Whether a case passes the filters: assigned_to a user id (among its assignees) or false (none); the status set within [start, end]; visibility. */
function matches(row: CaseRow, query: AggregatesCaseStatusQuery, start: number, end: number): boolean {
  const { assigned_to: assignedTo, visibility } = query
  if (!hasVisibility(visibility, row.archived_at)) return false
  if (assignedTo !== undefined) {
    const assigned = typeof assignedTo === 'boolean' ? row.assignees.length === 0 : row.assignees.some((assignee) => assignee.user === assignedTo)
    if (!assigned) return false
  }
  const changed = Date.parse(row.status_changed_at)
  return changed >= start && changed <= end
}

/**
 * Counts per status of the cases the caller sees (an assigned-only member: only those assigned to
 * them). end_date before start_date is a 422, as Laravel's after_or_equal rule answers.
 */
export function caseStatusCounts(ctx: RequestContext, query: AggregatesCaseStatusQuery): Array<{ status: CaseStatusJson; count: number }> {
  const start = query.start_date === undefined ? -Infinity : Date.parse(query.start_date)
  const end = query.end_date === undefined ? Infinity : Date.parse(query.end_date)
  if (end < start) throw invalid({ end_date: ['The end date field must be a date after or equal to start date.'] })
  const counts = new Map<CaseStatusJson, number>(CASE_STATUSES.map((status) => [status, 0]))
  for (const row of ctx.team.cases.all()) {
    if (canSee(ctx, row) && matches(row, query, start, end)) counts.set(row.status, (counts.get(row.status) ?? 0) + 1)
  }
  return CASE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }))
}
