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
 * A sorted copy of rows, by the operation's validated query: the contract checked sort_by and
 * filled in its default (and order_by's), so an accessor is missing only by a coding mistake.
 */
export function sortRows<T extends { id: number }>(rows: readonly T[], accessors: SortAccessors<T>, query: { sort_by?: string; order_by?: SortOrder }): T[] {
  const sortBy = query.sort_by as string
  const accessor = sortBy === 'id' ? (row: T) => row.id : accessors[sortBy]
  if (!accessor) throw new Error(`sort: no accessor for ${sortBy}`)
  const direction = query.order_by === 'desc' ? -1 : 1
  return [...rows].sort((a, b) => direction * (compareValues(accessor(a), accessor(b)) || a.id - b.id))
}
