import type { Context } from 'hono'
import type { AppEnv, AppRoutes, RequestContext } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentAddress, presentClient } from './present.ts'
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  replaceAddress,
  updateClient,
  type AddressInput,
  type ClientInput,
} from './service.ts'
import { json, noContent } from '../../kernel/respond.ts'

const clientId = (c: Context<AppEnv>) => Number(c.req.param('id'))

/** The client the path names, for the gate's 404 before any input is validated. */
const client = { find: (ctx: RequestContext, params: Record<string, string>) => void getClient(ctx, Number(params.id)) }

export function clientsRoutes(routes: AppRoutes): void {
  routes.handle('clients.list', (c) => {
    const ctx = c.get('ctx')
    return json(c, paginate(listClients(ctx, c.get('query')), c.get('query'), c.req.url, (client) => presentClient(ctx, client)))
  })

  routes.handle('clients.create', (c) => {
    const ctx = c.get('ctx')
    return json(c, presentClient(ctx, createClient(ctx, c.get('body') as ClientInput)), 201)
  })

  routes.handle('clients.get', client, (c) => json(c, presentClient(c.get('ctx'), getClient(c.get('ctx'), clientId(c)))))

  routes.handle('clients.update', client, (c) => {
    const ctx = c.get('ctx')
    return json(c, presentClient(ctx, updateClient(ctx, clientId(c), c.get('body') as ClientInput)))
  })

  routes.handle('clients.delete', client, (c) => {
    deleteClient(c.get('ctx'), clientId(c))
    return noContent(c)
  })

  routes.handle('clients.address.get', client, (c) => json(c, presentAddress(getClient(c.get('ctx'), clientId(c)).address)))

  routes.handle('clients.address.replace', client, (c) =>
    json(c, presentAddress(replaceAddress(c.get('ctx'), clientId(c), c.get('body') as AddressInput).address)),
  )
}
