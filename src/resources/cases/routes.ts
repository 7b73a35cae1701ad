import type { AppRoutes } from '../../context.ts'
import { NO_EXPAND } from '../../kernel/expand.ts'
import { listObject, paginate } from '../../kernel/pagination.ts'
import { assigneesListRoute } from '../assignees/index.ts'
import { presentCase, presentCaseItem, presentCaseReview } from './present.ts'
import {
  addItems,
  caseCreateErrors,
  caseItemsErrors,
  caseReviews,
  createCase,
  findCase,
  findCaseItem,
  findNestedCase,
  listCases,
  removeItem,
  requireCases,
  reviewCase,
  updateCase,
} from './service.ts'

/** docs/specification-notes.md "Cases": PATCH /cases/{id}/items takes at most 100 items, and its action list says limit 100. */
const ACTION_LIMIT = 100

/** Every case operation's find checks first that the team has cases (403 for a legacy team). */
const teamWithCases = { find: requireCases }
const someCase = { find: findCase }
const nestedCase = { find: findNestedCase }

export function casesRoutes(routes: AppRoutes): void {
  routes.handle('cases.list', teamWithCases, ({ ctx, query, url, expand, baseUrl }) =>
    paginate(listCases(ctx, query), query, url, (row) => presentCase(ctx, row, expand, baseUrl)),
  )

  routes.handle('cases.create', { ...teamWithCases, rules: ({ ctx, body, passed }) => caseCreateErrors(ctx, body, passed) }, ({ ctx, body, baseUrl }) => presentCase(ctx, createCase(ctx, body), NO_EXPAND, baseUrl))

  routes.handle('cases.get', someCase, ({ ctx, found, expand, baseUrl }) => presentCase(ctx, found, expand, baseUrl))

  routes.handle('cases.update', someCase, ({ ctx, found, body, baseUrl }) => presentCase(ctx, updateCase(ctx, found, body), NO_EXPAND, baseUrl))

  routes.handle('cases.reviews.list', nestedCase, ({ ctx, found, query, url, expand }) =>
    paginate(caseReviews(ctx, found), query, url, (review) => presentCaseReview(ctx, review, expand)),
  )

  routes.handle('cases.reviews.create', nestedCase, ({ ctx, found, body }) => presentCaseReview(ctx, reviewCase(ctx, found, body.status), NO_EXPAND))

  routes.handle('cases.items.list', nestedCase, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(found.items, query, url, (item) => presentCaseItem(ctx, item, expand, baseUrl)),
  )

  routes.handle('cases.items.update', { ...nestedCase, rules: ({ ctx, found, body, passed }) => caseItemsErrors(ctx, found, body, passed) }, ({ ctx, found, body, baseUrl }) => {
    const added = addItems(ctx, found, body)
    if (added.length === 0) return undefined
    return listObject(added, ACTION_LIMIT, `${baseUrl}/cases/${found.id}/items`, (item) => presentCaseItem(ctx, item, NO_EXPAND, baseUrl))
  })

  routes.handle('cases.items.delete', { find: findCaseItem }, ({ ctx, found }) => removeItem(ctx, found.row, found.item))

  // A legacy team gets 403 first; then 404 Case not found, then 403 for an assigned-only member not assigned to it.
  assigneesListRoute(routes, 'cases', findCase)
}
