// Hono environment shared by every route: P is what a token resolves to (the app's request
// context); the kernel only needs to know whether there is one.
import type { OperationContract } from '../contracts/load.ts'

export interface KernelEnv<P> {
  Bindings: {
    /** Set by @hono/node-server; absent under app.request(). */
    incoming?: { socket?: { remoteAddress?: string } }
  }
  Variables: {
    /** Who the bearer token belongs to, when it is valid. */
    principal: P | undefined
    /** Headers every answer carries (see respond.ts). */
    responseHeaders: Record<string, string> | undefined
    /** The operation the request reached, set by its gate (the journal reads it). */
    operation: OperationContract | undefined
    /** The JSON body as the gate reads it (the journal keeps it). */
    bodyText: Promise<string> | undefined
  }
}
