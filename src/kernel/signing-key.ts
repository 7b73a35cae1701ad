// HS256 keys derived from the world's seed under a label (one label per kind of token), so a key is
// the same for a given seeded world and survives a restart with --data (the seed is stored in the
// file), with nothing new to store. Anyone may compute one: this is a mock, and the control API
// hands each key out for integrators who want to verify tokens.
import { createHash, createHmac } from 'node:crypto'

export const SIGNING_ALG = 'HS256'

export interface SigningKey {
  /** The 32-byte HMAC secret. */
  secret: Uint8Array
  /** The RFC 7638 thumbprint of its JWK, sent as the tokens' kid. */
  kid: string
  jwk: { kty: 'oct'; kid: string; alg: typeof SIGNING_ALG; use: 'sig'; k: string }
}

/** The keys of one label by seed: HMAC-SHA256, keyed with the label, of the seed in decimal; derived once per seed. */
export function seededSigningKeys(label: string): (seed: number) => SigningKey {
  const keys = new Map<number, SigningKey>()
  return (seed) => {
    let key = keys.get(seed)
    if (!key) {
      const secret = createHmac('sha256', label).update(String(seed)).digest()
      const k = secret.toString('base64url')
      const kid = createHash('sha256').update(JSON.stringify({ k, kty: 'oct' })).digest('base64url')
      key = { secret: new Uint8Array(secret), kid, jwk: { kty: 'oct', kid, alg: SIGNING_ALG, use: 'sig', k } }
      keys.set(seed, key)
    }
    return key
  }
}
