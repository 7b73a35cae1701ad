// Every API answer is built here, with plain-object headers. Hono turns more than one header
// into a Headers object, which sends @hono/node-server down its slow path: about 13% of the
// throughput of GET /clients/{id} (npm run bench). Middleware that adds headers to every answer
// (the rate limit) leaves them in the context's responseHeaders.
import type { Context } from 'hono'
import type { Binary } from './binary.ts'
import type { KernelEnv } from './env.ts'

type AnyContext = Context<KernelEnv<any>>

export function json(c: AnyContext, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...c.get('responseHeaders'), ...headers },
  })
}

export function noContent(c: AnyContext): Response {
  return new Response(null, { status: 204, headers: { ...c.get('responseHeaders') } })
}

export function binary(c: AnyContext, answer: Binary, status = 200): Response {
  const headers: Record<string, string> = { 'content-type': answer.type, ...c.get('responseHeaders') }
  if (answer.filename !== undefined) headers['content-disposition'] = `attachment; filename="${answer.filename.replace(/["\\]/g, '_')}"`
  return new Response(answer.bytes, { status, headers })
}
