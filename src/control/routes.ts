// The mock's control API under /_mock: what tests and demos need beyond the real API (DESIGN.md
// rule 7). It goes through the same contracts, gate and services as the API; it has no caller,
// so its context is the mock's services.
import type { Services } from '../context.ts'
import { notFound } from '../kernel/errors.ts'
import type { Routes } from '../kernel/operation.ts'
import { ROLES, type Role } from '../kernel/roles.ts'
import { archiveOrganisation, unarchiveOrganisation, type OrganisationRow } from '../resources/organisations/index.ts'
import { SDK_TOKEN_ALG, SDK_TOKEN_AUDIENCE, SDK_TOKEN_ISSUER, SDK_TOKEN_LIFETIME_SECONDS, sdkTokenKey } from '../resources/sdk-token/index.ts'
import { presentMember, presentTeam } from '../resources/team/index.ts'
import { addTeam } from '../seed/index.ts'
import type { Team } from '../store/world.ts'

export type ControlRoutes = Routes<Services>

/** Organisation ids are unique across teams, so one id names one team's organisation. */
function findOrganisation(services: Services, params: { id: number }): { team: Team; organisation: OrganisationRow } {
  for (const team of services.store.allTeams()) {
    const organisation = team.organisations.get(params.id)
    if (organisation) return { team, organisation }
  }
  throw notFound('Organisation')
}

const byRole = <T>(make: (role: Role) => T) => Object.fromEntries(ROLES.map((role) => [role, make(role)])) as Record<Role, T>

export function controlRoutes(routes: ControlRoutes): void {
  routes.handle('control.teams.create', ({ ctx, body }) => {
    const created = addTeam(ctx.store, ctx.random, ctx.clock.now(), {
      ...(body.name !== undefined && { name: body.name }),
      casesEnabled: body.cases,
      ...(body.generate !== undefined && { generate: body.generate }),
    })
    return {
      object: 'mock_team' as const,
      team: presentTeam(created.team.row, { identifier: true }),
      cases: created.team.row.cases_enabled,
      tokens: created.tokens,
      users: byRole((role) => presentMember(created.members[role], created.users[role])),
    }
  })

  routes.handle('control.teams.delete', ({ ctx, params }) => {
    if (!ctx.store.removeTeam(params.id)) throw notFound('Team')
  })

  routes.handle('control.organisations.archive', { find: findOrganisation }, ({ ctx, found }) =>
    archiveOrganisation({ ...ctx, team: found.team }, found.organisation),
  )

  routes.handle('control.sdkToken.key', ({ ctx }) => ({
    object: 'mock_sdk_token_key' as const,
    alg: SDK_TOKEN_ALG,
    issuer: SDK_TOKEN_ISSUER,
    audience: SDK_TOKEN_AUDIENCE,
    lifetime: SDK_TOKEN_LIFETIME_SECONDS,
    jwk: sdkTokenKey(ctx.store).jwk,
  }))

  routes.handle('control.organisations.unarchive', { find: findOrganisation }, ({ ctx, found }) =>
    unarchiveOrganisation({ ...ctx, team: found.team }, found.organisation),
  )
}
