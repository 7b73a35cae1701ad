import type { Context } from 'hono'
import type { AppEnv, AppRoutes } from '../../context.ts'
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

const clientId = (c: Context<AppEnv>) => Number(c.req.param('id'))

export function clientsRoutes(routes: AppRoutes): void {
  routes.handle('clients.list', (c) => {
    const ctx = c.var.ctx
    return c.json(paginate(listClients(ctx, c.var.query), c.var.query, c.req.url, (client) => presentClient(ctx, client)))
  })

  routes.handle('clients.create', (c) => {
    const ctx = c.var.ctx
    return c.json(presentClient(ctx, createClient(ctx, c.var.body as ClientInput)), 201)
  })

  routes.handle('clients.get', (c) => c.json(presentClient(c.var.ctx, getClient(c.var.ctx, clientId(c)))))

  routes.handle('clients.update', (c) => {
    const ctx = c.var.ctx
    return c.json(presentClient(ctx, updateClient(ctx, clientId(c), c.var.body as ClientInput)))
  })

  routes.handle('clients.delete', (c) => {
    deleteClient(c.var.ctx, clientId(c))
    return c.body(null, 204)
  })

  routes.handle('clients.address.get', (c) => c.json(presentAddress(getClient(c.var.ctx, clientId(c)).address)))

  routes.handle('clients.address.replace', (c) =>
    c.json(presentAddress(replaceAddress(c.var.ctx, clientId(c), c.var.body as AddressInput).address)),
  )
}
