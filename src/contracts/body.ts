// How a body's bytes read as text and as JSON, in one place: the mock's gate and journal
// (kernel/body.ts, kernel/validate.ts, kernel/journal.ts) and the harness (the proxy, the runner, the
// webhook receiver, the Pact checks) read every body with this code, so one body gets one verdict.

const utf8 = new TextDecoder()

/**
 * A body's bytes as text: UTF-8, a byte-order mark dropped and a broken sequence read as U+FFFD,
 * as the WHATWG decoder does (Request.text(), Response.text()): what the service's framework reads
 * from a JSON body that starts with a byte-order mark is the JSON after it.
 */
export function bodyText(bytes: Uint8Array): string {
  return utf8.decode(bytes)
}

/** A JSON body as read: none (empty, or only white space), a JSON value, or text that is no JSON. */
export type JsonBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'malformed'; text: string }

export function readJsonBody(text: string): JsonBody {
  if (text.trim() === '') return { kind: 'none' }
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown }
  } catch {
    return { kind: 'malformed', text }
  }
}

/** The JSON value of a body's text, or undefined when it holds none or no JSON. */
export function jsonValueOf(text: string): unknown {
  const body = readJsonBody(text)
  return body.kind === 'json' ? body.value : undefined
}
