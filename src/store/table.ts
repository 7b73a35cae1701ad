// A table of a team's state: the plain array the data file keeps, plus its rows by id kept in step
// with it, so reading a row by id costs the same for 50 rows as for 100,000. The table is the one
// way to change its rows: insert, update and delete keep its indexes in step, record the row for
// --data (src/store/changes.ts) and move its team's change count on (kernel/answer-cache.ts). The
// rows it hands out are read-only in their types; Table.update hands a writable draft of one row
// to the change it makes.
import type { ChangeCount } from '../kernel/answer-cache.ts'
import type { Thawed } from '../kernel/frozen.ts'
import { deleted, inserted, recording, touched } from './changes.ts'

/** A row as a change sees it inside Table.update (and as it is made before an insert): writable all the way down. */
export type Draft<T> = Thawed<T>

/** A change to a row: the fields it gets, or a function that changes its draft. */
export type RowChange<T> = Partial<T> | ((draft: Draft<T>) => void)

/** Applies a change to a row in place (its indexes and its recording are the caller's). */
export function applyChange<T extends object>(row: T, change: RowChange<T>): void {
  if (typeof change === 'function') change(row as Draft<T>)
  else Object.assign(row, change)
}

/** How far past the last slot an id may fall and still take a slot: the holes it leaves cost a word each. */
const LARGEST_GAP = 16

/**
 * Rows by id. Ids come from world-wide counters, one per kind, and a team's rows hold runs of
 * them (a team made in one go holds one run of each kind): a row in the run sits in an array at
 * its id less the run's first, found by index where a Map hashes, and a Map's entry for each of
 * a few hundred thousand rows cost more than the row's making in a large team. An id outside the
 * run (before it, or further past it than LARGEST_GAP) goes to a Map.
 */
class RowsById<T> {
  /** The id of the first slot: the first row's. */
  private first = Number.NaN
  private readonly slots: Array<T | undefined> = []
  private readonly others = new Map<number, T>()

  get(id: number): T | undefined {
    const slot = id - this.first
    const row = slot >= 0 && slot < this.slots.length ? this.slots[slot] : undefined
    // An empty slot's id is never in the Map; an id that is no whole number has no slot.
    return row !== undefined || this.others.size === 0 ? row : this.others.get(id)
  }

  set(id: number, row: T): void {
    if (Number.isNaN(this.first) && Number.isSafeInteger(id)) this.first = id
    const slot = id - this.first
    if (!Number.isInteger(slot) || slot < 0 || slot > this.slots.length + LARGEST_GAP) {
      this.others.set(id, row)
      return
    }
    // The run reaches the slot: undefined in the holes (the array stays one of plain elements),
    // and any id that had gone to the Map for being too far is moved into its slot.
    while (this.slots.length < slot) this.take(this.first + this.slots.length)
    if (slot === this.slots.length) this.take(id)
    this.slots[slot] = row
  }

  delete(id: number): void {
    const slot = id - this.first
    if (Number.isInteger(slot) && slot >= 0 && slot < this.slots.length) this.slots[slot] = undefined
    else this.others.delete(id)
  }

  /** Opens the next slot, for `id`: with the row the Map holds for it, if any. */
  private take(id: number): void {
    const row = this.others.size === 0 ? undefined : this.others.get(id)
    if (row !== undefined) this.others.delete(id)
    this.slots.push(row)
  }
}

export class Table<T extends { readonly id: number }> implements Iterable<T> {
  private readonly byId = new RowsById<T>()
  private readonly groups: Array<RowIndex<T>> = []
  /** The largest id the table has held: a row with a larger one (a new id, nearly always) cannot be there already. */
  private largestId = -Infinity

  /** rows: the team's persisted array; changes: the team's change count, which every change moves on. */
  constructor(
    private readonly rows: T[],
    private readonly changes: ChangeCount,
  ) {
    for (const row of rows) {
      this.byId.set(row.id, row)
      if (row.id > this.largestId) this.largestId = row.id
    }
  }

  get size(): number {
    return this.rows.length
  }

  get(id: number): T | undefined {
    return this.byId.get(id)
  }

