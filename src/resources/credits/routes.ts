import { isOwner, type AppRoutes } from '../../context.ts'
import { inListOrder, paginate } from '../../kernel/pagination.ts'
import { presentCredit } from './present.ts'

export function creditsRoutes(routes: AppRoutes): void {
  // Credit history is billing information: owners only, and support acting as one (docs/specification-notes.md "Roles").
  // By created_at (the only sort): the index's order as it is, so a page costs its rows.
  routes.handle('credits.list', { authorize: isOwner }, ({ ctx, query, url, expand, baseUrl }) =>
    paginate(inListOrder(ctx.team.creditsByCreation.rows(), query.order_by), query, url, (row) => presentCredit(ctx, row, expand, baseUrl)),
  )
}
