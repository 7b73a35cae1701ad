// Hono environment shared by every route: P is what a token resolves to (the app's request
// context); the kernel only needs to know whether there is one.
import type { OperationContract } from '../contracts/load.ts'

export interface KernelEnv<P> {
  Bindings: {
    /** Set by @hono/node-server; absent under app.request(). */
    incoming?: { socket?: { remoteAddress?: string; destroy(): void } }
    /** Set by startMock()'s fetch: the request reached the app in its own process, through no socket. */
    inProcess?: true
  }
  Variables: {
    /** Who the bearer token belongs to, when it is valid. */
    principal: P | undefined
    /** Headers every answer carries (see respond.ts). */
    responseHeaders: Record<string, string> | undefined
    /** The operation the request reached, set by its gate (the journal reads it). */
    operation: OperationContract | undefined
    /** The fault that applied to the request, set by the gate (kernel/faults.ts). */
    fault: AppliedFault | undefined
    /** The JSON body as the gate reads it (the journal keeps it). */
    bodyText: Promise<string> | undefined
  }
}

/** A fault as it applied to one request: what the app does after the gate (hold the answer, drop the connection) and what the journal says. */
export interface AppliedFault {
  delayMs: number
  drop: boolean
  /** For the journal: which fault, and what it did. */
  description: string
}
