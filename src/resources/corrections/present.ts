import type { ClientCorrectionJson } from '../../contracts/generated.ts'
import type { RequestContext, TeamContext } from '../../context.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { presentClient } from '../clients/index.ts'
import { presentRecord } from '../records/index.ts'
import { type CorrectionRow } from './rows.ts'

/**
 * client and record are ids; the client and the record (its own expandables collapsed) when
 * expanded. ctx: the caller's (the control API has none, and never expands).
 */
export function presentCorrection(ctx: RequestContext | TeamContext, correction: CorrectionRow, expand: Expand, baseUrl: string): ClientCorrectionJson {
  const client = expand.has('client') && 'member' in ctx ? ctx.team.clients.get(correction.client) : undefined
  const record = expand.has('record') ? ctx.team.records.get(correction.record) : undefined
  return {
    object: 'client_correction' as const,
    id: correction.id,
    client: client ? presentClient(ctx as RequestContext, client) : correction.client,
    record: record ? presentRecord(ctx, record, NO_EXPAND, baseUrl) : correction.record,
    status: correction.status,
    correction: { ...correction.correction },
    created_at: correction.created_at,
    updated_at: correction.updated_at,
  }
}
