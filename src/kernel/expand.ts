// expand: which expandable properties of the answer are full objects. The contract already
// checked the values against the endpoint's allowed set (docs/specification-notes.md "Lists, pagination and expansion": one level only).
import { listObject, type ListObject } from './pagination.ts'

export type Expand = ReadonlySet<string>

export const NO_EXPAND: Expand = new Set()

export function expandOf(query: { expand?: unknown }): Expand {
  return Array.isArray(query.expand) ? new Set(query.expand as string[]) : NO_EXPAND
}

/** docs/specification-notes.md "Wire details": collapsed, a list relation shows at most this many ids. */
export const COLLAPSED_IDS = 25

/**
 * An expandable relation that is a list of people or clients (docs/specification-notes.md "Wire details"): null when
 * empty, expanded or not; collapsed, the first 25 ids; expanded, a list object of its first page
 * with the URL of the collection.
 */
export function listRelation<T, J, L extends number>(
  items: readonly T[],
  expanded: boolean,
  page: { limit: L; url: string },
  idOf: (item: T) => number,
  present: (item: T) => J,
): number[] | ListObject<J, L> | null {
  if (items.length === 0) return null
  if (!expanded) return items.slice(0, COLLAPSED_IDS).map(idOf)
  return listObject(items, page.limit, page.url, present)
}
