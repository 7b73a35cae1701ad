// sort_by / order_by. Values compare like the real service's database: case-insensitively,
// NULL before anything in ascending order (and after it in descending), ties by id.
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
  const strings = new Set<string>()
  let numbers = false
  for (const value of values) {
    if (typeof value === 'string') strings.add(value)
    else if (typeof value === 'number') numbers = true
  }
  if (numbers && strings.size > 0) return undefined
  if (numbers) return values.map((value) => (value === null ? -Infinity : (value as number)))
  const distinct = [...strings].sort(collator.compare)
  const rankOf = new Map<string, number>()
  let rank = 0
  distinct.forEach((value, index) => {
    if (index > 0 && collator.compare(distinct[index - 1] as string, value) !== 0) rank++
    rankOf.set(value, rank)
  })
  return values.map((value) => (value === null ? -1 : (rankOf.get(value as string) as number)))
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
  const ranked = ranks(values)
  const order = rows.map((_, index) => index)
  if (ranked) order.sort((a, b) => direction * ((ranked[a] as number) - (ranked[b] as number) || (rows[a] as T).id - (rows[b] as T).id))
  else order.sort((a, b) => direction * (compareValues(values[a] as SortValue, values[b] as SortValue) || (rows[a] as T).id - (rows[b] as T).id))
  return order.map((index) => rows[index] as T)
}
