// The key SDK tokens are signed with (HS256). It is derived from the world's seed, so it is the
// same for a given seeded world and survives a restart with --data (the seed is stored in the
// file), with nothing new to store. Anyone may compute it: this is a mock, and integrators who
// want to verify tokens get it from GET /_mock/sdk_token/key.
import { createHash, createHmac } from 'node:crypto'
import type { Store } from '../../store/world.ts'

export const SDK_TOKEN_ALG = 'HS256'
export const SDK_TOKEN_ISSUER = 'ivs-mock'
export const SDK_TOKEN_AUDIENCE = 'ivs-mock-sdk'
/** A token is valid for 60 minutes of the mock's clock (FACTS.md "Records and steps"). */
export const SDK_TOKEN_LIFETIME_SECONDS = 3600

export interface SdkTokenKey {
  /** The 32-byte HMAC secret. */
  secret: Uint8Array
  /** The RFC 7638 thumbprint of its JWK, sent as the tokens' kid. */
  kid: string
  jwk: { kty: 'oct'; kid: string; alg: typeof SDK_TOKEN_ALG; use: 'sig'; k: string }
}

const keys = new WeakMap<Store, { seed: number; key: SdkTokenKey }>()

/** HMAC-SHA256, keyed with "ivs-mock sdk_token", of the seed in decimal. */
export function deriveSdkTokenKey(seed: number): SdkTokenKey {
  const secret = createHmac('sha256', 'ivs-mock sdk_token').update(String(seed)).digest()
  const k = secret.toString('base64url')
  const kid = createHash('sha256').update(JSON.stringify({ k, kty: 'oct' })).digest('base64url')
  return { secret: new Uint8Array(secret), kid, jwk: { kty: 'oct', kid, alg: SDK_TOKEN_ALG, use: 'sig', k } }
}

/** The store's key, derived once. */
export function sdkTokenKey(store: Store): SdkTokenKey {
  const seed = store.data.seed
  const cached = keys.get(store)
  if (cached?.seed === seed) return cached.key
  const key = deriveSdkTokenKey(seed)
  keys.set(store, { seed, key })
  return key
}
