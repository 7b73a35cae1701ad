// Request bodies read as text (JSON bodies, the OAuth token endpoint's form) under a size limit,
// counted while they arrive: a Content-Length over the limit is refused before a byte is read, and
// a body sent without one (chunked) as soon as it passes the limit, with the web server's 413 page
// (as uploads are, kernel/multipart.ts). Nothing larger than the limit is ever held in memory.
import type { Context } from 'hono'
import { bodyText } from '../contracts/body.ts'
import type { KernelEnv } from './env.ts'
import { HttpError, payloadTooLarge } from './errors.ts'

/**
 * The largest JSON (or form) body the mock reads unless told otherwise (--max-body): 1 MiB, nginx's
 * default client_max_body_size. The API's bodies are far smaller, and parsing costs time linear in
 * the body's keys (a megabyte of tiny keys takes a noticeable fraction of a second), so a larger
 * default would let one request hold up the server.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * The client went away (or its body stream broke) before the whole body arrived. Nobody is left
 * to read the answer, which is what a cut-short body would get anyway (it is no valid JSON); the
 * app logs one quiet line for it instead of an unexpected error.
 */
export class BodyCutShort extends HttpError {
  constructor(cause: unknown) {
    super(422, { errors: ['The request body must be valid JSON.'] }, {}, 'the client went away before its whole body arrived')
    this.cause = cause
  }
}

/**
 * The body as text, read by contracts/body.ts (UTF-8, a byte-order mark dropped), as the harness
 * reads what it sees on the wire. Throws the 413 page when it is larger than maxBytes, BodyCutShort
 * when it breaks off.
 *
 * `framed`: the request came off a socket, where Node's HTTP parser delivers no more body than its
 * Content-Length says. Such a body, declared within the limit, is read whole by the adapter's
 * Request.arrayBuffer(), straight from the socket: streaming it through request.body instead builds
 * a full web Request (an AbortController, a ReadableStream), which cost more than the rest of a
 * POST /clients (npm run bench). A body without a Content-Length (chunked), or one that did not
 * come off a socket, is counted while it arrives.
 */
export async function readBodyText(request: Request, maxBytes: number, framed = false): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) throw payloadTooLarge()
  if (framed && Number.isInteger(declared) && declared >= 0) {
    try {
      return bodyText(new Uint8Array(await request.arrayBuffer()))
    } catch (error) {
      throw new BodyCutShort(error)
    }
  }
  if (request.body === null) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>
    try {
      next = await reader.read()
    } catch (error) {
      throw new BodyCutShort(error)
    }
    if (next.done) break
    size += next.value.byteLength
    if (size > maxBytes) {
      // The rest is not read: the 413 closes the connection (as nginx does), so a client still sending stops.
      reader.cancel().catch(() => undefined)
      throw payloadTooLarge()
    }
    chunks.push(next.value)
  }
  return bodyText(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size))
}

/**
 * The request's body text, read once per request under the limit: whoever asks first (a fault
 * matching a body subset, or the operation's gate) reads it, and the journal keeps what was read.
 */
export function requestBodyText(c: Context<KernelEnv<any>>, maxBytes: number): Promise<string> {
  let text = c.get('bodyText')
  if (text === undefined) {
    text = readBodyText(c.req.raw, maxBytes, cameOffSocket(c))
    c.set('bodyText', text)
  }
  return text
}

/** Whether the request came off a socket (@hono/node-server puts the IncomingMessage in the env), not app.request() in process. */
export const cameOffSocket = (c: Context<KernelEnv<any>>): boolean => c.env?.incoming !== undefined
