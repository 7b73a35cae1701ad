export { SDK_TOKEN_ALG, SDK_TOKEN_AUDIENCE, SDK_TOKEN_ISSUER, SDK_TOKEN_LIFETIME_SECONDS, sdkTokenKey } from './key.ts'
export type { SdkTokenClaims } from './service.ts'
