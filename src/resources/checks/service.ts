import { canSee, type RequestContext } from '../../context.ts'
import { forbidden, NOT_ASSIGNED, notFound } from '../../kernel/errors.ts'
import type { RecordRow } from '../records/index.ts'
import type { CheckRow } from './rows.ts'

/** The record a check belongs to (every check has one: checks are made with their record's steps). */
export function recordOf(ctx: RequestContext, check: CheckRow): RecordRow {
  const record = ctx.team.records.get(check.record)
  if (!record) throw new Error(`check ${check.id}: no record ${check.record}`)
  return record
}

/**
 * The caller's check: 404 Check not found when the team has none (another team's id included), 403
 * for an assigned-only member not assigned to its record (docs/specification-notes.md "Roles": a check is seen through
 * its record).
 */
export function getCheck(ctx: RequestContext, id: number): CheckRow {
  const check = ctx.team.checks.get(id)
  if (!check) throw notFound('Check')
  if (!canSee(ctx, recordOf(ctx, check))) throw forbidden(NOT_ASSIGNED)
  return check
}

/** The check a path names, for an operation's find. */
export const findCheck = (ctx: RequestContext, params: { id: number }): CheckRow => getCheck(ctx, params.id)
