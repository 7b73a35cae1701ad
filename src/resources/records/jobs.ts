// A record's jobs on the mock's clock: its expiry and its reminders. The lifecycle engine says what
// they do.
import type { TeamContext } from '../../context.ts'
import type { RecordRow } from './rows.ts'

export const RECORD_JOBS = {
  reminder: 'record.reminder',
  expiry: 'record.expiry',
} as const

/** docs/specification-notes.md "Records and steps": a reminder email every 2 days until all steps are complete, or the record expires or is archived. */
export const REMINDER_INTERVAL_MS = 2 * 86_400_000

export function scheduleExpiry(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(RECORD_JOBS.expiry, ctx.team.id, record.id)
  const due = new Date(record.expired_at)
  if (due.getTime() > ctx.clock.nowMs()) ctx.scheduler.schedule(RECORD_JOBS.expiry, ctx.team.id, record.id, due)
}

/** The next reminder, 2 days from now (replacing any already planned). */
export function scheduleReminders(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(RECORD_JOBS.reminder, ctx.team.id, record.id)
  ctx.scheduler.schedule(RECORD_JOBS.reminder, ctx.team.id, record.id, new Date(ctx.clock.nowMs() + REMINDER_INTERVAL_MS))
}

export function stopReminders(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(RECORD_JOBS.reminder, ctx.team.id, record.id)
}
