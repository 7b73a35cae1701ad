// The OAuth 2.0 state the mock keeps in the world (so --data persists it): API clients, the
// authorisation codes they were given, and the tokens issued for them. Codes and tokens name the
// user and team who granted access; revoked and used ones stay, so a second use can say why it fails.

/** An API client (docs/specification-notes.md "OAuth 2.0"): name shown on the consent page, where codes may be sent. */
export interface OAuthClientRow {
  /** The client id. */
  id: string
  name: string
  secret: string
  redirect_uris: string[]
  created_at: string
}

export interface OAuthCodeRow {
  id: number
  code: string
  client: string
  user: number
  team: number
  redirect_uri: string
  created_at: string
  expires_at: string
  /** Set when redeemed or revoked: a code works once. */
  revoked_at: string | null
}

export interface OAuthAccessTokenRow {
  id: number
  /** The JWT as issued: a request's bearer token is looked up by it, so no signature check runs per request. */
  token: string
  client: string
  user: number
  team: number
  created_at: string
  expires_at: string
  revoked_at: string | null
}

export interface OAuthRefreshTokenRow {
  id: number
  token: string
  /** The id of the access token issued with it (a refresh revokes both). */
  access_token: number
  client: string
  user: number
  team: number
  expires_at: string
  revoked_at: string | null
}

export interface OAuthState {
  clients: OAuthClientRow[]
  codes: OAuthCodeRow[]
  access_tokens: OAuthAccessTokenRow[]
  refresh_tokens: OAuthRefreshTokenRow[]
}

// The world keeps the OAuth state beside the teams; the store itself knows nothing of it.
declare module '../store/world.ts' {
  interface WorldData {
    /** API clients, codes and tokens of the OAuth 2.0 flow (src/oauth/). */
    oauth: OAuthState
  }
  interface IdSequences {
    oauth_token: true
  }
}
