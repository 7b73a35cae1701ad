// Reviews of a record's steps (docs/specification-notes.md "Step reviews and record documents"): any review status may follow
// any other, on any step whatever its check's state ("none shown"); each review stores the step's
// status before it and who made it, and becomes the step's latest review.
import type { RequestContext } from '../../context.ts'
import type { StepReviewCreateJson } from '../../contracts/generated.ts'
import { notFound } from '../../kernel/errors.ts'
import { sortRows, type SortAccessors } from '../../kernel/sort.ts'
import type { Team } from '../../store/world.ts'
import { getRecord, publishRecordUpdated, updateStep, type RecordRow, type StepRow } from '../records/index.ts'
import { type StepReviewRow } from './rows.ts'

export interface RecordStep {
  record: RecordRow
  step: StepRow
}

/**
 * The record and step a path names ({recordId}, {stepId}): the record's 404 (or 403 for an
 * assigned-only member not assigned to it), then 404 Record step not found for a step that is
 * not one of that record's (docs/specification-notes.md "Status codes and bodies").
 */
export function findRecordStep(ctx: RequestContext, params: { recordId: number; stepId: number }): RecordStep {
  const record = getRecord(ctx, params.recordId)
  const step = record.steps.find((row) => row.id === params.stepId)
  if (!step) throw notFound('Record step')
  return { record, step }
}

/** The step's review status: its latest review's, pending when it was never reviewed. */
export function reviewStatusOf(team: Team, step: StepRow): StepReviewRow['status'] {
  return (step.review === null ? undefined : team.stepReviews.get(step.review))?.status ?? 'pending'
}

const sortAccessors: SortAccessors<StepReviewRow> = {
  created_at: (review) => review.created_at,
  updated_at: (review) => review.updated_at,
}

export function listStepReviews(ctx: RequestContext, step: StepRow, query: { sort_by?: string; order_by?: 'asc' | 'desc' }): StepReviewRow[] {
  return sortRows(ctx.team.reviewsByStep.get(step.id), sortAccessors, query)
}

/** The caller reviews the step: it becomes the step's review, and the record changes (record.updated). */
export function reviewStep(ctx: RequestContext, { record, step }: RecordStep, input: StepReviewCreateJson): StepReviewRow {
  const now = ctx.clock.timestamp()
  const review = ctx.team.stepReviews.insert({
    id: ctx.store.nextId('step_review'),
    record: record.id,
    step: step.id,
    reviewed_by: ctx.user.id,
    status: input.status,
    from_status: reviewStatusOf(ctx.team, step),
    message: input.message ?? null,
    created_at: now,
    updated_at: now,
  })
  updateStep(ctx, record, step, { review: review.id })
  publishRecordUpdated(ctx, record)
  return review
}
