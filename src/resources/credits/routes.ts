import { isAdmin, type AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { sortRows } from '../../kernel/sort.ts'
import { presentCredit } from './present.ts'
import { json } from '../../kernel/respond.ts'

export function creditsRoutes(routes: AppRoutes): void {
  // Credit history is billing information: owners and admins only (README "Behaviour notes").
  routes.handle('credits.list', { authorize: isAdmin }, (c) => {
    const ctx = c.get('ctx')
    const rows = sortRows(ctx.team.credits, { created_at: (row) => row.created_at }, c.get('query'))
    return json(c, paginate(rows, c.get('query'), c.req.url, (row) => presentCredit(ctx, row, c.get('expand'))))
  })
}
