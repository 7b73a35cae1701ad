// The key access tokens are signed with (HS256), derived from the world's seed like the SDK
// tokens' key (under another label), so it is the same for a given seeded world and survives a
// restart with --data. Anyone may compute it: this is a mock; GET /_mock/oauth/key hands it out.
import { createHash, createHmac } from 'node:crypto'
import type { Store } from '../store/world.ts'

export const ACCESS_TOKEN_ALG = 'HS256'
export const ACCESS_TOKEN_ISSUER = 'ivs-mock'

export interface AccessTokenKey {
  secret: Uint8Array
  /** The RFC 7638 thumbprint of its JWK, sent as the tokens' kid. */
  kid: string
  jwk: { kty: 'oct'; kid: string; alg: typeof ACCESS_TOKEN_ALG; use: 'sig'; k: string }
}

const keys = new WeakMap<Store, { seed: number; key: AccessTokenKey }>()

/** HMAC-SHA256, keyed with "ivs-mock oauth", of the seed in decimal. */
function deriveKey(seed: number): AccessTokenKey {
  const secret = createHmac('sha256', 'ivs-mock oauth').update(String(seed)).digest()
  const k = secret.toString('base64url')
  const kid = createHash('sha256').update(JSON.stringify({ k, kty: 'oct' })).digest('base64url')
  return { secret: new Uint8Array(secret), kid, jwk: { kty: 'oct', kid, alg: ACCESS_TOKEN_ALG, use: 'sig', k } }
}

export function accessTokenKey(store: Store): AccessTokenKey {
  const seed = store.data.seed
  const cached = keys.get(store)
  if (cached?.seed === seed) return cached.key
  const key = deriveKey(seed)
  keys.set(store, { seed, key })
  return key
}
