// The jobs on the mock's clock: a record's expiry and reminders (check results are scheduled by
// the engine when a check is submitted), an upload's virus scan and a client's deletion date. The
// engine says what each job does.
import type { TeamContext } from '../context.ts'
import type { Scheduler } from '../kernel/scheduler.ts'
import type { AttachmentRow } from '../resources/attachments/index.ts'
import type { ClientRow } from '../resources/clients/index.ts'
import type { RecordRow } from '../resources/records/index.ts'

export const JOBS = {
  checkResult: 'check.result',
  reminder: 'record.reminder',
  expiry: 'record.expiry',
  scan: 'attachment.scan',
  deletionDue: 'client.deletion_due',
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

/** The moment a client's deletion date falls due: the start of that day, UTC, on the mock's clock. */
export function deletionDueAt(date: string): number {
  return Date.parse(`${date}T00:00:00Z`)
}

/**
 * A client's deletion_date was set, changed or removed: the job that announces it
 * (client.deletion_reminder_due) follows it. Returns true when the date is due already (today or
 * earlier), for the caller to announce it now; no job is planned then.
 */
export function scheduleDeletionReminder(ctx: TeamContext, client: ClientRow): boolean {
  cancelDeletionReminder(ctx, client)
  if (client.deletion_date === null) return false
  const due = deletionDueAt(client.deletion_date)
  if (due <= ctx.clock.now().getTime()) return true
  ctx.scheduler.schedule(JOBS.deletionDue, ctx.team.id, client.id, new Date(due))
  return false
}

export function cancelDeletionReminder(ctx: TeamContext, client: ClientRow): void {
  ctx.scheduler.cancel(JOBS.deletionDue, ctx.team.id, client.id)
}

/**
 * The seed's clients (made without a request): a job for each deletion date after `now` (the
 * seed's epoch). Earlier dates are the seeded world's history and are never announced.
 */
export function scheduleSeededDeletionReminders(scheduler: Scheduler, team: number, clients: Iterable<ClientRow>, now: number): void {
  const planned = [...clients]
    .flatMap((client) => (client.deletion_date === null ? [] : [{ client: client.id, due: deletionDueAt(client.deletion_date) }]))
    .filter((job) => job.due > now)
    .sort((a, b) => a.due - b.due || a.client - b.client)
  for (const job of planned) scheduler.schedule(JOBS.deletionDue, team, job.client, new Date(job.due))
}
