// GET and POST /records/{recordId}/steps/{stepId}/reviews.
import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentStepReview } from './present.ts'
import { findRecordStep, listStepReviews, reviewStep } from './service.ts'

const recordStep = { find: findRecordStep }

export function stepReviewsRoutes(routes: AppRoutes): void {
  routes.handle('records.steps.reviews.list', recordStep, ({ ctx, found, query, expand, url }) =>
    paginate(listStepReviews(ctx, found.step, query), query, url, (review) => presentStepReview(ctx, review, expand)),
  )

  routes.handle('records.steps.reviews.create', recordStep, ({ ctx, found, body, expand }) => presentStepReview(ctx, reviewStep(ctx, found, body), expand))
}
