// The records by status. A status is derived (status.ts), never stored, so the index keeps each
// record's status as last derived, in one bucket per status ordered by creation, and derives it
// again for the records marked stale since: a record inserted, or changed where its status can
// move (Table.update of the record, or of a check or correction it is made of: records/tables.ts). The clock moves status
// too: a record with steps left becomes incomplete or empty when it expires, so those records
// wait in a queue by expiry and go stale when the clock passes it. A clock set back (a snapshot's
// moment, a restore) can undo an expiry: then every status is derived again. Built at the first
// list by status, then kept in step; never persisted (a team opened again starts without it).
import type { RecordStatusJson } from '../../contracts/generated.ts'
import { isWireTimestamp } from '../../kernel/clock.ts'
import { MinHeap } from '../../kernel/heap.ts'
import { placeIn, type RowIndex } from '../../store/table.ts'
import type { Team } from '../../store/world.ts'
import type { RecordRow } from './rows.ts'
import { isExpired, recordStatus } from './status.ts'

/** Creation order: created_at, then id (what sort_by=created_at gives for the mock's timestamps). */
export function createdBefore(a: RecordRow, b: RecordRow): boolean {
  return a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)
}

/** Whether a comes before b in sort_by=created_at's order, known without the sort's collation: both in the mock's own shape. */
export function surelyCreatedBefore(a: RecordRow, b: RecordRow): boolean {
  return isWireTimestamp(a.created_at) && isWireTimestamp(b.created_at) && createdBefore(a, b)
}

/** Where a record goes in rows kept in creation order. */
const placeOf = (rows: readonly RecordRow[], record: RecordRow): number => placeIn(rows, record, createdBefore)

export class RecordStatusIndex implements RowIndex<RecordRow> {
  private readonly statusOf = new Map<RecordRow, RecordStatusJson>()
  private readonly buckets = new Map<RecordStatusJson, RecordRow[]>()
  private readonly stale = new Set<RecordRow>()
  /** Records by expiry moment, soonest first. */
  private readonly expiring = new MinHeap<{ at: string; record: RecordRow }>((a, b) => a.at < b.at)
  /** The expiry each record waits in the queue for (older entries of a record are skipped). */
  private readonly queuedExpiry = new Map<RecordRow, string>()
  /** The clock's moment when statuses were last derived; undefined until the first list by status. */
  private derivedAt: string | undefined
  /** Records whose created_at is not in the mock's own shape: while there are any, lists sort as usual. */
  private oddTimestamps = 0

  constructor(private readonly rows: readonly RecordRow[]) {}

  add(record: RecordRow): void {
    if (this.derivedAt !== undefined) this.stale.add(record)
  }

  remove(record: RecordRow): void {
    this.stale.delete(record)
    this.queuedExpiry.delete(record)
    const status = this.statusOf.get(record)
    if (status === undefined) return
    this.statusOf.delete(record)
    this.takeOut(status, record)
  }

  update(record: RecordRow): void {
    if (this.derivedAt !== undefined) this.stale.add(record)
  }

  /** Whether withStatus's order is sort_by=created_at's (every created_at in the mock's own shape). */
  get inCreationOrder(): boolean {
    return this.oddTimestamps === 0
  }

  /** The records whose status is `status` at `now`, oldest first (read-only). */
  withStatus(team: Team, status: RecordStatusJson, now: string): readonly RecordRow[] {
    this.refresh(team, now)
    return this.buckets.get(status) ?? []
  }

  private refresh(team: Team, now: string): void {
    if (this.derivedAt === undefined || now < this.derivedAt) {
      this.rebuild(team, now)
      return
    }
    this.derivedAt = now
    for (let next = this.expiring.peek(); next !== undefined && next.at <= now; next = this.expiring.peek()) {
      this.expiring.pop()
      if (this.queuedExpiry.get(next.record) !== next.at) continue
      this.queuedExpiry.delete(next.record)
      this.stale.add(next.record)
    }
    for (const record of this.stale) {
      const status = recordStatus(team, record, now)
      const before = this.statusOf.get(record)
      if (status !== before) {
        if (before !== undefined) this.takeOut(before, record)
        this.statusOf.set(record, status)
        this.putIn(status, record)
      }
      this.awaitExpiry(record, now)
    }
    this.stale.clear()
  }

  private rebuild(team: Team, now: string): void {
    this.derivedAt = now
    this.statusOf.clear()
    this.buckets.clear()
    this.stale.clear()
    this.expiring.drain()
    this.queuedExpiry.clear()
    this.oddTimestamps = 0
    for (const record of this.rows) {
      const status = recordStatus(team, record, now)
      this.statusOf.set(record, status)
      const bucket = this.buckets.get(status)
      if (bucket) bucket.push(record)
      else this.buckets.set(status, [record])
      if (!isWireTimestamp(record.created_at)) this.oddTimestamps++
      this.awaitExpiry(record, now)
    }
    for (const bucket of this.buckets.values()) bucket.sort((a, b) => (createdBefore(a, b) ? -1 : createdBefore(b, a) ? 1 : 0))
  }

  /** A record with steps left that has not expired yet changes status when it does. */
  private awaitExpiry(record: RecordRow, now: string): void {
    const waits = !isExpired(record, now) && record.steps.some((step) => step.completed_at === null)
    if (!waits) {
      this.queuedExpiry.delete(record)
      return
    }
    if (this.queuedExpiry.get(record) === record.expired_at) return
    this.queuedExpiry.set(record, record.expired_at)
    this.expiring.push({ at: record.expired_at, record })
  }

  private putIn(status: RecordStatusJson, record: RecordRow): void {
    let bucket = this.buckets.get(status)
    if (!bucket) this.buckets.set(status, (bucket = []))
    bucket.splice(placeOf(bucket, record), 0, record)
    if (!isWireTimestamp(record.created_at)) this.oddTimestamps++
  }

  private takeOut(status: RecordStatusJson, record: RecordRow): void {
    const bucket = this.buckets.get(status) as RecordRow[]
    let index = placeOf(bucket, record)
    if (bucket[index] !== record) index = bucket.indexOf(record)
    bucket.splice(index, 1)
    if (!isWireTimestamp(record.created_at)) this.oddTimestamps--
  }
}
