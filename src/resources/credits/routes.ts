import { isOwner, type AppRoutes } from '../../context.ts'
import { inListOrder, paginate } from '../../kernel/pagination.ts'
import { sortRows } from '../../kernel/sort.ts'
import { presentCredit } from './present.ts'

export function creditsRoutes(routes: AppRoutes): void {
  // Credit history is billing information: owners only, and support acting as one (FACTS.md "Roles").
  routes.handle('credits.list', { authorize: isOwner }, ({ ctx, query, url, expand, baseUrl }) => {
    // By created_at (the only sort), the index's order as it is: a page costs its rows.
    const byCreation = ctx.team.creditsByCreation.rows()
    const entries = byCreation ? inListOrder(byCreation, query.order_by) : sortRows(ctx.team.credits.all(), { created_at: (row) => row.created_at }, query)
    return paginate(entries, query, url, (row) => presentCredit(ctx, row, expand, baseUrl))
  })
}
