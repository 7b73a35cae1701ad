// The jobs on the mock's clock, by name: a check's result (scheduled by the engine when a check is
// submitted), and the jobs each resource plans itself (a record's expiry and reminders, an upload's
// virus scan, a client's deletion date). The engine says what each job does.
import type { JobRow, Scheduler } from '../kernel/scheduler.ts'
import { DELETION_DUE_JOB } from '../resources/clients/index.ts'
import { SCAN_JOB } from '../resources/attachments/index.ts'
import { RECORD_JOBS } from '../resources/records/index.ts'

export { DEFAULT_SCAN_DELAY_SECONDS } from '../resources/attachments/index.ts'
export { scheduleSeededDeletionReminders } from '../resources/clients/index.ts'

export const JOBS = {
  checkResult: 'check.result',
  reminder: RECORD_JOBS.reminder,
  expiry: RECORD_JOBS.expiry,
  scan: SCAN_JOB,
  deletionDue: DELETION_DUE_JOB,
} as const

/** A record's jobs waiting on the clock, soonest first: its reminders and expiry, and its checks' results. */
export function recordJobs(scheduler: Scheduler, team: number, record: number, checks: Iterable<number>): JobRow[] {
  return scheduler.about(team, [[JOBS.reminder, record], [JOBS.expiry, record], ...[...checks].map((check) => [JOBS.checkResult, check] as const)])
}
