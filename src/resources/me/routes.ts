import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentTeam } from '../team/index.ts'
import { presentUser } from './present.ts'
import { updateMe, type UserUpdate } from './service.ts'
import { json } from '../../kernel/respond.ts'

export function meRoutes(routes: AppRoutes): void {
  routes.handle('me.get', (c) => json(c, presentUser(c.get('ctx').user)))

  routes.handle('me.update', (c) => json(c, presentUser(updateMe(c.get('ctx'), c.get('body') as UserUpdate))))

  routes.handle('me.teams.list', (c) => {
    const { store, user } = c.get('ctx')
    const teams = store.teamsOf(user.id).map((state) => state.team)
    return json(c, paginate(teams, c.get('query'), c.req.url, (team) => presentTeam(team, { identifier: false })))
  })
}
