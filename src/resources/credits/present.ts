import type { CreditHistoryJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { presentCheck } from '../checks/index.ts'
import type { CreditRow } from './rows.ts'

/**
 * causer is {id, type}, or null when the service made the entry. With expand=causer only a check
 * causer expands, to the Check (docs/specification-notes.md "Credits"), its own record and response collapsed
 * (expansion is one level); a user causer stays {id, type}, and so does a check that no longer
 * exists (its client was deleted).
 */
export function presentCredit(ctx: RequestContext, row: CreditRow, expand: Expand, baseUrl: string): CreditHistoryJson {
  const check = row.causer?.type === 'check' && expand.has('causer') ? ctx.team.checks.get(row.causer.id) : undefined
  return {
    object: 'credit_history',
    id: row.id,
    credits: row.credits,
    reason: row.reason,
    created_at: row.created_at,
    causer: check ? presentCheck(ctx, check, NO_EXPAND, baseUrl) : row.causer && { id: row.causer.id, type: row.causer.type },
  }
}
