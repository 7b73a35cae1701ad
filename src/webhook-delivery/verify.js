// ivs-mock/webhooks (package.json "exports"): what a receiver needs to trust a delivery. Plain
// JavaScript with verify.d.ts beside it, so it is importable without a build step as
// `import { verifySignature } from 'ivs-mock/webhooks'`; the engine signs with the same sign().
import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The X-SVC-Signature of a delivery body: base64 of HMAC-SHA256 over the raw body bytes, keyed
 * with the webhook's secret as it is returned (its 64 characters as text).
 * @param {string | Uint8Array} rawBody
 * @param {string} secret
 * @returns {string}
 */
export function sign(rawBody, secret) {
  return createHmac('sha256', secret).update(rawBody).digest('base64')
}

/**
 * Whether an X-SVC-Signature header is the signature of the raw body with the secret. Compares in
 * constant time; false for a missing or malformed header. Verify the bytes as received, before
 * parsing: re-serialised JSON is not the same bytes.
 * @param {string | Uint8Array} rawBody
 * @param {string | string[] | null | undefined} signatureHeader
 * @param {string} secret
 * @returns {boolean}
 */
export function verifySignature(rawBody, signatureHeader, secret) {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader
  if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false
  const expected = Buffer.from(sign(rawBody, secret), 'utf8')
  const given = Buffer.from(header.trim(), 'utf8')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
