// Paged lists (docs/specification-notes.md "Conventions", docs/specification-notes.md "Lists, pagination and expansion"): limit 1..100
// (default 25), page >= 1, a page past the end is an empty data, links null on a single page.
export interface PaginatedList<T> {
  object: 'paginated_list'
  data: T[]
  total: number
  count: number
  limit: number
  current_page: number
  total_pages: number
  links: { next: string | null; previous: string | null } | null
}

/**
 * docs/specification-notes.md "Wire details": the answer of add/replace/item operations (only what is new) and an
 * expanded relation that is a list of people or clients (its first page), with the absolute URL
 * of the collection it shows.
 */
export interface ListObject<T, L extends number = number> {
  object: 'list'
  data: T[]
  total: number
  count: number
  limit: L
  has_more: boolean
  url: string
}

/** What a page is cut from: an array, or a long list read backwards without a copy (Reversed). */
export interface ListedRows<T> {
  readonly length: number
  slice(start: number, end: number): T[]
}

/** Rows in reverse order, read only where a page is cut: a descending list of a long table with no copy of it. */
export class Reversed<T> implements ListedRows<T> {
  constructor(private readonly rows: readonly T[]) {}

  get length(): number {
    return this.rows.length
  }

  slice(start: number, end: number): T[] {
    const last = this.rows.length - 1
    const cut: T[] = []
    for (let index = Math.max(0, start); index < Math.min(end, this.rows.length); index++) cut.push(this.rows[last - index] as T)
    return cut
  }
}

/** Rows already in a list's ascending order, as the list's order_by asks for them. */
export function inListOrder<T>(rows: readonly T[], orderBy: 'asc' | 'desc' | undefined): ListedRows<T> {
  return orderBy === 'desc' ? new Reversed(rows) : rows
}

export interface PageQuery {
  page: number
  limit: number
}

/** Links already built, by the request's URL and the page linked to; cleared when full. */
const pageLinks = new Map<string, string>()
const MAX_PAGE_LINKS = 1000
/** Longer URLs are built every time: the cache stays under a few megabytes. */
const MAX_CACHED_URL = 1024

/**
 * The URL with its page parameter set: parsing and serialising a URL cost a list about as much
 * as presenting its page, and clients ask for the same URLs again and again (a list polled, pages
 * walked), so each link is built once.
 */
function pageUrl(url: string, page: number): string {
  const key = `${page} ${url}`
  let link = pageLinks.get(key)
  if (link === undefined) {
    const parsed = new URL(url)
    parsed.searchParams.set('page', String(page))
    link = parsed.toString()
    if (url.length <= MAX_CACHED_URL) {
      if (pageLinks.size >= MAX_PAGE_LINKS) pageLinks.clear()
      pageLinks.set(key, link)
    }
  }
  return link
}

/**
 * One page of items, presented only after slicing so a page costs what it shows. The query is
 * the operation's validated query, where page and limit always have a value.
 */
export function paginate<T, J>(items: ListedRows<T>, query: PageQuery, url: string, present: (item: T) => J): PaginatedList<J> {
  const { page, limit } = query
  const total = items.length
  const totalPages = Math.max(1, Math.ceil(total / limit))
  const data = items.slice((page - 1) * limit, page * limit).map(present)
  return {
    object: 'paginated_list',
    data,
    total,
    count: data.length,
    limit,
    current_page: page,
    total_pages: totalPages,
    links:
      totalPages === 1
        ? null
        : {
            next: page < totalPages ? pageUrl(url, page + 1) : null,
            previous: page > 1 ? pageUrl(url, page - 1) : null,
          },
  }
}

/** The first `limit` items as a list object; presented only after slicing. */
export function listObject<T, J, L extends number>(items: readonly T[], limit: L, url: string, present: (item: T) => J): ListObject<J, L> {
  const data = items.slice(0, limit).map(present)
  return { object: 'list', data, total: items.length, count: data.length, limit, has_more: items.length > limit, url }
}
