// The jobs a record has on the mock's clock: its expiry and its reminders (check results are
// scheduled by the engine when a check is submitted). The engine says what each job does.
import type { TeamContext } from '../context.ts'
import type { RecordRow } from '../resources/records/rows.ts'

export const JOBS = {
  checkResult: 'check.result',
  reminder: 'record.reminder',
  expiry: 'record.expiry',
} as const

/** Spec: a reminder email every 2 days until all steps are complete, or the record expires or is archived. */
export const REMINDER_INTERVAL_MS = 2 * 86_400_000

export function scheduleExpiry(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(JOBS.expiry, ctx.team.id, record.id)
  const due = new Date(record.expired_at)
  if (due.getTime() > ctx.clock.now().getTime()) ctx.scheduler.schedule(JOBS.expiry, ctx.team.id, record.id, due)
}

/** The next reminder, 2 days from now (replacing any already planned). */
export function scheduleReminders(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(JOBS.reminder, ctx.team.id, record.id)
  ctx.scheduler.schedule(JOBS.reminder, ctx.team.id, record.id, new Date(ctx.clock.now().getTime() + REMINDER_INTERVAL_MS))
}

export function stopReminders(ctx: TeamContext, record: RecordRow): void {
  ctx.scheduler.cancel(JOBS.reminder, ctx.team.id, record.id)
}
