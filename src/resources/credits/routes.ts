import { isOwner, type AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { sortRows } from '../../kernel/sort.ts'
import { presentCredit } from './present.ts'

export function creditsRoutes(routes: AppRoutes): void {
  // Credit history is billing information: owners only, and support acting as one (FACTS.md "Roles").
  routes.handle('credits.list', { authorize: isOwner }, ({ ctx, query, url, expand, baseUrl }) =>
    paginate(sortRows(ctx.team.credits.all(), { created_at: (row) => row.created_at }, query), query, url, (row) => presentCredit(ctx, row, expand, baseUrl)),
  )
}
