// Every API answer is built here, with plain-object headers. Hono turns more than one header
// into a Headers object, which sends @hono/node-server down its slow path: about 13% of the
// throughput of GET /clients/{id} (npm run bench). Middleware that adds headers to every answer
// (the rate limit) leaves them in the context's responseHeaders.
import type { Context } from 'hono'
import type { Binary } from '../contracts/binary.ts'
import type { KernelEnv } from './env.ts'
import { jsonBody } from './json-text.ts'

type AnyContext = Context<KernelEnv<any>>

export function json(c: AnyContext, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(c, jsonBody(body, c.req.method === 'GET'), status, headers)
}

/** An answer whose JSON is already written (kernel/json-text.ts, or a kept answer: kernel/answer-cache.ts). */
export function jsonText(c: AnyContext, text: string | Buffer, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json', ...c.get('responseHeaders'), ...headers },
  })
}

export function noContent(c: AnyContext): Response {
  return new Response(null, { status: 204, headers: { ...c.get('responseHeaders') } })
}

/** A UTF-16 surrogate without its other half: no character, and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** RFC 5987's attr-char is narrower than what encodeURIComponent leaves as it is. */
const percentEncoded = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * The download's file name (RFC 6266): as it is when plain printable ASCII; otherwise an ASCII
 * stand-in for old clients (accents dropped, anything else `_`) and the real name, UTF-8 and
 * percent-encoded, in filename*. Any string works, a lone surrogate (shown as U+FFFD) or a
 * control character included: header values cannot carry those as they are.
 */
function contentDisposition(filename: string): string {
  const plain = filename.replace(/["\\]/g, '_')
  if (/^[\x20-\x7e]*$/.test(plain)) return `attachment; filename="${plain}"`
  const wellFormed = filename.replace(LONE_SURROGATE, '\ufffd')
  const fallback = plain.replace(LONE_SURROGATE, '_').normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\x20-\x7e]/gu, '_')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${percentEncoded(wellFormed)}`
}

export function binary(c: AnyContext, answer: Binary, status = 200): Response {
  const headers: Record<string, string> = { 'content-type': answer.type, ...c.get('responseHeaders') }
  if (answer.size !== undefined) headers['content-length'] = String(answer.size)
  if (answer.filename !== undefined) headers['content-disposition'] = contentDisposition(answer.filename)
  return new Response(answer.bytes, { status, headers })
}

/** An HTML page (the web server's own error pages). */
export function html(c: AnyContext, page: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(page, { status, headers: { 'content-type': 'text/html', ...c.get('responseHeaders'), ...headers } })
}
