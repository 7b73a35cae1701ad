import { visibleRow, type RequestContext } from '../../context.ts'
import type { RecordRow } from './rows.ts'

/** The caller's record: 404 Record not found, 403 for an assigned-only member not assigned to it. */
export function getRecord(ctx: RequestContext, id: number): RecordRow {
  return visibleRow(ctx, ctx.team.records, id, 'Record')
}

/** The record a path names ({id} or {recordId}), for an operation's find. */
export const findRecord = (ctx: RequestContext, params: { id: number } | { recordId: number }): RecordRow =>
  getRecord(ctx, 'id' in params ? params.id : params.recordId)
