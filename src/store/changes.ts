// What changed in the world, for the change log of --data (src/store/persistence.ts). A row changes
// only through its table's update (or the store's own update methods for users, tokens, members
// and the team's row), which marks it touched in the open write unit (a request that may write, a
// run of due jobs, a webhook attempt settling); a touched row is written whole when the unit
// commits. Inserts, deletes and whole-team changes also decide where rows sit in their arrays, so
// they go into one ordered list shared by all units, in the order they happened, and every commit
// writes that list first: replayed in that order they put every row back in its place.
//
// Units are told apart with AsyncLocalStorage, so a change a request makes after it awaited its
// body is still that request's. Without --data nothing records: `recording.on` stays false.
import { AsyncLocalStorage } from 'node:async_hooks'

/** Where rows live: `<team>/<key>` for a team's state (its `team` row, `members`, each table), else a path in the world (`users`, `oauth.codes`). */
export type Place = string

export type RowKey = number | string

/** One change, as the log keeps it (JSON). */
export type Change =
  /** A row added at the end of its array (jobs: in due order). */
  | ['i', Place, unknown]
  /** A row's new content (it stays where it is); nothing when no row has its key any more. */
  | ['p', Place, unknown]
  /** A row removed. */
  | ['d', Place, RowKey]
  /** Rows added at the end of their array, in bulk (a team's rows after its 't'; a data file's rows). */
  | ['a', Place, unknown[]]
  /** A team added, or put in another's place (a snapshot restored): its state without rows, as JSON text taken when it happened ('a' changes bring the rows). */
  | ['t', string]
  /** A team removed (what goes with it is logged as deletes). */
  | ['x', number]
  /** A team's jobs replaced (a snapshot restored). */
  | ['j', number, unknown[]]
  /** Id sequences' new values. */
  | ['s', Record<string, number>]

/** The field that tells a place's rows apart. */
export function keyField(place: Place): string {
  const name = place.slice(place.lastIndexOf('/') + 1)
  return name === 'members' ? 'user' : name === 'tokens' ? 'token' : name === 'baselines' ? 'team' : 'id'
}

/** The key of a row at a place. */
function keyOf(row: object, place: Place): RowKey {
  return (row as Record<string, unknown>)[keyField(place)] as RowKey
}

/** The rows of one world (one data file) that are recorded, and the ordered changes not yet committed. */
export class ChangeSink {
  /** Inserts, deletes and team changes of every unit, in the order they happened (rows serialised at commit). */
  ordered: Array<{ change: Change; row?: object; rows?: readonly object[] }> = []
  readonly sequences = new Set<string>()
  /** Bumped when a commit fails and the world is reloaded: units open then answer 500. */
  epoch = 0

  constructor(readonly sequenceValues: () => Partial<Record<string, number>>) {}
}

interface Registered {
  sink: ChangeSink
  place: Place
}

/** Arrays (and team states, for their `team` row) whose rows are recorded, with where they live. */
const places = new WeakMap<object, Registered>()

export class WriteUnit {
  /** Touched rows, each once, with the array (or team state) that holds them. */
  readonly touched = new Map<object, object>()
  readonly epoch: number
  closed = false

  constructor(readonly sink: ChangeSink) {
    this.epoch = sink.epoch
  }
}

const units = new AsyncLocalStorage<WriteUnit>()

/** Whether any world records changes (a --data world is open in this process). */
export const recording = { on: false }

/** Records the rows of `holder` (an array, or a team's state for its `team` row) as living at `place`. */
export function register(sink: ChangeSink, holder: object, place: Place): void {
  recording.on = true
  places.set(holder, { sink, place })
}

/** Stops recording a holder (its team was replaced or dropped): changes to its old rows are not the world's any more. */
export function unregister(holder: object): void {
  places.delete(holder)
}

/** A row changed: the open unit writes it when it commits. */
export function touched(holder: object, row: object): void {
  const unit = units.getStore()
  if (unit !== undefined && !unit.closed) unit.touched.set(row, holder)
}

/** A row inserted into a recorded array. */
export function inserted(holder: object, row: object): void {
  const where = places.get(holder)
  if (!where) return
  where.sink.ordered.push({ change: ['i', where.place, null], row })
  touched(holder, row)
}

