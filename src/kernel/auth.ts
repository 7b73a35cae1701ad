// Bearer authentication (docs/specification-notes.md "Authentication"): the token is read from the Authorization
// header only, never from the body or the query string.
import type { Context } from 'hono'
import type { KernelEnv } from './env.ts'

export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return match?.[1]
}

/**
 * Resolves the bearer token, if any, to a principal; operations reject a missing one with 401.
 * A step, not a middleware: app.ts runs it with the rate limit in one middleware level.
 */
export function identifier<P>(resolve: (token: string) => P | undefined): (c: Context<KernelEnv<P>>) => void {
  return (c) => {
    const token = bearerToken(c.req.header('Authorization'))
    c.set('principal', token === undefined ? undefined : resolve(token))
  }
}
