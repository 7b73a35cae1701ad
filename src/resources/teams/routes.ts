import type { AppRoutes, RequestContext } from '../../context.ts'
import { forbidden, notFound } from '../../kernel/errors.ts'
import { paginate } from '../../kernel/pagination.ts'
import { listMembers, presentMember } from '../team/index.ts'

/** A token is scoped to one team: naming any other team id is forbidden. */
function ownTeamOnly(ctx: RequestContext, params: { teamId: number }): void {
  if (params.teamId !== ctx.team.id) throw forbidden("another team's id")
}

export function teamsRoutes(routes: AppRoutes): void {
  routes.handle('teams.members.list', { find: ownTeamOnly }, ({ ctx, query, url }) =>
    paginate(listMembers(ctx), query, url, ({ member, user }) => presentMember(member, user)),
  )

  routes.handle('teams.members.get', { find: ownTeamOnly }, ({ ctx, params }) => {
    const found = listMembers(ctx).find(({ user }) => user.id === params.teamMemberId)
    if (!found) throw notFound('Team member')
    return presentMember(found.member, found.user)
  })
}
