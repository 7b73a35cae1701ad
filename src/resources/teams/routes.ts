import type { Context } from 'hono'
import type { AppEnv, AppRoutes } from '../../context.ts'
import { forbidden, notFound } from '../../kernel/errors.ts'
import { paginate } from '../../kernel/pagination.ts'
import { listMembers, presentMember } from '../team/index.ts'

/** A token is scoped to one team: naming any other team id is forbidden. */
function ownTeamOnly(c: Context<AppEnv>): void {
  if (Number(c.req.param('teamId')) !== c.var.ctx.team.team.id) throw forbidden()
}

export function teamsRoutes(routes: AppRoutes): void {
  routes.handle('teams.members.list', (c) => {
    ownTeamOnly(c)
    return c.json(paginate(listMembers(c.var.ctx), c.var.query, c.req.url, ({ member, user }) => presentMember(member, user)))
  })

  routes.handle('teams.members.get', (c) => {
    ownTeamOnly(c)
    const id = Number(c.req.param('teamMemberId'))
    const found = listMembers(c.var.ctx).find(({ user }) => user.id === id)
    if (!found) throw notFound('Team member')
    return c.json(presentMember(found.member, found.user))
  })
}
