// The caller's team: /team (the team, the caller's membership, the members) and /teams/{teamId}/members
// (the same members, by the team's id: a token is scoped to one team).
import { isOwner, type AppRoutes, type RequestContext } from '../../context.ts'
import { forbidden, notFound } from '../../kernel/errors.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentMember, presentTeam } from './present.ts'
import { listMembers, updateTeam } from './service.ts'

/** A token is scoped to one team: naming any other team id is forbidden. */
function ownTeamOnly(ctx: RequestContext, params: { teamId: number }): void {
  if (params.teamId !== ctx.team.id) throw forbidden("another team's id")
}

export function teamRoutes(routes: AppRoutes): void {
  routes.handle('team.get', ({ ctx }) => presentTeam(ctx.team.row, { identifier: true }))

  // Only owners (and support acting as one) change the team (docs/specification-notes.md "Roles").
  routes.handle('team.update', { authorize: isOwner }, ({ ctx, body }) => presentTeam(updateTeam(ctx, body), { identifier: true }))

  routes.handle('team.me.get', ({ ctx }) => presentMember(ctx.member, ctx.user))

  routes.handle('team.members.list', ({ ctx, query, url }) =>
    paginate(listMembers(ctx, query.search), query, url, ({ member, user }) => presentMember(member, user)),
  )

  routes.handle('teams.members.list', { find: ownTeamOnly }, ({ ctx, query, url }) =>
    paginate(listMembers(ctx), query, url, ({ member, user }) => presentMember(member, user)),
  )

  routes.handle('teams.members.get', { find: ownTeamOnly }, ({ ctx, params }) => {
    const found = listMembers(ctx).find(({ user }) => user.id === params.teamMemberId)
    if (!found) throw notFound('Team member')
    return presentMember(found.member, found.user)
  })
}
