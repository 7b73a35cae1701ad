// Paged lists (spec "Conventions", FACTS.md "Lists, pagination, expansion"): limit 1..100
// (default 25), page >= 1, a page past the end is an empty data, links null on a single page.
import type { Query } from './validate.ts'

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

export interface ActionList<T> {
  object: 'list'
  data: T[]
  total: number
  count: number
  limit: number
  has_more: boolean
}

function pageUrl(url: string, page: number): string {
  const link = new URL(url)
  link.searchParams.set('page', String(page))
  return link.toString()
}

/**
 * One page of items, presented only after slicing so a page costs what it shows. The query is
 * the operation's validated query, where page and limit always have a value.
 */
export function paginate<T, J>(items: readonly T[], query: Query, url: string, present: (item: T) => J): PaginatedList<J> {
  const page = query.page as number
  const limit = query.limit as number
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

/** The answer of add/replace/item operations: only what is new, all on one page. */
export function actionList<J>(data: J[]): ActionList<J> {
  return { object: 'list', data, total: data.length, count: data.length, limit: Math.max(data.length, 1), has_more: false }
}
