export { oauthControlRoutes } from './control.ts'
export { oauthRoutes } from './routes.ts'
export { oauthOf } from './store.ts'
export type { OAuthState } from './rows.ts'
