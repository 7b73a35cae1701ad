import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentTeam } from '../team/index.ts'
import { presentUser } from './present.ts'
import { updateMe, updateMeErrors } from './service.ts'

export function meRoutes(routes: AppRoutes): void {
  routes.handle('me.get', ({ ctx }) => presentUser(ctx.user))

  routes.handle('me.update', { rules: ({ ctx, body, passed }) => updateMeErrors(ctx, body, passed) }, ({ ctx, body }) => presentUser(updateMe(ctx, body)))

  routes.handle('me.teams.list', ({ ctx, query, url }) =>
    paginate(ctx.store.teamsOf(ctx.user.id), query, url, (team) => presentTeam(team.row, { identifier: false })),
  )
}
