import type { CheckJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { responseOf } from './responses.ts'
import type { FileSourcePresenter } from '../files/index.ts'
import { presentRecord } from '../records/index.ts'
import { type CheckRow } from './rows.ts'
import { recordOf } from './service.ts'

/** A check as the expanded source of a file (files/present.ts). */
export const checkAsFileSource: FileSourcePresenter = (ctx, source, baseUrl) => {
  const check = ctx.team.checks.get(source.id)
  return check && presentCheck(ctx, check, NO_EXPAND, baseUrl)
}

/**
 * A check. record is the record id, or the record (its own expandables collapsed: expansion is one
 * level) with expand=record. response is null while there is none, true collapsed, with
 * expand=response a photo ID's response or check_response.other (docs/specification-notes.md "Lists, pagination and expansion",
 * docs/specification-notes.md "Checks and responses").
 */
export function presentCheck(ctx: RequestContext, check: CheckRow, expand: Expand, baseUrl: string): CheckJson {
  return {
    object: 'check',
    id: check.id,
    type: check.type as CheckJson['type'],
    record: expand.has('record') ? presentRecord(ctx, recordOf(ctx, check), NO_EXPAND, baseUrl) : check.record,
    status: check.status,
    // check_response.photo_id made from the check's recipe, or check_response.other (src/resources/checks/responses.ts).
    response: check.response === null ? null : expand.has('response') ? responseOf(ctx.team, check) : true,
    allow_replay: check.allow_replay,
    allow_cancel: check.allow_cancel,
    requires_consent: check.requires_consent,
    created_at: check.created_at,
    updated_at: check.updated_at,
  }
}
