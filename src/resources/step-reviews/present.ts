import type { StepReviewJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import type { Expand } from '../../kernel/expand.ts'
import type { StepReviewRow } from './rows.ts'
import { memberOf, presentMember } from '../team/index.ts'

/** The reviewer as a team member: one who has left the team still shows, with role null. */
function reviewer(ctx: RequestContext, userId: number) {
  const found = memberOf(ctx, userId)
  if (!found) throw new Error(`step review: user ${userId} was never in team ${ctx.team.id}`)
  return presentMember(found.member, found.user)
}

/** reviewed_by is the user id; the reviewer as a team member with expand=reviewed_by. */
export function presentStepReview(ctx: RequestContext, review: StepReviewRow, expand: Expand): StepReviewJson {
  return {
    object: 'step_review' as const,
    id: review.id,
    reviewed_by: expand.has('reviewed_by') ? reviewer(ctx, review.reviewed_by) : review.reviewed_by,
    status: review.status,
    from_status: review.from_status,
    message: review.message,
    created_at: review.created_at,
    updated_at: review.updated_at,
  }
}
