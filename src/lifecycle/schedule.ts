// The jobs on the mock's clock: a record's expiry and reminders (check results are scheduled by
// the engine when a check is submitted) and an upload's virus scan. The engine says what each job does.
import type { TeamContext } from '../context.ts'
import type { AttachmentRow } from '../resources/attachments/rows.ts'
import type { RecordRow } from '../resources/records/rows.ts'

export const JOBS = {
  checkResult: 'check.result',
  reminder: 'record.reminder',
  expiry: 'record.expiry',
  scan: 'attachment.scan',
} as const

/** Seconds of the mock's clock an upload's virus scan takes unless --scan-delay says otherwise. */
export const DEFAULT_SCAN_DELAY_SECONDS = 5

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

/** An upload's virus scan, done after the scan delay (--scan-delay) on the mock's clock. */
export function scheduleScan(ctx: TeamContext, attachment: AttachmentRow): void {
  const delay = (ctx.behaviour.scanDelaySeconds ?? DEFAULT_SCAN_DELAY_SECONDS) * 1000
  ctx.scheduler.schedule(JOBS.scan, ctx.team.id, attachment.id, new Date(ctx.clock.now().getTime() + delay))
}

/** An attachment that is deleted or redacted is never scanned. */
export function cancelScan(ctx: TeamContext, attachment: AttachmentRow): void {
  ctx.scheduler.cancel(JOBS.scan, ctx.team.id, attachment.id)
}
