// What the record PDF (GET /records/{id}/download) says, as a list of blocks: the team, the
// client's name and email as the record snapshotted them, reference, status, dates, and each step
// with its check and latest review. Pure (state and clock in, blocks out); pdf.ts draws them.
import type { RequestContext } from '../../context.ts'
import { presentName } from '../clients/index.ts'
import { recordStatus, type RecordRow, type StepRow } from '../records/index.ts'
import { hasResponse, photoIdResult, type CheckRow } from '../checks/index.ts'
import { type StepReviewRow } from '../step-reviews/index.ts'

export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'subtitle'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'step'; text: string }
  | { kind: 'field'; label: string; value: string }
  | { kind: 'note'; text: string }
  /** A form's question, kept with its answer (a text block). */
  | { kind: 'question'; text: string }
  | { kind: 'text'; text: string }

/** What an empty value reads as. */
export const NONE = '-'

const field = (label: string, value: string | number | null): Block => ({ kind: 'field', label, value: value === null ? NONE : String(value) })

function userName(ctx: RequestContext, id: number | null): string | null {
  if (id === null) return null
  return ctx.store.user(id)?.name ?? `user ${id}`
}

/** The step's latest review: the one the step names, else the newest of its reviews. */
function latestReview(ctx: RequestContext, step: StepRow): StepReviewRow | undefined {
  const named = step.review === null ? undefined : ctx.team.stepReviews.get(step.review)
  if (named) return named
  const reviews = ctx.team.reviewsByStep.get(step.id)
  return reviews.reduce<StepReviewRow | undefined>((latest, review) => (latest === undefined || review.created_at >= latest.created_at ? review : latest), undefined)
}

/** The check's status and, for a photo ID check with a response, the result it states: the API shows no other check's result (docs/specification-notes.md "Checks and responses"). */
function checkLine(check: CheckRow): string {
  const { outcome } = check
  const result = check.type === 'photo_id' && check.response !== null && outcome !== null && hasResponse(outcome) ? `, result ${photoIdResult(outcome)}` : ''
  return `${check.status}${result} (check ${check.id})`
}

function stepBlocks(ctx: RequestContext, step: StepRow, position: number): Block[] {
  const blocks: Block[] = [
    { kind: 'step', text: `${position}. ${step.type} (step ${step.id})` },
    field('Cost', `${step.cost} ${step.cost === 1 ? 'credit' : 'credits'}`),
    field('Completed at', step.completed_at ?? 'not completed'),
  ]
  if (step.type.startsWith('check.')) {
    const check = step.check === null ? undefined : ctx.team.checks.get(step.check)
    blocks.push(field('Check', check ? checkLine(check) : null))
  }
  const review = latestReview(ctx, step)
  if (review) {
    blocks.push(field('Review', `${review.status} by ${userName(ctx, review.reviewed_by)} at ${review.created_at}`))
    if (review.message !== null) blocks.push(field('Review message', review.message))
  } else {
    blocks.push(field('Review', 'not reviewed'))
  }
  return blocks
}

function declaration(record: RecordRow): string {
  if (!record.is_declaration_required) return 'not required'
  return record.declaration_confirmed_at === null ? 'required, not confirmed' : `confirmed at ${record.declaration_confirmed_at}`
}

export function recordSummary(ctx: RequestContext, record: RecordRow): Block[] {
  const now = ctx.clock.timestamp()
  const name = presentName(record.name)
  const blocks: Block[] = [
    { kind: 'title', text: `Record ${record.id}` },
    { kind: 'subtitle', text: `${ctx.team.row.name}, as of ${now}` },
    { kind: 'heading', text: 'Client' },
    field('Name', name.complete_name),
    field('Email', record.email),
    field('Client id', record.client),
    { kind: 'heading', text: 'Record' },
    field('Team', ctx.team.row.name),
    field('Reference', record.reference),
    field('Status', recordStatus(ctx.team, record, now)),
    field('Created by', userName(ctx, record.created_by)),
    field('Created at', record.created_at),
    field(record.expired_at <= now ? 'Expired at' : 'Expires at', record.expired_at),
    field('Archived at', record.archived_at ?? 'not archived'),
    field('Declaration', declaration(record)),
    { kind: 'heading', text: `Steps (${record.steps.length})` },
  ]
  if (record.steps.length === 0) blocks.push({ kind: 'note', text: 'This record has no steps.' })
  record.steps.forEach((step, index) => blocks.push(...stepBlocks(ctx, step, index + 1)))
  return blocks
}
