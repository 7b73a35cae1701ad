// Routes are registered by operationId: method and path come from contracts/, so a route can
// never drift from its contract. Before the handler runs, the operation's gate checks the token,
// what the path names and the caller's role, then validates the query and body against the same
// contract, in the order Laravel reports them.
import { Hono, type Handler } from 'hono'
import type { Contracts, JsonSchema } from '../contracts/load.ts'
import type { KernelEnv } from './env.ts'
import { forbidden, unauthenticated } from './errors.ts'
import { expandOf } from './expand.ts'
import { checkBody, checkQuery, parseJsonBody, queryShapeOf, readQuery } from './validate.ts'

/** '/clients/{clientId}/files/{fileId}' -> '/clients/:clientId{[0-9]+}/files/:fileId{[0-9]+}' */
export function honoPath(path: string, parameters: Record<string, JsonSchema>): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    parameters[name]?.type === 'integer' ? `:${name}{[0-9]+}` : `:${name}`,
  )
}

export interface OperationOptions<P> {
  /**
   * Looks up what the path names and throws its 404 (or 403 for something the caller may not
   * see): like Laravel's route binding, this comes before the input is validated.
   */
  find?: (ctx: P, params: Record<string, string>) => void
  /** A role check that answers 403 before the input is validated, like FormRequest::authorize. */
  authorize?: (ctx: P) => boolean
}

export class Routes<P> {
  readonly app = new Hono<KernelEnv<P>>()

  constructor(private readonly contracts: Contracts) {}

  /** Serves an operation: 401, then find (404), then authorize (403), then query and body (422). */
  handle(operationId: string, handler: Handler<KernelEnv<P>>): void
  handle(operationId: string, options: OperationOptions<P>, handler: Handler<KernelEnv<P>>): void
  handle(operationId: string, ...args: [Handler<KernelEnv<P>>] | [OperationOptions<P>, Handler<KernelEnv<P>>]): void {
    const [options, handler] = args.length === 1 ? [{} as OperationOptions<P>, args[0]] : args
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
        options.find?.(principal, c.req.param())
        if (options.authorize && !options.authorize(principal)) throw forbidden()
        const url = c.req.url
        const start = url.indexOf('?')
        const raw = start === -1 ? {} : readQuery(new URLSearchParams(url.slice(start + 1)), shape)
        const query = checkQuery(contracts.queryValidator(operationId), raw)
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