  /** The rows in insertion order (ids ascending). */
  all(): readonly T[] {
    return this.rows
  }

  [Symbol.iterator](): Iterator<T> {
    return this.rows[Symbol.iterator]()
  }

  filter(predicate: (row: T) => boolean): T[] {
    return this.rows.filter(predicate)
  }

  insert(row: T): T {
    if (row.id > this.largestId) this.largestId = row.id
    else if (this.byId.get(row.id) !== undefined) throw new Error(`table: a row with id ${row.id} exists already`)
    this.rows.push(row)
    if (recording.on) inserted(this.rows, row)
    this.byId.set(row.id, row)
    for (const group of this.groups) group.add(row)
    this.changes.bump()
    return row
  }

  /**
   * Changes a row the table holds, in place (every index and every row that holds it still has
   * it): the fields given, or what the function does to its draft. The indexes that key it by
   * something that can change move it.
   */
  update(row: T, change: RowChange<T>): T {
    if (this.byId.get(row.id) !== row) throw new Error(`table: row ${row.id} is not this table's (taken before the team was opened again?)`)
    applyChange(row, change)
    if (recording.on) touched(this.rows, row)
    for (const index of this.groups) index.update?.(row)
    this.changes.bump()
    return row
  }

  delete(id: number): T | undefined {
    const row = this.byId.get(id)
    if (!row) return undefined
    this.rows.splice(this.rows.indexOf(row), 1)
    if (recording.on) deleted(this.rows, row)
    this.byId.delete(id)
    for (const group of this.groups) group.remove(row)
    this.changes.bump()
    return row
  }

  /**
   * Keeps this table's indexes in step with another table whose rows they read (a record's status
   * reads its checks; the records by their client's visibility read the client): when a row of
   * `other` is inserted, changed or deleted, the rows of this table that `rowsOf` names are placed
   * again.
   */
  follows<O extends { readonly id: number }>(other: Table<O>, rowsOf: (row: O) => Iterable<T>): void {
    const placeAgain = (row: O) => {
      for (const own of rowsOf(row)) for (const index of this.groups) index.update?.(own)
    }
    other.track({ add: placeAgain, remove: placeAgain, update: placeAgain })
  }

  /** Keeps an index of the resource's own in step with the table's inserts, deletes and changes. */
  index<I extends RowIndex<T>>(index: I): I {
    for (const row of this.rows) index.add(row)
    this.groups.push(index)
    return index
  }

  /**
   * Rows grouped by a key that never changes once a row exists (a foreign id such as a record's
   * client), kept in step with the table.
   */
  groupBy<K>(keyOf: (row: T) => K): GroupIndex<K, T> {
    const group = new GroupIndex<K, T>(keyOf)
    for (const row of this.rows) group.add(row)
    this.groups.push(group)
    return group
  }

  /**
   * Whether the rows, in the order they were inserted, are in the order `before` gives: a list
   * sorted that way is then the rows as they are, with nothing to sort (see InsertionOrder).
   */
  insertionOrder(before: (a: T, b: T) => boolean): InsertionOrder<T> {
    return this.track(new InsertionOrder(before, this.rows))
  }

  /** Rows in parts by a key that can change (archived or not), each part in the order `before` gives. See Partition. */
  partitionBy<K>(keyOf: (row: T) => K, before: (a: T, b: T) => boolean): Partition<K, T> {
    return this.track(new Partition(keyOf, before, this.rows))
  }

  /**
   * Rows in parts by keys that can change, a row in the part of each of its keys (a client in the
   * part of each of its assignees), each part in the order `before` gives. See PartitionByEach.
   */
  partitionByEach<K>(keysOf: (row: T) => readonly K[], before: (a: T, b: T) => boolean): PartitionByEach<K, T> {
    return this.track(new PartitionByEach(keysOf, before, this.rows))
  }

  /** The rows that hold each key, a row holding several (a record document's attachments), which it may gain after it is inserted. See GroupByEach. */
  groupByEach<K>(keysOf: (row: T) => readonly K[]): GroupByEach<K, T> {
    return this.track(new GroupByEach(keysOf, this.rows))
  }

