// Faults on demand (contracts/control/teams.faults.json): a team's faults, kept by the kernel's
// Faults, which the API's gate consults on every request of the team.
import type { Services } from '../context.ts'
import { notFound } from '../kernel/errors.ts'
import type { Faults } from '../kernel/faults.ts'
import type { ControlRoutes } from './routes.ts'

/** The team a path names: 404 {"error": "Team not found"}. */
function findTeam(services: Services, params: { id: number }): number {
  if (!services.store.team(params.id)) throw notFound('Team')
  return params.id
}

export function faultsRoutes(routes: ControlRoutes, faults: Faults): void {
  routes.handle('control.faults.create', { find: findTeam, rules: ({ body, passed }) => faults.errors(body, passed) }, ({ ctx, found, body }) =>
    faults.add(found, body, ctx.clock.timestamp()),
  )

  routes.handle('control.faults.list', { find: findTeam }, ({ found }) => ({ object: 'list' as const, data: faults.list(found) }))

  routes.handle('control.faults.clear', { find: findTeam }, ({ found }) => {
    faults.clear(found)
  })

  routes.handle('control.faults.delete', { find: findTeam }, ({ found, params }) => {
    if (!faults.remove(found, params.faultId)) throw notFound('Fault')
  })
}
