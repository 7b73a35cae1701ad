import type { RequestContext } from '../../context.ts'
import type { Expand } from '../../kernel/expand.ts'
import { presentUser } from '../me/index.ts'
import type { CreditRow } from './rows.ts'

/**
 * With expand=causer a user causer is the User object. Check causers (credit usage) appear
 * once records and checks are served, and expand to the Check object then.
 */
function presentCauser(ctx: RequestContext, causer: CreditRow['causer'], expand: Expand) {
  if (expand.has('causer') && causer.type === 'user') {
    const user = ctx.store.user(causer.id)
    if (user) return presentUser(user)
  }
  return { id: causer.id, type: causer.type }
}

export function presentCredit(ctx: RequestContext, row: CreditRow, expand: Expand) {
  return {
    object: 'credit_history' as const,
    id: row.id,
    credits: row.credits,
    reason: row.reason,
    created_at: row.created_at,
    causer: presentCauser(ctx, row.causer, expand),
  }
}
