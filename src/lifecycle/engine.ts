// The verification lifecycle, top to bottom. A record is created by the API (records/service.ts)
// with its expiry and reminders scheduled (schedule.ts). Then:
//   1. The client completes steps (submitStep; the control API completes one step, or every open
//      step at once). A check step's check becomes submitted, with its outcome decided (outcomes.ts).
//   2. After the processing delay on the mock's clock (--check-delay), the check returns: its
//      status follows the outcome and it gets a response.
//   3. Every 2 days while the record has reminders and is open, a reminder is recorded.
//   4. At expired_at, a record with steps left is finished (incomplete or empty).
// Besides records, an upload's virus scan ends after the scan delay (--scan-delay; scans.ts), and
// a client's deletion date, when the clock reaches it, publishes client.deletion_reminder_due.
// Every change publishes record.updated, and record.finished once the record reaches an end
// (records/events.ts); the record's status is derived from all of this (records/status.ts).
import { teamContext, type Services, type TeamContext } from '../context.ts'
import { invalidBody } from '../kernel/errors.ts'
import type { JobRow } from '../kernel/scheduler.ts'
import type { Draft } from '../store/table.ts'
import { deletionReminderDue } from '../resources/clients/index.ts'
import { submitForm, type FormAnswers } from '../resources/forms/index.ts'
import { completeRecordDocument } from '../resources/record-documents/index.ts'
import { isExpired, isOpen, publishRecordUpdated, REMINDER_INTERVAL_MS, settleFinished, stopReminders, updateStep, type RecordRow, type StepRow } from '../resources/records/index.ts'
import { hasResponse, photoIdMedia, withCapture, type CheckResponseRecipe, type CheckRow, type Outcome, type PhotoIdCapture } from '../resources/checks/index.ts'
import { OUTCOME_STATUS, outcomeFor } from './outcomes.ts'
import { finishScan } from './scans.ts'
import { JOBS } from './schedule.ts'

/**
 * What the client gives with a step. Left out, the simulated client gives what the control API's
 * complete gives: a sample upload, plausible form answers, the first accepted photo ID document.
 */
export interface Submission {
  /** Forces the outcome of this step's check. */
  outcome?: Outcome
  /** Seconds until the check's result (default: --check-delay). */
  delaySeconds?: number
  /** document.request, and a document.transfer that requires a return: the attachments the client uploaded. */
  uploads?: readonly number[]
  /** form: the client's answers (checked: a 422 keyed by field id when one is wrong). */
  answers?: FormAnswers
  /** check.photo_id: the document the client showed, and its images. */
  capture?: PhotoIdCapture
}

/** The client completes one step; a check step's check is submitted and its result scheduled. */
export function submitStep(ctx: TeamContext, record: RecordRow, step: StepRow, submission: Submission = {}): void {
  if (step.completed_at !== null) return
  // The answers are checked before anything changes.
  if (step.form !== null) submitForm(ctx, record, step, submission.answers)
  const now = ctx.clock.timestamp()
  updateStep(ctx, record, step, { completed_at: now })
  if (step.document !== null) completeRecordDocument(ctx, record, step, submission.uploads)
  const check = step.check === null ? undefined : ctx.team.checks.get(step.check)
  if (!check) return
  const capture = submission.capture && check.type === 'photo_id' ? { capture: submission.capture } : {}
  ctx.team.checks.update(check, { status: 'submitted', submitted_at: now, updated_at: now, ...capture, outcome: outcomeFor(check, step, record.email, submission.outcome) })
  if (check.outcome === null) return
  const delay = (submission.delaySeconds ?? ctx.behaviour.checkDelaySeconds) * 1000
  ctx.scheduler.schedule(JOBS.checkResult, ctx.team.id, check.id, new Date(ctx.clock.nowMs() + delay))
}

/** Why the record's client can no longer complete a step (archived, expired, every step done), or undefined while they can. */
export function closedReason(record: RecordRow, now: string): string | undefined {
  if (record.archived_at !== null) return 'The record is archived: its client can no longer complete steps.'
  if (isExpired(record, now)) return 'The record has expired: its client can no longer complete steps.'
  if (!isOpen(record, now)) return 'Every step of the record is already complete.'
  return undefined
}

function assertOpen(ctx: TeamContext, record: RecordRow): void {
  const reason = closedReason(record, ctx.clock.timestamp())
  if (reason !== undefined) throw invalidBody(reason)
}

/**
 * What the control API's complete does: the client completes every open step at once, with an
 * outcome per step where one is forced. A record that is archived, expired or done is a 422.
 */
