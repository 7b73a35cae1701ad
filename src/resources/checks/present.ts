import type { CheckJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { presentRecord, type CheckRow } from '../records/index.ts'
import { recordOf } from './service.ts'

/**
 * A check. record is the record id, or the record (its own expandables collapsed: expansion is one
 * level) with expand=record. response is null while there is none, true collapsed, the response of
 * the check's type with expand=response (FACTS.md "Lists, pagination, expansion").
 */
export function presentCheck(ctx: RequestContext, check: CheckRow, expand: Expand, baseUrl: string): CheckJson {
  return {
    object: 'check',
    id: check.id,
    type: check.type as CheckJson['type'],
    record: expand.has('record') ? presentRecord(ctx, recordOf(ctx, check), NO_EXPAND, baseUrl) : check.record,
    status: check.status,
    // Stored as the contract's check_response.<type> (src/lifecycle/responses.ts).
    response: check.response === null ? null : expand.has('response') ? (check.response as unknown as CheckJson['response']) : true,
    allow_replay: check.allow_replay,
    allow_cancel: check.allow_cancel,
    requires_consent: check.requires_consent,
    created_at: check.created_at,
    updated_at: check.updated_at,
  }
}
