import type { AppRoutes, RequestContext } from '../../context.ts'
import { NO_EXPAND } from '../../kernel/expand.ts'
import { listObject, paginate } from '../../kernel/pagination.ts'
import { findClient, presentClient, type ClientRow } from '../clients/index.ts'
import { assigneesRoutes } from '../assignees/index.ts'
import { presentOrganisation } from './present.ts'
import type { OrganisationRow } from './rows.ts'
import {
  addClientOrganisations,
  clientOrganisationsErrors,
  clientOrganisations,
  createOrganisation,
  findMembership,
  findOrganisation,
  getOrganisation,
  listOrganisations,
  organisationClients,
  removeClientOrganisation,
  removeClientOrganisations,
  replaceClientOrganisations,
  updateOrganisation,
} from './service.ts'

const organisation = { find: findOrganisation }
const client = { find: findClient }

/** docs/specification-notes.md "Status codes and bodies": an add/replace answers its body's limit (at most 100 items), or 204 when nothing is new. */
const ACTION_LIMIT = 100

function joined(ctx: RequestContext, member: ClientRow, organisations: OrganisationRow[], baseUrl: string) {
  if (organisations.length === 0) return undefined
  const url = `${baseUrl}/clients/${member.id}/organisations`
  return listObject(organisations, ACTION_LIMIT, url, (row) => presentOrganisation(ctx, row, NO_EXPAND, baseUrl))
}

export function organisationsRoutes(routes: AppRoutes): void {
  routes.handle('organisations.list', ({ ctx, query, url, expand, baseUrl }) =>
    paginate(listOrganisations(ctx, query), query, url, (row) => presentOrganisation(ctx, row, expand, baseUrl)),
  )

  routes.handle('organisations.create', ({ ctx, body, baseUrl }) => presentOrganisation(ctx, createOrganisation(ctx, body), NO_EXPAND, baseUrl))

  routes.handle('organisations.get', organisation, ({ ctx, found, expand, baseUrl }) => presentOrganisation(ctx, found, expand, baseUrl))

  routes.handle('organisations.update', organisation, ({ ctx, found, body, baseUrl }) =>
    presentOrganisation(ctx, updateOrganisation(ctx, found, body), NO_EXPAND, baseUrl),
  )

  routes.handle('organisations.clients.list', organisation, ({ ctx, found, query, url }) =>
    paginate(organisationClients(ctx, found), query, url, (row) => presentClient(ctx, row)),
  )

  // A client's memberships are organisations, so their operations live here (docs/specification-notes.md "Clients").
  routes.handle('clients.organisations.list', client, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(clientOrganisations(ctx, found, query), query, url, (row) => presentOrganisation(ctx, row, expand, baseUrl)),
  )

  routes.handle('clients.organisations.add', { ...client, rules: ({ ctx, body, passed }) => clientOrganisationsErrors(ctx, body, passed) }, ({ ctx, found, body, baseUrl }) =>
    joined(ctx, found, addClientOrganisations(ctx, found, body), baseUrl),
  )

  routes.handle('clients.organisations.replace', { ...client, rules: ({ ctx, body, passed }) => clientOrganisationsErrors(ctx, body, passed) }, ({ ctx, found, body, baseUrl }) =>
    joined(ctx, found, replaceClientOrganisations(ctx, found, body), baseUrl),
  )

  routes.handle('clients.organisations.deleteAll', client, ({ ctx, found }) => removeClientOrganisations(ctx, found))

  routes.handle('clients.organisations.delete', { find: findMembership }, ({ ctx, found }) =>
    removeClientOrganisation(ctx, found.client, found.organisation),
  )

  assigneesRoutes(routes, 'organisations', (ctx, params) => getOrganisation(ctx, params.id as number), (team) => team.organisations)
}