export function completeRecord(ctx: TeamContext, record: RecordRow, submissions: ReadonlyMap<number, Submission> = new Map()): void {
  assertOpen(ctx, record)
  for (const step of record.steps) submitStep(ctx, record, step, submissions.get(step.id))
  stopReminders(ctx, record)
  publishRecordUpdated(ctx, record)
}

/**
 * The client completes one step of an open record (the perform page), with what they gave; the
 * reminders stop once no step is left. A record that is archived, expired or done, or a step done
 * already, is a 422, and so are form answers that do not pass (formAnswerErrors).
 */
export function completeStep(ctx: TeamContext, record: RecordRow, step: StepRow, submission: Submission = {}): void {
  assertOpen(ctx, record)
  if (step.completed_at !== null) throw invalidBody('The step is already complete.')
  submitStep(ctx, record, step, submission)
  if (!isOpen(record, ctx.clock.timestamp())) stopReminders(ctx, record)
  publishRecordUpdated(ctx, record)
}

/** The check's result is back: its status follows the outcome, and it gets a response (kept as its recipe: responses.ts). */
function returnResult(ctx: TeamContext, check: CheckRow): void {
  const record = ctx.team.records.get(check.record)
  if (!record || check.status !== 'submitted' || check.outcome === null) return
  const at = ctx.clock.timestamp()
  let response: CheckResponseRecipe | null = check.response
  if (hasResponse(check.outcome)) {
    const recipe: Draft<CheckResponseRecipe> = { at, seed: ctx.random.int(0, 2 ** 31), dob: ctx.team.clients.get(record.client)?.dob ?? null }
    // The images the client took come back with a photo ID result (attachments and files of the client).
    if (check.type === 'photo_id') {
      const step = record.steps.find((row) => row.id === check.step)
      recipe.media = photoIdMedia(ctx, record, check, withCapture(step?.preferences ?? {}, check.capture))
    }
    response = recipe
  }
  ctx.team.checks.update(check, { status: OUTCOME_STATUS[check.outcome], response, updated_at: at })
  publishRecordUpdated(ctx, record)
}

/** Recorded on the record (no email leaves the mock), then the next one planned. */
function remind(ctx: TeamContext, record: RecordRow): void {
  if (!record.has_reminders || !isOpen(record, ctx.clock.timestamp())) return
  ctx.team.records.update(record, { emails: [...record.emails, { kind: 'reminder', sent_at: ctx.clock.timestamp() }] })
  ctx.scheduler.schedule(JOBS.reminder, ctx.team.id, record.id, new Date(ctx.clock.nowMs() + REMINDER_INTERVAL_MS))
}

function expire(ctx: TeamContext, record: RecordRow): void {
  if (!isExpired(record, ctx.clock.timestamp())) return
  stopReminders(ctx, record)
  settleFinished(ctx, record)
}

export function registerLifecycle(services: Services): void {
  /** A job's team, unless it was dropped since (its jobs then do nothing). */
  const inTeam = (work: (ctx: TeamContext, subject: number) => void) => (job: JobRow) => {
    const team = services.store.team(job.team)
    if (team) work(teamContext(services, team), job.subject)
  }
  services.scheduler.on(
    JOBS.checkResult,
    inTeam((ctx, id) => {
      const check = ctx.team.checks.get(id)
      if (check) returnResult(ctx, check)
    }),
  )
  services.scheduler.on(
    JOBS.reminder,
    inTeam((ctx, id) => {
      const record = ctx.team.records.get(id)
      if (record) remind(ctx, record)
    }),
  )
  services.scheduler.on(
    JOBS.expiry,
    inTeam((ctx, id) => {
      const record = ctx.team.records.get(id)
      if (record) expire(ctx, record)
    }),
  )
  // A deletion date that came while the mock was not running (before its clock started, e.g. a
  // seeded date between the seed's epoch and the start) is history: it is not announced late.
  const startedAt = services.clock.nowMs()
  const announceDeletion = inTeam((ctx, id) => {
    const client = ctx.team.clients.get(id)
    if (client && client.deletion_date !== null) deletionReminderDue(ctx, client)
  })
  services.scheduler.on(JOBS.deletionDue, (job) => {
    if (job.due >= startedAt) announceDeletion(job)
  })
  services.scheduler.on(
    JOBS.scan,
    inTeam((ctx, id) => {
      const attachment = ctx.team.attachments.get(id)
      if (attachment) finishScan(ctx, attachment)
    }),
  )
}
