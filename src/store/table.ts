// A table of a team's state: the plain array the data file keeps, plus a Map by id kept in step with
// it, so reading a row by id costs the same for 50 rows as for 100,000. Every change goes through the
// table; the array is changed in place, so the persisted state always holds the same rows. With
// --data, what it hands out and every insert and delete is recorded (src/store/changes.ts).
import { deleted, inserted, recording, touched, touchedAll } from './changes.ts'

export class Table<T extends { id: number }> implements Iterable<T> {
  private readonly byId = new Map<number, T>()
  private readonly groups: Array<RowIndex<T>> = []

  constructor(private readonly rows: T[]) {
    for (const row of rows) this.byId.set(row.id, row)
  }

  get size(): number {
    return this.rows.length
  }

  get(id: number): T | undefined {
    const row = this.byId.get(id)
    if (recording.on && row) touched(this.rows, row)
    return row
  }

  /** The rows in insertion order (ids ascending). Read-only: change rows through the table. */
  all(): readonly T[] {
    return this.rows
  }

  [Symbol.iterator](): Iterator<T> {
    return this.rows[Symbol.iterator]()
  }

  /** The rows with these ids (those that still exist) that pass predicate, handed out like filter's. */
  pick(ids: Iterable<number>, predicate: (row: T) => boolean): T[] {
    const rows: T[] = []
    for (const id of ids) {
      const row = this.byId.get(id)
      if (row !== undefined && predicate(row)) rows.push(row)
    }
    if (recording.on) touchedAll(this.rows, rows)
    return rows
  }

  filter(predicate: (row: T) => boolean): T[] {
    const rows = this.rows.filter(predicate)
    if (recording.on) touchedAll(this.rows, rows)
    return rows
  }

  insert(row: T): T {
    if (this.byId.has(row.id)) throw new Error(`table: a row with id ${row.id} exists already`)
    this.rows.push(row)
    if (recording.on) inserted(this.rows, row)
    this.byId.set(row.id, row)
    for (const group of this.groups) group.add(row)
    return row
  }

  delete(id: number): T | undefined {
    const row = this.byId.get(id)
    if (!row) return undefined
    this.rows.splice(this.rows.indexOf(row), 1)
    if (recording.on) deleted(this.rows, row)
    this.byId.delete(id)
    for (const group of this.groups) group.remove(row)
    return row
  }

  /**
   * A row was changed in place where an index keys it by something that can change (a client's
   * name): the indexes that care move it.
   */
  changed(row: T): void {
    for (const index of this.groups) index.update?.(row)
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
    const group = new GroupIndex<K, T>(keyOf, this.rows)
    for (const row of this.rows) group.add(row)
    this.groups.push(group)
    return group
  }

  /** Rows by a unique key that never changes once a row exists (a form's reference), kept in step with the table. */
  uniqueBy<K>(keyOf: (row: T) => K): UniqueIndex<K, T> {
    const index = new UniqueIndex<K, T>(keyOf, this.rows)
    for (const row of this.rows) index.add(row)
    this.groups.push(index)
    return index
  }
}

export interface RowIndex<T> {
  add(row: T): void
  remove(row: T): void
  /** The row changed in place (Table.changed). */
  update?(row: T): void
}

export class UniqueIndex<K, T extends object> implements RowIndex<T> {
  private readonly rows = new Map<K, T>()

  /** table: the table's rows, what a row handed out is recorded against. */
  constructor(
    private readonly keyOf: (row: T) => K,
    private readonly table: readonly T[],
  ) {}

  get(key: K): T | undefined {
    const row = this.rows.get(key)
    if (recording.on && row) touched(this.table, row)
    return row
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

  /** table: the table's rows, what rows handed out are recorded against. */
  constructor(
    private readonly keyOf: (row: T) => K,
    private readonly table: readonly T[],
  ) {}

  get(key: K): readonly T[] {
    const group = this.groups.get(key)
    if (!group) return []
    if (recording.on) touchedAll(this.table, group)
    return group
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
