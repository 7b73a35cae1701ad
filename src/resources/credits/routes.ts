import { isAdmin, type AppRoutes } from '../../context.ts'
import { forbidden } from '../../kernel/errors.ts'
import { paginate } from '../../kernel/pagination.ts'
import { sortRows } from '../../kernel/sort.ts'
import { presentCredit } from './present.ts'

export function creditsRoutes(routes: AppRoutes): void {
  routes.handle('credits.list', (c) => {
    const ctx = c.var.ctx
    // Credit history is billing information: owners and admins only (README "Behaviour notes").
    if (!isAdmin(ctx)) throw forbidden()
    const rows = sortRows(ctx.team.credits, { created_at: (row) => row.created_at }, c.var.query)
    return c.json(paginate(rows, c.var.query, c.req.url, (row) => presentCredit(ctx, row, c.var.expand)))
  })
}
