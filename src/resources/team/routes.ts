import { isAdmin, type AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentMember, presentTeam } from './present.ts'
import { listMembers, updateTeam, type TeamUpdate } from './service.ts'
import { json } from '../../kernel/respond.ts'

export function teamRoutes(routes: AppRoutes): void {
  routes.handle('team.get', (c) => json(c, presentTeam(c.get('ctx').team.team, { identifier: true })))

  // A member may not change the team: 403 (README "Behaviour notes").
  routes.handle('team.update', { authorize: isAdmin }, (c) =>
    json(c, presentTeam(updateTeam(c.get('ctx'), c.get('body') as TeamUpdate), { identifier: true })),
  )

  routes.handle('team.me.get', (c) => json(c, presentMember(c.get('ctx').member, c.get('ctx').user)))

  routes.handle('team.members.list', (c) => {
    const members = listMembers(c.get('ctx'), c.get('query').search as string | undefined)
    return json(c, paginate(members, c.get('query'), c.req.url, ({ member, user }) => presentMember(member, user)))
  })
}
