// One HTTP attempt of a delivery: a POST with a timeout, and what came back as the delivery log
// records it (docs/specification-notes.md "Webhooks"). Never throws: no HTTP answer is null.
import type { WebhookDeliveryJson } from '../contracts/generated.ts'

/** The most of a receiver's answer the log keeps; the rest is not read. */
export const RESPONSE_BODY_LIMIT = 64 * 1024

export type RecordedResponse = NonNullable<WebhookDeliveryJson['response']>

/** The first `limit` bytes of a body; a body that stops (timeout, reset) keeps what came. */
async function readLimited(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch {
    // The attempt's timeout or the receiver hanging up: what came is what is kept.
  } finally {
    reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8')
}

/** The parsed JSON answer; {} for an empty one (a 204); the text itself when it is not JSON. */
export function recordedBody(text: string): RecordedResponse['body'] {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as RecordedResponse['body']
  } catch {
    return text
  }
}

/**
 * POSTs the body and answers the receiver's response, or null when none came: connection refused
 * or reset, a bad URL, or no answer within timeoutMs (the whole attempt, reading included).
 * Redirects are not followed: a 3xx is an answer like any other, and not a success. `cancel` cuts
 * the attempt short (the mock is closing).
 */
export async function post(url: string, headers: Record<string, string>, body: Uint8Array, timeoutMs: number, cancel?: AbortSignal): Promise<RecordedResponse | null> {
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout })
    const text = await readLimited(response, RESPONSE_BODY_LIMIT)
    return { status_code: String(response.status), headers: Object.fromEntries(response.headers), body: recordedBody(text) }
  } catch {
    return null
  }
}

export const isSuccess = (response: RecordedResponse | null): boolean => response !== null && /^2\d\d$/.test(response.status_code)