  /** The rows kept in the order `compare` gives, by values that may change (a client's name). See OrderedRows. */
  orderedBy(compare: (a: T, b: T) => number): OrderedRows<T> {
    return this.track(new OrderedRows(compare, this.rows))
  }

  /**
   * Tells `index` of every insert, change and delete from now on, without showing it the rows the
   * table holds already: an index that builds itself at its first use, or a table following this one.
   */
  track<I extends RowIndex<T>>(index: I): I {
    this.groups.push(index)
    return index
  }

  /** Rows by a unique key that never changes once a row exists (a form's reference), kept in step with the table. */
  uniqueBy<K>(keyOf: (row: T) => K): UniqueIndex<K, T> {
    const index = new UniqueIndex<K, T>(keyOf)
    for (const row of this.rows) index.add(row)
    this.groups.push(index)
    return index
  }
}

/** Where a row is, or goes, in rows kept in the order `before` gives (a binary search). */
export function placeIn<T>(rows: readonly T[], row: T, before: (a: T, b: T) => boolean): number {
  return firstWhere(rows, (other) => !before(other, row))
}

/** The first of the rows that `reached` holds for, by a binary search: it must hold for every row after one it holds for. rows.length when none. */
export function firstWhere<T>(rows: readonly T[], reached: (row: T) => boolean): number {
  let low = 0
  let high = rows.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (reached(rows[middle] as T)) high = middle
    else low = middle + 1
  }
  return low
}

export interface RowIndex<T> {
  add(row: T): void
  remove(row: T): void
  /** The row changed (Table.update), or a row of a table this one follows did (Table.follows). */
  update?(row: T): void
}

export class UniqueIndex<K, T extends object> implements RowIndex<T> {
  private readonly rows = new Map<K, T>()

  constructor(private readonly keyOf: (row: T) => K) {}

  get(key: K): T | undefined {
    return this.rows.get(key)
  }

  add(row: T): void {
    this.rows.set(this.keyOf(row), row)
  }

  remove(row: T): void {
    this.rows.delete(this.keyOf(row))
  }
}

export class GroupIndex<K, T extends object> implements RowIndex<T> {
  private readonly groups = new Map<K, T[]>()

  constructor(private readonly keyOf: (row: T) => K) {}

  get(key: K): readonly T[] {
    return this.groups.get(key) ?? []
  }

  add(row: T): void {
    const key = this.keyOf(row)
    const group = this.groups.get(key)
    if (group) group.push(row)
    else this.groups.set(key, [row])
  }

  remove(row: T): void {
    const key = this.keyOf(row)
    const group = this.groups.get(key)
    if (!group) return
    group.splice(group.indexOf(row), 1)
    if (group.length === 0) this.groups.delete(key)
  }
}

/**
 * The rows that hold each key among their keys (what holds an attachment: record documents, form
 * answers), in the order they were filed. Built at its first use; a row is filed under its keys
 * when inserted or changed, and taken out of those it holds when deleted. A row is checked to
 * still hold the key when read, so one that let go of a key (an answer replaced) is passed over.
 */
export class GroupByEach<K, T extends object> implements RowIndex<T> {
  private holders: Map<K, T[]> | undefined

  /** table: the table's rows, which it is built from at its first use. */
  constructor(
    private readonly keysOf: (row: T) => readonly K[],
    private readonly table: readonly T[],
  ) {}

  get(key: K): T[] {
    if (!this.holders) {
      this.holders = new Map()
      for (const row of this.table) this.file(row)
    }
    return (this.holders.get(key) ?? []).filter((row) => this.keysOf(row).includes(key))
  }

  add(row: T): void {
    if (this.holders) this.file(row)
  }

  update(row: T): void {
    if (this.holders) this.file(row)
  }

  remove(row: T): void {
    if (!this.holders) return
    for (const key of this.keysOf(row)) {
      const rows = this.holders.get(key)
      const place = rows?.indexOf(row) ?? -1
      if (!rows || place < 0) continue
      rows.splice(place, 1)
      if (rows.length === 0) this.holders.delete(key)
    }
  }

