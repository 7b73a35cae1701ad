import type { CheckJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { responseOf } from '../../lifecycle/responses.ts'
import type { FileSourcePresenter } from '../files/index.ts'
import { presentRecord, type CheckRow } from '../records/index.ts'
import { recordOf } from './service.ts'

/**
 * A check. record is the record id, or the record (its own expandables collapsed: expansion is one
 * level) with expand=record. response is null while there is none, true collapsed, the response of
 * the check's type with expand=response (FACTS.md "Lists, pagination, expansion").
 */
/** A check as the expanded source of a file (files/present.ts). */
export const checkAsFileSource: FileSourcePresenter = (ctx, source, baseUrl) => {
  const check = ctx.team.checks.get(source.id)
  return check && presentCheck(ctx, check, NO_EXPAND, baseUrl)
}

export function presentCheck(ctx: RequestContext, check: CheckRow, expand: Expand, baseUrl: string): CheckJson {
  return {
    object: 'check',
    id: check.id,
    type: check.type as CheckJson['type'],
    record: expand.has('record') ? presentRecord(ctx, recordOf(ctx, check), NO_EXPAND, baseUrl) : check.record,
    status: check.status,
    // The contract's check_response.<type>, made from the check's recipe (src/lifecycle/responses.ts).
    response: check.response === null ? null : expand.has('response') ? (responseOf(ctx.team, check) as CheckJson['response']) : true,
    allow_replay: check.allow_replay,
    allow_cancel: check.allow_cancel,
    requires_consent: check.requires_consent,
    created_at: check.created_at,
    updated_at: check.updated_at,
  }
}
