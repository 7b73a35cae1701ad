import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentMember, presentTeam } from './present.ts'
import { listMembers, updateTeam, type TeamUpdate } from './service.ts'

export function teamRoutes(routes: AppRoutes): void {
  routes.handle('team.get', (c) => c.json(presentTeam(c.var.ctx.team.team, { identifier: true })))

  routes.handle('team.update', (c) =>
    c.json(presentTeam(updateTeam(c.var.ctx, c.var.body as TeamUpdate), { identifier: true })),
  )

  routes.handle('team.me.get', (c) => c.json(presentMember(c.var.ctx.member, c.var.ctx.user)))

  routes.handle('team.members.list', (c) => {
    const members = listMembers(c.var.ctx, c.var.query.search as string | undefined)
    return c.json(paginate(members, c.var.query, c.req.url, ({ member, user }) => presentMember(member, user)))
  })
}