  private file(row: T): void {
    const holders = this.holders as Map<K, T[]>
    for (const key of this.keysOf(row)) {
      const rows = holders.get(key)
      if (!rows) holders.set(key, [row])
      else if (!rows.includes(row)) rows.push(row)
    }
  }
}

/**
 * Whether a table's rows, as inserted, are in the order of a key that never changes once a row
 * exists (ties by id): `before(a, b)` says a row belongs before another. Settled by one pass over
 * the rows at its first use, then by each insert against the row before it; one row inserted out of
 * order (a record made after the clock was set back) makes it false until the team is opened again.
 * Deletes leave the rest in order.
 */
export class InsertionOrder<T> implements RowIndex<T> {
  private inOrder: boolean | undefined

  /** table: the table's rows, which the table appends a row to before telling its indexes. */
  constructor(
    private readonly before: (a: T, b: T) => boolean,
    private readonly table: readonly T[],
  ) {}

  get holds(): boolean {
    this.inOrder ??= this.table.every((row, index) => index === 0 || this.before(this.table[index - 1] as T, row))
    return this.inOrder
  }

  add(row: T): void {
    if (this.inOrder !== true) return
    const previous = this.table.at(-2)
    if (this.table.at(-1) !== row || (previous !== undefined && !this.before(previous, row))) this.inOrder = false
  }

  remove(): void {}
}

/**
 * A table's rows in parts by a key that can change (a row archived or not), each part kept in the
 * order `before` gives, by a key that never changes (an id, a creation moment): a list filtered by
 * the key and sorted that way is then a part as it is. A row is found in its part by a binary
 * search, so moving one costs a search and a splice. Built at its first use, then kept in step
 * with the table's inserts, deletes and changes (Table.update).
 */
export class Partition<K, T extends object> implements RowIndex<T> {
  private parts: Map<K, T[]> | undefined

  /** table: the table's rows, which it is built from at its first use. */
  constructor(
    private readonly keyOf: (row: T) => K,
    private readonly before: (a: T, b: T) => boolean,
    private readonly table: readonly T[],
  ) {}

  /** The rows whose key is `key`, in `before`'s order (read-only). */
  get(key: K): readonly T[] {
    return this.built().get(key) ?? []
  }

  add(row: T): void {
    if (!this.parts) return
    const key = this.keyOf(row)
    const part = this.parts.get(key)
    if (part) part.splice(this.placeOf(part, row), 0, row)
    else this.parts.set(key, [row])
  }

  remove(row: T): void {
    if (!this.parts) return
    // Its part by its key as it is, else (its key changed: the old one is gone) whichever holds it.
    const own = this.parts.get(this.keyOf(row))
    if (own && this.takeOut(own, row)) return
    for (const part of this.parts.values()) if (this.takeOut(part, row)) return
  }

  /** Takes the row out of the part if the part holds it. */
  private takeOut(part: T[], row: T): boolean {
    const place = this.placeOf(part, row)
    if (part[place] !== row) return false
    part.splice(place, 1)
    return true
  }

  update(row: T): void {
    if (!this.parts) return
    const part = this.parts.get(this.keyOf(row))
    if (part && part[this.placeOf(part, row)] === row) return
    this.remove(row)
    this.add(row)
  }

  private built(): Map<K, T[]> {
    if (this.parts) return this.parts
    // One array for every row's key: partsOf reads it before asking for the next.
    const key: K[] = []
    const keyOf = (row: T) => {
      key[0] = this.keyOf(row)
      return key
    }
    this.parts = partsOf(this.table, keyOf, this.before)
    return this.parts
  }

  private placeOf(part: readonly T[], row: T): number {
    return placeIn(part, row, this.before)
  }
}

/** The rows in the part of each of their keys, each part in the order `before` gives (sorted where the rows were not in it). */
function partsOf<K, T>(rows: readonly T[], keysOf: (row: T) => readonly K[], before: (a: T, b: T) => boolean): Map<K, T[]> {
  const parts = new Map<K, T[]>()
  for (const row of rows) {
    for (const key of keysOf(row)) {
      const part = parts.get(key)
      if (part === undefined) parts.set(key, [row])
      else if (part.at(-1) !== row) part.push(row)
    }
  }
  const compare = (a: T, b: T) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)
  for (const part of parts.values()) if (!part.every((row, index) => index === 0 || before(part[index - 1] as T, row))) part.sort(compare)
  return parts
}

