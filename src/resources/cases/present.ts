import type { RequestContext, TeamContext } from '../../context.ts'
import type { CaseItemJson, CaseJson, CaseReviewJson } from '../../contracts/generated.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { presentAssigneesRelation } from '../assignees/index.ts'
import { presentClient } from '../clients/index.ts'
import { presentRecord } from '../records/index.ts'
import { memberOf, presentMember } from '../team/index.ts'
import type { CaseItemRow, CaseReviewRow, CaseRow } from './rows.ts'

/** docs/specification-notes.md "Wire details": an expanded assignees relation of a case is a list object of its first 10. */
const ASSIGNEES_LIMIT = 10

/** A case item; with expand=entity the record, one level (its own expandables stay collapsed). */
export function presentCaseItem(ctx: RequestContext | TeamContext, item: CaseItemRow, expand: Expand, baseUrl: string): CaseItemJson {
  const record = expand.has('entity') ? ctx.team.records.get(item.record) : undefined
  return {
    object: 'case_item' as const,
    id: item.id,
    entity: record ? presentRecord(ctx, record, NO_EXPAND, baseUrl) : { id: item.record, type: 'record' as const },
    created_at: item.created_at,
    updated_at: item.updated_at,
  }
}

/**
 * A case. ctx: the caller's (the control API has none, and never expands the client). items and
 * assignees are null when empty, expanded or not; expanded items keep their entity collapsed.
 */
export function presentCase(ctx: RequestContext | TeamContext, row: CaseRow, expand: Expand, baseUrl: string): CaseJson {
  const client = expand.has('client') && 'member' in ctx ? ctx.team.clients.get(row.client) : undefined
  return {
    object: 'case' as const,
    id: row.id,
    name: row.name,
    reference: row.reference,
    status: row.status,
    client: client ? presentClient(ctx as RequestContext, client) : row.client,
    // Never an empty array: null when the case has no items.
    items: (row.items.length === 0
        ? null
        : expand.has('items')
          ? row.items.map((item) => presentCaseItem(ctx, item, NO_EXPAND, baseUrl))
          : row.items.map((item) => item.id)) as CaseJson['items'],
    assignees: presentAssigneesRelation(ctx, row.assignees, expand.has('assignees'), { limit: ASSIGNEES_LIMIT, url: `${baseUrl}/cases/${row.id}/assignees` }),
    created_at: row.created_at,
    updated_at: row.updated_at,
    archived_at: row.archived_at,
  }
}

/** A case review; with expand=reviewed_by the reviewer as a team member (role null once they left). */
export function presentCaseReview(ctx: RequestContext | TeamContext, review: CaseReviewRow, expand: Expand): CaseReviewJson {
  const reviewer = expand.has('reviewed_by') ? memberOf(ctx, review.reviewed_by) : undefined
  return {
    object: 'case_review' as const,
    id: review.id,
    reviewed_by: reviewer ? presentMember(reviewer.member, reviewer.user) : review.reviewed_by,
    status: review.status,
    from_status: review.from_status,
    created_at: review.created_at,
    updated_at: review.updated_at,
  }
}
