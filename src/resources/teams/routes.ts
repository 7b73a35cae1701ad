import type { AppRoutes, RequestContext } from '../../context.ts'
import { forbidden, notFound } from '../../kernel/errors.ts'
import { paginate } from '../../kernel/pagination.ts'
import { listMembers, presentMember } from '../team/index.ts'
import { json } from '../../kernel/respond.ts'

/** A token is scoped to one team: naming any other team id is forbidden. */
function ownTeamOnly(ctx: RequestContext, params: Record<string, string>): void {
  if (Number(params.teamId) !== ctx.team.team.id) throw forbidden()
}

export function teamsRoutes(routes: AppRoutes): void {
  routes.handle('teams.members.list', { find: ownTeamOnly }, (c) =>
    json(c, paginate(listMembers(c.get('ctx')), c.get('query'), c.req.url, ({ member, user }) => presentMember(member, user))),
  )

  routes.handle('teams.members.get', { find: ownTeamOnly }, (c) => {
    const id = Number(c.req.param('teamMemberId'))
    const found = listMembers(c.get('ctx')).find(({ user }) => user.id === id)
    if (!found) throw notFound('Team member')
    return json(c, presentMember(found.member, found.user))
  })
}
