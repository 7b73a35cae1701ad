// Routes are registered by operationId: method and path come from contracts/, so a route can
// never drift from its contract. Before the handler runs, the operation's gate checks the token
// and validates the query and body against the same contract.
import { Hono, type Handler } from 'hono'
import type { Contracts, JsonSchema } from '../contracts/load.ts'
import type { KernelEnv } from './env.ts'
import { unauthenticated } from './errors.ts'
import { expandOf } from './expand.ts'
import { checkBody, checkQuery, parseJsonBody, queryShapeOf, readQuery } from './validate.ts'

/** '/clients/{clientId}/files/{fileId}' -> '/clients/:clientId{[0-9]+}/files/:fileId{[0-9]+}' */
export function honoPath(path: string, parameters: Record<string, JsonSchema>): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    parameters[name]?.type === 'integer' ? `:${name}{[0-9]+}` : `:${name}`,
  )
}

export class Routes<P> {
  readonly app = new Hono<KernelEnv<P>>()

  constructor(private readonly contracts: Contracts) {}

  handle(operationId: string, handler: Handler<KernelEnv<P>>): void {
    const op = this.contracts.operation(operationId)
    const contracts = this.contracts
    const shape = queryShapeOf(contracts.querySchema(operationId))
    const takesBody = op.body !== undefined
    this.app.on(
      op.method,
      honoPath(op.path, contracts.parameters),
      async (c, next) => {
        const principal = c.get('principal')
        if (principal === undefined) throw unauthenticated()
        c.set('ctx', principal)
        const query = checkQuery(contracts.queryValidator(operationId), readQuery(new URL(c.req.url), shape))
        if (op.sort) query.sort_by ??= op.sort.default
        c.set('query', query)
        c.set('expand', expandOf(query))
        if (takesBody) {
          const validate = contracts.bodyValidator(operationId)
          if (validate) c.set('body', checkBody(validate, parseJsonBody(await c.req.text())))
        }
        await next()
      },
      handler,
    )
  }
}
