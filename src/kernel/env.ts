// Hono environment shared by every route: P is what a token resolves to (the app's request
// context); the kernel only needs to know whether there is one.
import type { Expand } from './expand.ts'
import type { Query } from './validate.ts'

export interface KernelEnv<P> {
  Bindings: {
    /** Set by @hono/node-server; absent under app.request(). */
    incoming?: { socket?: { remoteAddress?: string } }
  }
  Variables: {
    /** Who the bearer token belongs to, when it is valid. */
    principal: P | undefined
    /** The principal, guaranteed present inside an operation's handler. */
    ctx: P
    /** The validated, coerced query (page and limit defaulted on paged lists). */
    query: Query
    /** The validated JSON body, on operations that take one. */
    body: unknown
    expand: Expand
    /** Headers every answer carries (see respond.ts). */
    responseHeaders: Record<string, string> | undefined
  }
}
