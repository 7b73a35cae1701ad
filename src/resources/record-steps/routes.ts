// GET /records/{id}/steps: a record's steps with their check, document and review expandable.
// Its own folder, because it joins records, checks, record documents and step reviews, each of
// which already depends on records.
import type { AppRoutes, RequestContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentCheck } from '../checks/index.ts'
import { presentForm } from '../forms/index.ts'
import { presentRecordDocument } from '../record-documents/index.ts'
import { findRecord, presentStep, type StepRow } from '../records/index.ts'
import { presentStepReview } from '../step-reviews/index.ts'

/** A step with what expand names as full objects, one level deep (a form is a form, not a client_form). */
function presentExpandedStep(ctx: RequestContext, step: StepRow, expand: Expand, baseUrl: string) {
  const check = expand.has('check') && step.check !== null ? ctx.team.checks.get(step.check) : undefined
  const document = expand.has('document') && step.document !== null ? ctx.team.recordDocuments.get(step.document) : undefined
  const review = expand.has('review') && step.review !== null ? ctx.team.stepReviews.get(step.review) : undefined
  const form = expand.has('form') && step.form !== null ? ctx.team.formsByReference.get(step.form) : undefined
  return {
    ...presentStep(step),
    ...(check && { check: presentCheck(ctx, check, NO_EXPAND, baseUrl) }),
    ...(document && { document: presentRecordDocument(ctx, document, NO_EXPAND) }),
    ...(review !== undefined && { review: presentStepReview(ctx, review, NO_EXPAND) }),
    ...(form && { form: presentForm(form, 'form') }),
  }
}

export function recordStepsRoutes(routes: AppRoutes): void {
  routes.handle('records.steps.list', { find: findRecord }, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(found.steps, query, url, (step) => presentExpandedStep(ctx, step, expand, baseUrl)),
  )
}
