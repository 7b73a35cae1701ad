import { canSee, visibleRow, type RequestContext, type TeamContext } from '../../context.ts'
import type { RecordsListQuery, RecordUpdateJson } from '../../contracts/generated.ts'
import { toTimestamp } from '../../kernel/clock.ts'
import { assertValid, everyKeyPassed, invalidBody, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { inListOrder, type ListedRows } from '../../kernel/pagination.ts'
import { sortRows, type SortAccessors, type SortKey } from '../../kernel/sort.ts'
import { hasVisibility } from '../../kernel/visibility.ts'
import { scheduleExpiry, scheduleReminders, stopReminders } from './jobs.ts'
import { publishRecord, publishRecordUpdated } from './events.ts'
import type { Store, Team } from '../../store/world.ts'
import { applyChange, type RowChange } from '../../store/table.ts'
import type { RecordRow, StepRow } from './rows.ts'
import { isExpired, recordStatus } from './status.ts'

const DAY = 86_400_000

/** The caller's record: 404 Record not found, 403 for an assigned-only member not assigned to it. */
export function getRecord(ctx: RequestContext, id: number): RecordRow {
  return visibleRow(ctx, ctx.team.records, id, 'Record')
}

/** The record a path names ({id} or {recordId}), for an operation's find. */
export const findRecord = (ctx: RequestContext, params: { id: number } | { recordId: number }): RecordRow =>
  getRecord(ctx, 'id' in params ? params.id : params.recordId)

/**
 * The record whose perform_url carries this secret, with its team: what the client's perform page
 * opens. Tokens are unique per team and random, so the first team that has it is the one.
 */
export function performedRecord(store: Store, token: string): { team: Team; record: RecordRow } | undefined {
  for (const team of store.allTeams()) {
    const record = team.recordsByPerformToken.get(token)
    if (record) return { team, record }
  }
  return undefined
}

/** Sorting by the client's name uses the client's current name (the record keeps a snapshot). */
function sortAccessors(ctx: RequestContext): SortAccessors<RecordRow, SortKey<RecordsListQuery>> {
  const clientName = (record: RecordRow) => ctx.team.clients.get(record.client)?.name ?? record.name
  return {
    'client.name.first_name': (record) => clientName(record).first_name,
    'client.name.last_name': (record) => clientName(record).last_name,
    created_at: (record) => record.created_at,
    updated_at: (record) => record.updated_at,
    archived_at: (record) => record.archived_at,
  }
}

/**
 * rows: the records to list (a client's); all the team's by default, where every filter reads an
 * index (docs/architecture.md "List indexes") and, sorted by created_at, keeps its order instead of sorting.
 */
export function listRecords(ctx: RequestContext, query: RecordsListQuery, rows?: readonly RecordRow[]): ListedRows<RecordRow> {
  const { status, visibility, assignee, client_visibility: clientVisibility } = query
  // created_by replaces the deprecated creator; when both are given, created_by wins.
  const createdBy = query.created_by ?? query.creator
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  const now = ctx.clock.timestamp()
  const wanted = (record: RecordRow) =>
    (!onlyAssigned || canSee(ctx, record)) &&
    hasVisibility(visibility, record.archived_at) &&
    (createdBy === undefined || record.created_by === createdBy) &&
    (assignee === undefined ||
      (typeof assignee === 'boolean' ? record.assignees.length > 0 === assignee : record.assignees.some((row) => row.user === assignee))) &&
    (clientVisibility === undefined || hasVisibility(clientVisibility, ctx.team.clients.get(record.client)?.archived_at))
  const passes = (record: RecordRow) => wanted(record) && (status === undefined || recordStatus(ctx.team, record, now) === status)
  const sorted = (records: readonly RecordRow[], inCreationOrder: boolean) =>
    query.sort_by === 'created_at' && inCreationOrder ? inListOrder(records, query.order_by) : sortRows(records, sortAccessors(ctx), query)
  // Stored in creation order (as the table mostly is), a client's records (a group keeps the
  // table's order) and the index parts below keep it when filtered: sort_by=created_at is then the rows as they are.
  const stored = ctx.team.recordsInCreationOrder.holds
  if (rows !== undefined) return sorted(status === undefined && !onlyAssigned && visibility === undefined && createdBy === undefined && assignee === undefined && clientVisibility === undefined ? rows : rows.filter(passes), stored)
  // Every record that can pass is in the index part of each filter given, which keeps creation
  // order (the status's where every created_at has the mock's one shape, the others where the
  // table's rows are stored in it): the shortest part, as it is when it is the only filter, else
  // its records that pass.
  const parts: Array<{ records: readonly RecordRow[]; inOrder: boolean; status?: true }> = []
  if (status !== undefined) parts.push({ records: ctx.team.recordsByStatus.withStatus(ctx.team, status, now), inOrder: ctx.team.recordsByStatus.inCreationOrder, status: true })
  if (visibility !== undefined) parts.push({ records: ctx.team.recordsByVisibility.get(visibility), inOrder: stored })
  if (createdBy !== undefined) parts.push({ records: ctx.team.recordsByCreator.get(createdBy), inOrder: stored })
  if (typeof assignee === 'number') parts.push({ records: ctx.team.recordsByAssignee.get(assignee), inOrder: stored })
  if (typeof assignee === 'boolean') parts.push({ records: ctx.team.recordsByHavingAssignees.get(assignee), inOrder: stored })
  if (clientVisibility !== undefined) parts.push({ records: ctx.team.recordsByClientVisibility.get(clientVisibility), inOrder: stored })
  if (onlyAssigned) parts.push({ records: ctx.team.recordsByAssignee.get(ctx.user.id), inOrder: stored })
  if (parts.length === 0) return sorted(ctx.team.records.all(), stored)
  const part = parts.reduce((shortest, next) => (next.records.length < shortest.records.length ? next : shortest))
  if (parts.length === 1) return sorted(part.records, part.inOrder)
  // The status's own records need no status derived again.
  return sorted(part.records.filter(part.status ? wanted : passes), part.inOrder)
}

/** docs/specification-notes.md "Records and steps": an expired_at date-time lies within 10 days from now. */
const EXPIRY_WINDOW_DAYS = 10

/** PATCH /records/{id} beyond its contract: an expired_at date-time within the window, merged by the gate with the schema's errors. */
export function recordUpdateErrors(ctx: TeamContext, input: RecordUpdateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  const value = input.expired_at
  if (typeof value !== 'string' || !passed('expired_at')) return {}
  const now = ctx.clock.nowMs()
  const moment = Date.parse(value)
  const latest = now + EXPIRY_WINDOW_DAYS * DAY
  if (moment < now) return { expired_at: [`The expired at field must be a date after or equal to ${toTimestamp(new Date(now))}.`] }
  if (moment > latest) return { expired_at: [`The expired at field must be a date before or equal to ${toTimestamp(new Date(latest))}.`] }
  return {}
}

function expiryFrom(ctx: TeamContext, value: string | boolean): string {
  const now = ctx.clock.nowMs()
  if (value === true) return toTimestamp(new Date(now))
  if (value === false) return toTimestamp(new Date(now + ctx.behaviour.recordExpiryDays * DAY))
  return toTimestamp(new Date(Date.parse(value)))
}

/** Changes one of a record's steps (a record keeps its steps in its own row): the record's updated_at moves. */
export function updateStep(ctx: TeamContext, record: RecordRow, step: StepRow, change: RowChange<StepRow>): StepRow {
  if (!record.steps.includes(step)) throw new Error(`record ${record.id}: step ${step.id} is not one of its steps`)
  ctx.team.records.update(record, (draft) => {
    applyChange(step, change)
    draft.updated_at = ctx.clock.timestamp()
  })
  return step
}

/** Moves the expiry (and its job); reminders stop once the record has expired. */
export function setExpiry(ctx: TeamContext, record: RecordRow, expiredAt: string): void {
  ctx.team.records.update(record, { expired_at: expiredAt })
  scheduleExpiry(ctx, record)
  if (isExpired(record, ctx.clock.timestamp())) stopReminders(ctx, record)
  else if (record.has_reminders) scheduleReminders(ctx, record)
}

/**
 * PATCH /records/{id}. Each change publishes record.updated once; is_reviewed also
 * record.reviewed / record.unreviewed, and an expiry record.finished when steps were left.
 */
export function updateRecord(ctx: RequestContext, record: RecordRow, input: RecordUpdateJson): RecordRow {
  const now = ctx.clock.timestamp()
  assertValid(recordUpdateErrors(ctx, input))
  const expiredAt = input.expired_at === undefined ? undefined : expiryFrom(ctx, input.expired_at)
  let changed = false
  let review: 'record.reviewed' | 'record.unreviewed' | undefined
  if (input.is_archived !== undefined && input.is_archived !== (record.archived_at !== null)) {
    ctx.team.records.update(record, { archived_at: input.is_archived ? now : null })
    if (input.is_archived) stopReminders(ctx, record)
    else if (record.has_reminders) scheduleReminders(ctx, record)
    changed = true
  }
  if (input.is_reviewed !== undefined && input.is_reviewed !== (record.reviewed_at !== null)) {
    ctx.team.records.update(record, { reviewed_at: input.is_reviewed ? now : null })
    review = input.is_reviewed ? 'record.reviewed' : 'record.unreviewed'
    changed = true
  }
  if (input.has_reminders !== undefined && input.has_reminders !== record.has_reminders) {
    ctx.team.records.update(record, { has_reminders: input.has_reminders })
    if (input.has_reminders) scheduleReminders(ctx, record)
    else stopReminders(ctx, record)
    changed = true
  }
  if (expiredAt !== undefined && expiredAt !== record.expired_at) {
    setExpiry(ctx, record, expiredAt)
    changed = true
  }
  if (changed) {
    ctx.team.records.update(record, { updated_at: now })
    publishRecordUpdated(ctx, record)
  }
  if (review) publishRecord(ctx, review, record)
  return record
}

/** Deprecated POST /records/{id}/archive: archiving an archived record changes nothing. */
export function archiveRecord(ctx: RequestContext, record: RecordRow): RecordRow {
  return record.archived_at === null ? updateRecord(ctx, record, { is_archived: true }) : record
}

/** POST /records/{id}/expire: expired_at becomes now; a record already expired is a 422. */
export function expireRecord(ctx: RequestContext, record: RecordRow): RecordRow {
  if (isExpired(record, ctx.clock.timestamp())) throw invalidBody('The record has already expired.')
  setExpiry(ctx, record, ctx.clock.timestamp())
  ctx.team.records.update(record, { updated_at: ctx.clock.timestamp() })
  publishRecordUpdated(ctx, record)
  return record
}
