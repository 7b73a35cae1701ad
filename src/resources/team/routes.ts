import { isAdmin, type AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentMember, presentTeam } from './present.ts'
import { listMembers, updateTeam, type TeamUpdate } from './service.ts'

export function teamRoutes(routes: AppRoutes): void {
  routes.handle('team.get', (c) => c.json(presentTeam(c.get('ctx').team.team, { identifier: true })))

  // A member may not change the team: 403 (README "Behaviour notes").
  routes.handle('team.update', { authorize: isAdmin }, (c) =>
    c.json(presentTeam(updateTeam(c.get('ctx'), c.get('body') as TeamUpdate), { identifier: true })),
  )

  routes.handle('team.me.get', (c) => c.json(presentMember(c.get('ctx').member, c.get('ctx').user)))

  routes.handle('team.members.list', (c) => {
    const members = listMembers(c.get('ctx'), c.get('query').search as string | undefined)
    return c.json(paginate(members, c.get('query'), c.req.url, ({ member, user }) => presentMember(member, user)))
  })
}