/**
 * A table's rows in parts by keys that can change, a row in the part of each of its keys (a client
 * in the part of each user assigned to it, none when nobody is), each part kept in the order
 * `before` gives by a key that never changes (an id, a creation moment): a list of one key's rows
 * in that order is then its part as it is. Built at its first use, then kept in step with the
 * table's inserts, deletes and changes (Table.update). A row's old keys are gone once it has
 * changed, so a change or a delete looks for the row in every part, a binary search each: meant
 * for keys of which a team has few (its members).
 */
export class PartitionByEach<K, T extends object> implements RowIndex<T> {
  private parts: Map<K, T[]> | undefined

  /** table: the table's rows, which it is built from at its first use. */
  constructor(
    private readonly keysOf: (row: T) => readonly K[],
    private readonly before: (a: T, b: T) => boolean,
    private readonly table: readonly T[],
  ) {}

  /** The rows that have `key`, in `before`'s order (read-only). */
  get(key: K): readonly T[] {
    this.parts ??= partsOf(this.table, this.keysOf, this.before)
    return this.parts.get(key) ?? []
  }

  add(row: T): void {
    this.update(row)
  }

  remove(row: T): void {
    if (!this.parts) return
    for (const part of this.parts.values()) {
      const place = placeIn(part, row, this.before)
      if (part[place] === row) part.splice(place, 1)
    }
  }

  update(row: T): void {
    if (!this.parts) return
    const keys = new Set(this.keysOf(row))
    for (const [key, part] of this.parts) {
      const place = placeIn(part, row, this.before)
      const holds = part[place] === row
      if (holds && !keys.has(key)) part.splice(place, 1)
      else if (!holds && keys.has(key)) part.splice(place, 0, row)
      keys.delete(key)
    }
    for (const key of keys) this.parts.set(key, [row])
  }
}

/**
 * A table's rows kept in the order `compare` gives (a list's sort, ties by id: a client's last
 * name, or a creation moment where rows are not stored in creation order, as a credit history
 * whose records' charges are written after purchases dated later), so that the list unfiltered is
 * these rows as they are. Built at its first use (one sort); a row inserted goes in by a binary
 * search, one changed is taken out (found by a scan when its value moved) and put back where its
 * new value goes, one whose value did not move stays.
 */
export class OrderedRows<T extends object> implements RowIndex<T> {
  private sorted: T[] | undefined

  /** table: the table's rows, which it is built from at its first use. */
  constructor(
    private readonly compare: (a: T, b: T) => number,
    private readonly table: readonly T[],
  ) {}

  /** The rows in order (read-only). */
  rows(): readonly T[] {
    this.sorted ??= [...this.table].sort(this.compare)
    return this.sorted
  }

  add(row: T): void {
    if (!this.sorted) return
    this.sorted.splice(placeIn(this.sorted, row, (a, b) => this.compare(a, b) < 0), 0, row)
  }

  remove(row: T): void {
    if (!this.sorted) return
    const place = this.placeOf(row)
    if (place >= 0) this.sorted.splice(place, 1)
  }

  update(row: T): void {
    if (!this.sorted) return
    const sorted = this.sorted
    const place = this.placeOf(row)
    // Still in order with its neighbours (a form answered keeps its created_at): nothing moves.
    const inOrder = place >= 0 && (place === 0 || this.compare(sorted[place - 1] as T, row) < 0) && (place === sorted.length - 1 || this.compare(row, sorted[place + 1] as T) < 0)
    if (inOrder) return
    if (place >= 0) sorted.splice(place, 1)
    this.add(row)
  }

  /** Where the row is: by a binary search while its value is the one it was placed by, else by a scan; -1 when it is not there. */
  private placeOf(row: T): number {
    const sorted = this.sorted as T[]
    const place = placeIn(sorted, row, (a, b) => this.compare(a, b) < 0)
    return sorted[place] === row ? place : sorted.indexOf(row)
  }
}
