import { isOwner, type AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentMember, presentTeam } from './present.ts'
import { listMembers, updateTeam } from './service.ts'

export function teamRoutes(routes: AppRoutes): void {
  routes.handle('team.get', ({ ctx }) => presentTeam(ctx.team.row, { identifier: true }))

  // Only owners (and support acting as one) change the team (FACTS.md "Roles").
  routes.handle('team.update', { authorize: isOwner }, ({ ctx, body }) => presentTeam(updateTeam(ctx, body), { identifier: true }))

  routes.handle('team.me.get', ({ ctx }) => presentMember(ctx.member, ctx.user))

  routes.handle('team.members.list', ({ ctx, query, url }) =>
    paginate(listMembers(ctx, query.search), query, url, ({ member, user }) => presentMember(member, user)),
  )
}
