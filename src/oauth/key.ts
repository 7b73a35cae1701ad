// The key access tokens are signed with: derived from the world's seed like the SDK tokens' key,
// under another label. GET /_mock/oauth/key hands it out.
import { SIGNING_ALG, seededSigningKeys, type SigningKey } from '../kernel/signing-key.ts'
import type { Store } from '../store/world.ts'

export const ACCESS_TOKEN_ALG = SIGNING_ALG
export const ACCESS_TOKEN_ISSUER = 'ivs-mock'

const keyOfSeed = seededSigningKeys('ivs-mock oauth')

export function accessTokenKey(store: Store): SigningKey {
  return keyOfSeed(store.data.seed)
}
