// The OAuth 2.0 state the mock keeps in the world (so --data persists it): API clients, the
// authorisation codes they were given, and the tokens issued for them. Codes and tokens name the
// user and team who granted access; revoked and used ones stay, so a second use can say why it fails.

/** An API client (docs/specification-notes.md "OAuth 2.0"): name shown on the consent page, where codes may be sent. */
export interface OAuthClientRow {
  /** The client id. */
  readonly id: string
  readonly name: string
  readonly secret: string
  readonly redirect_uris: readonly string[]
  readonly created_at: string
}

export interface OAuthCodeRow {
  readonly id: number
  readonly code: string
  readonly client: string
  readonly user: number
  readonly team: number
  readonly redirect_uri: string
  readonly created_at: string
  readonly expires_at: string
  /** Set when redeemed or revoked: a code works once. */
  readonly revoked_at: string | null
}

export interface OAuthAccessTokenRow {
  readonly id: number
  /** The JWT as issued: a request's bearer token is looked up by it, so no signature check runs per request. */
  readonly token: string
  readonly client: string
  readonly user: number
  readonly team: number
  readonly created_at: string
  readonly expires_at: string
  readonly revoked_at: string | null
}

export interface OAuthRefreshTokenRow {
  readonly id: number
  readonly token: string
  /** The id of the access token issued with it (a refresh revokes both). */
  readonly access_token: number
  readonly client: string
  readonly user: number
  readonly team: number
  readonly expires_at: string
  readonly revoked_at: string | null
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