/** A row removed from a recorded array. */
export function deleted(holder: object, row: object): void {
  const where = places.get(holder)
  if (!where) return
  where.sink.ordered.push({ change: ['d', where.place, keyOf(row, where.place)], row })
}

/** A change that is not a row: a team added, replaced or dropped, a team's jobs replaced. */
export function changed(sink: ChangeSink | undefined, change: Change): void {
  sink?.ordered.push({ change })
}

/** Rows a bulk append ('a') holds at most: a team's rows are written in changes of this many. */
const APPEND_ROWS = 1000

/**
 * A team added or put in another's place: its state without rows, as JSON text taken now, then each
 * table's rows as they stand now, appended in bulk and written at commit (never the whole state as
 * one text: a large team's is more than a string can hold).
 */
export function teamChanged(sink: ChangeSink | undefined, id: number, state: object): void {
  if (!sink) return
  const withoutRows: Record<string, unknown> = {}
  const tables: Array<[string, readonly object[]]> = []
  for (const [key, value] of Object.entries(state)) {
    if (!Array.isArray(value)) withoutRows[key] = value
    else {
      withoutRows[key] = []
      if (value.length > 0) tables.push([key, [...(value as object[])]])
    }
  }
  sink.ordered.push({ change: ['t', JSON.stringify(withoutRows)] })
  for (const [key, rows] of tables) sink.ordered.push({ change: ['a', `${id}/${key}`, []], rows })
}

/** An id sequence moved on. */
export function sequenceMoved(sink: ChangeSink | undefined, name: string): void {
  sink?.sequences.add(name)
}

/** Runs work as a write unit of the sink's world (nested units are units of their own). */
export function inUnit<T>(sink: ChangeSink, work: (unit: WriteUnit) => T): T {
  const unit = new WriteUnit(sink)
  return units.run(unit, () => work(unit))
}

/** Runs work outside any write unit: rows of a scratch world it changes are nobody's change. */
export function outsideWriteUnits<T>(work: () => T): T {
  return units.exit(work)
}

/**
 * Where, in the ordered changes, a row was inserted and deleted again before they are written (a
 * job that came due in the same commit: a team's seeded history is a million of them): neither
 * need be written, and the rows around them keep their order without them.
 */
function cancelledPairs(ordered: ChangeSink['ordered']): Set<number> {
  const cancelled = new Set<number>()
  const insertedAt = new Map<object, number>()
  ordered.forEach(({ change, row }, at) => {
    if (row === undefined) return
    if (change[0] === 'i') insertedAt.set(row, at)
    else if (change[0] === 'd') {
      const from = insertedAt.get(row)
      if (from === undefined) return
      cancelled.add(from)
      cancelled.add(at)
      insertedAt.delete(row)
    }
  })
  return cancelled
}

/**
 * What a unit's commit writes: the ordered changes of every unit so far, the sequences that moved,
 * and the unit's touched rows still living where they were changed. Rows are serialised now.
 */
export function drain(unit: WriteUnit): Change[] {
  unit.closed = true
  const { sink } = unit
  const changes: Change[] = []
  // An inserted row goes in whole as it is now: no need to write it again as touched.
  const written = new Set<object>()
  const cancelled = cancelledPairs(sink.ordered)
  for (const [at, { change, row, rows }] of sink.ordered.entries()) {
    if (cancelled.has(at)) {
      written.add(row as object)
    } else if (change[0] === 'a' && rows) {
      for (let at = 0; at < rows.length; at += APPEND_ROWS) changes.push(['a', change[1], rows.slice(at, at + APPEND_ROWS)])
    } else if (change[0] === 'i' && row) {
      changes.push(['i', change[1], row])
      written.add(row)
    } else {
      changes.push(change)
    }
  }
  sink.ordered = []
  if (sink.sequences.size > 0) {
    const values = sink.sequenceValues()
    changes.push(['s', Object.fromEntries([...sink.sequences].map((name) => [name, values[name] ?? 0]))])
    sink.sequences.clear()
  }
  for (const [row, holder] of unit.touched) {
    const where = places.get(holder)
    if (where?.sink === sink && !written.has(row)) changes.push(['p', where.place, row])
  }
  unit.touched.clear()
  return changes
}
