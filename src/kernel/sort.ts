// sort_by / order_by. Values compare like the real service's database: case-insensitively,
// NULL before anything in ascending order (and after it in descending), ties by id.
import { isWireTimestamp } from './clock.ts'

export type SortValue = string | number | null
export type SortOrder = 'asc' | 'desc'
/** The sort keys a list's contract offers (its validated query's sort_by), id aside: it needs no accessor. */
export type SortKey<Query extends { sort_by?: string }> = Exclude<NonNullable<Query['sort_by']>, 'id'>
/** How each sort key of a list reads a row: with Key from the contract, one accessor per key it offers. */
export type SortAccessors<T, Key extends string = string> = Record<Key, (row: T) => SortValue>

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return collator.compare(String(a), String(b))
}

/**
 * Each row's sort value as a number that orders as compareValues does: a value's rank among the
 * distinct values (NULL first), so the collator runs once per pair of distinct values, not per
 * pair of rows. Strings the collator holds equal share a rank. Undefined when values are mixed
 * (numbers and strings), which compareValues alone orders.
 */
function ranks(values: readonly SortValue[]): number[] | undefined {
  // The distinct strings, collected as the keys their ranks are then set under.
  const rankOf = new Map<string, number>()
  let numbers = false
  for (const value of values) {
    if (typeof value === 'string') rankOf.set(value, 0)
    else if (typeof value === 'number') numbers = true
  }
  if (numbers && rankOf.size > 0) return undefined
  if (numbers) return values.map((value) => (value === null ? -Infinity : (value as number)))
  const distinct = [...rankOf.keys()]
  if (distinct.every(isWireTimestamp)) {
    // Distinct timestamps of the one shape order as their code units do, with no collator, and none ties.
    distinct.sort().forEach((value, index) => rankOf.set(value, index))
  } else {
    distinct.sort(collator.compare)
    let rank = 0
    distinct.forEach((value, index) => {
      if (index > 0 && collator.compare(distinct[index - 1] as string, value) !== 0) rank++
      rankOf.set(value, rank)
    })
  }
  return values.map((value) => (value === null ? -1 : (rankOf.get(value as string) as number)))
}

/** The ascending order sortRows gives by one value (ties by id), as a comparison: for an index kept in that order. */
export function compareBy<T extends { id: number }>(accessor: (row: T) => SortValue): (a: T, b: T) => number {
  return (a, b) => compareQuickly(accessor(a), accessor(b)) || a.id - b.id
}

/**
 * A sorted copy of rows, by the operation's validated query: the contract checked sort_by and
 * filled in its default (and order_by's), so an accessor is missing only by a coding mistake.
 */
export function sortRows<T extends { id: number }>(rows: readonly T[], accessors: SortAccessors<T>, query: { sort_by?: string; order_by?: SortOrder }): T[] {
  const sortBy = query.sort_by as string
  const accessor = sortBy === 'id' ? (row: T) => row.id : accessors[sortBy]
  if (!accessor) throw new Error(`sort: no accessor for ${sortBy}`)
  const direction = query.order_by === 'desc' ? -1 : 1
  const values = rows.map(accessor)
  if (inOrder(rows, values)) return direction === 1 ? rows.slice() : rows.slice().reverse()
  const ranked = ranks(values)
  const packed = ranked && packable(rows, ranked) ? byPackedKeys(rows, ranked, direction) : undefined
  if (packed) return packed
  const order = rows.map((_, index) => index)
  if (ranked) order.sort((a, b) => direction * ((ranked[a] as number) - (ranked[b] as number) || (rows[a] as T).id - (rows[b] as T).id))
  else order.sort((a, b) => direction * (compareValues(values[a] as SortValue, values[b] as SortValue) || (rows[a] as T).id - (rows[b] as T).id))
  return order.map((index) => rows[index] as T)
}

/**
 * compareValues, with timestamps of the mock's one shape compared without the collator: two of them
 * order by their code units as the collator orders them (digits in runs of the same length; the
 * same letters and signs between), which is many times cheaper.
 */
function compareQuickly(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string' && a !== b && isWireTimestamp(a) && isWireTimestamp(b)) return a < b ? -1 : 1
  return compareValues(a, b)
}

/**
 * Whether the rows are in the sort's ascending order already (ties by id): rows kept in creation
 * order listed by created_at or id, filtered, need one pass instead of a sort. The pass stops at the
 * first row out of order.
 */
function inOrder(rows: ReadonlyArray<{ id: number }>, values: readonly SortValue[]): boolean {
  for (let index = 1; index < rows.length; index++) {
    const order = compareQuickly(values[index - 1] as SortValue, values[index] as SortValue)
    if (order > 0 || (order === 0 && (rows[index - 1] as { id: number }).id >= (rows[index] as { id: number }).id)) return false
  }
  return true
}

const ID_SPAN = 2 ** 32
/** Ranks above this would not leave a double room for the id beneath them. */
const RANK_LIMIT = 2 ** 20

/** Whether every rank (NULL's -1 included) and id fit together in one of a double's exact integers. */
function packable(rows: ReadonlyArray<{ id: number }>, ranked: readonly number[]): boolean {
  return ranked.every((rank) => Number.isInteger(rank) && rank >= -1 && rank < RANK_LIMIT) && rows.every((row) => Number.isInteger(row.id) && row.id >= 0 && row.id < ID_SPAN)
}

/**
 * Rows by rank, ties by id, as one numeric sort of keys that hold both (the rank above 32 bits for
 * the row): no comparison callback per pair, which is most of the cost of sorting a long list.
 * Rows given in id order (what a table and its indexes mostly hand out) put their place under the
 * rank, which orders ties as their ids do; others put their id, found again through a map.
 * Descending is the ascending order reversed, ties included. Undefined when two rows share an id
 * (rows of more than one table): a key would not say which row it is.
 */
function byPackedKeys<T extends { id: number }>(rows: readonly T[], ranked: readonly number[], direction: number): T[] | undefined {
  const keys = new Float64Array(rows.length)
  const rankKey = (index: number) => ((ranked[index] as number) + 1) * ID_SPAN
  // Filled by index, not Array.from(keys, ...): iterating a Float64Array boxes every key.
  const sorted = new Array<T>(rows.length)
  if (rows.every((row, index) => index === 0 || (rows[index - 1] as T).id < row.id)) {
    for (let index = 0; index < rows.length; index++) keys[index] = rankKey(index) + index
    keys.sort()
    for (let index = 0; index < keys.length; index++) sorted[index] = rows[(keys[index] as number) % ID_SPAN] as T
  } else {
    const byId = new Map<number, T>()
    rows.forEach((row, index) => {
      keys[index] = rankKey(index) + row.id
      byId.set(row.id, row)
    })
    if (byId.size !== rows.length) return undefined
    keys.sort()
    for (let index = 0; index < keys.length; index++) sorted[index] = byId.get((keys[index] as number) % ID_SPAN) as T
  }
  return direction === 1 ? sorted : sorted.reverse()
}
