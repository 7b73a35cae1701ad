// The events a record publishes when it changes (docs/specification-notes.md "Events"), in one place for the API,
// the lifecycle engine and the control API alike.
import { emit, type TeamContext } from '../../context.ts'
import type { RecordRow } from './rows.ts'
import { isFinished } from './status.ts'

export function publishRecord(ctx: TeamContext, type: string, record: RecordRow): void {
  emit(ctx, type, { record: record.id, client: record.client })
}

/**
 * The record or what it is made of changed (its status and updated_at have followed by themselves:
 * records/tables.ts): record.updated is published, and record.finished once when it reaches an end
 * (again only after it was reopened, e.g. by a later expiry).
 */
export function publishRecordUpdated(ctx: TeamContext, record: RecordRow): void {
  publishRecord(ctx, 'record.updated', record)
  settleFinished(ctx, record)
}

/** Publishes record.finished when the record has just reached an end; forgets it when reopened. */
export function settleFinished(ctx: TeamContext, record: RecordRow): void {
  const now = ctx.clock.timestamp()
  const finished = isFinished(ctx.team, record, now)
  if (finished && record.finished_at === null) {
    ctx.team.records.update(record, { finished_at: now })
    publishRecord(ctx, 'record.finished', record)
  } else if (!finished && record.finished_at !== null) {
    ctx.team.records.update(record, { finished_at: null })
  }
}
