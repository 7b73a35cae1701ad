// The key SDK tokens are signed with, derived from the world's seed (kernel/signing-key.ts);
// integrators who want to verify tokens get it from GET /_mock/sdk_token/key.
import { SIGNING_ALG, seededSigningKeys, type SigningKey } from '../../kernel/signing-key.ts'
import type { Store } from '../../store/world.ts'

export const SDK_TOKEN_ALG = SIGNING_ALG
export const SDK_TOKEN_ISSUER = 'ivs-mock'
export const SDK_TOKEN_AUDIENCE = 'ivs-mock-sdk'
/** A token is valid for 60 minutes of the mock's clock (docs/specification-notes.md "Downloads and SDK tokens"). */
export const SDK_TOKEN_LIFETIME_SECONDS = 3600

export const deriveSdkTokenKey = seededSigningKeys('ivs-mock sdk_token')

/** The store's key, derived once. */
export function sdkTokenKey(store: Store): SigningKey {
  return deriveSdkTokenKey(store.data.seed)
}
