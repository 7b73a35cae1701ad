// A record's status and whether its client can still act on it, derived in this one place from
// its steps, checks, expiry, review and amendments (docs/specification-notes.md "Records and steps"); never stored.
import type { RecordStatusJson } from '../../contracts/generated.ts'
import type { Team } from '../../store/world.ts'
import type { RecordRow } from './rows.ts'

/** A check as resources/checks keeps it (its table, declared there: checks/ reads records, not the other way). */
type CheckRow = NonNullable<ReturnType<Team['checks']['get']>>

export function isExpired(record: RecordRow, now: string): boolean {
  return record.expired_at <= now
}

function checksOf(team: Team, record: RecordRow): CheckRow[] {
  const checks: CheckRow[] = []
  for (const step of record.steps) {
    const check = step.check === null ? undefined : team.checks.get(step.check)
    if (check) checks.push(check)
  }
  return checks
}

/** A name correction the client proposed on this record still awaits the team's decision. */
export function hasPendingAmendment(team: Team, record: RecordRow): boolean {
  return team.correctionsByClient.get(record.client).some((correction) => correction.record === record.id && correction.status === 'pending')
}

/**
 * reviewed (marked reviewed) and amendments (a correction awaits a decision) win; a record whose
 * client has not done every step is incomplete or empty once expired; otherwise a paused check,
 * then a check awaiting its result, decide; then complete, started or pending by the steps done.
 * failed is deprecated and never derived.
 */
export function recordStatus(team: Team, record: RecordRow, now: string): RecordStatusJson {
  if (record.reviewed_at !== null) return 'reviewed'
  if (hasPendingAmendment(team, record)) return 'amendments'
  const completed = record.steps.filter((step) => step.completed_at !== null).length
  const allDone = completed === record.steps.length
  if (!allDone && isExpired(record, now)) return completed > 0 ? 'incomplete' : 'empty'
  const checks = checksOf(team, record)
  if (checks.some((check) => check.status === 'paused')) return 'paused'
  if (checks.some((check) => check.status === 'submitted')) return 'waiting'
  if (allDone) return 'complete'
  return completed > 0 ? 'started' : 'pending'
}

/** The client can still submit a step: not archived, not expired, and a step is left (perform_url). */
export function isOpen(record: RecordRow, now: string): boolean {
  return record.archived_at === null && !isExpired(record, now) && record.steps.some((step) => step.completed_at === null)
}

/**
 * The record reached an end (docs/specification-notes.md "Events": record.finished): every step done with every check
 * returned, or expired with steps left. Review and amendments do not matter here.
 */
export function isFinished(team: Team, record: RecordRow, now: string): boolean {
  const allDone = record.steps.every((step) => step.completed_at !== null)
  if (!allDone) return isExpired(record, now)
  return !checksOf(team, record).some((check) => check.status === 'submitted' || check.status === 'paused')
}
