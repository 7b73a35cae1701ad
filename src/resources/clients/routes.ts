import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { assigneesRoutes } from '../assignees/index.ts'
import { presentAddress, presentClient } from './present.ts'
import { createClient, deleteClient, findClient, getClient, listClients, replaceAddress, updateClient } from './service.ts'

/** The client the path names, looked up before the input is validated (404, or 403 for assigned-only). */
const client = { find: findClient }

export function clientsRoutes(routes: AppRoutes): void {
  routes.handle('clients.list', ({ ctx, query, url }) => paginate(listClients(ctx, query), query, url, (row) => presentClient(ctx, row)))

  routes.handle('clients.create', ({ ctx, body }) => presentClient(ctx, createClient(ctx, body)))

  routes.handle('clients.get', client, ({ ctx, found }) => presentClient(ctx, found))

  routes.handle('clients.update', client, ({ ctx, found, body }) => presentClient(ctx, updateClient(ctx, found, body)))

  routes.handle('clients.delete', client, ({ ctx, found }) => deleteClient(ctx, found))

  routes.handle('clients.address.get', client, ({ found }) => presentAddress(found.address))

  routes.handle('clients.address.replace', client, ({ ctx, found, body }) => presentAddress(replaceAddress(ctx, found, body).address))

  assigneesRoutes(routes, 'clients', (ctx, params) => getClient(ctx, (params.id ?? params.clientId) as number), (team) => team.clients)
}
