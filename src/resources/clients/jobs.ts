// A client's deletion date on the mock's clock: the job that announces it when it falls due. The
// lifecycle engine says what it does.
import type { TeamContext } from '../../context.ts'
import type { Scheduler } from '../../kernel/scheduler.ts'
import type { ClientRow } from './rows.ts'

export const DELETION_DUE_JOB = 'client.deletion_due'

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
  if (due <= ctx.clock.nowMs()) return true
  ctx.scheduler.schedule(DELETION_DUE_JOB, ctx.team.id, client.id, new Date(due))
  return false
}

export function cancelDeletionReminder(ctx: TeamContext, client: ClientRow): void {
  ctx.scheduler.cancel(DELETION_DUE_JOB, ctx.team.id, client.id)
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
  for (const job of planned) scheduler.schedule(DELETION_DUE_JOB, team, job.client, new Date(job.due))
}
