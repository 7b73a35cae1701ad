// The OAuth state of a freshly seeded world: the API clients of fixtures/world.json, nothing granted yet.
import type { OAuthState } from '../oauth/index.ts'
import type { WorldFixture } from './fixture.ts'

export function seededOAuthState(clients: WorldFixture['oauth_clients'], createdAt: string): OAuthState {
  return {
    clients: clients.map((client) => ({ id: client.client_id, name: client.name, secret: client.client_secret, redirect_uris: [...client.redirect_uris], created_at: createdAt })),
    codes: [],
    access_tokens: [],
    refresh_tokens: [],
  }
}
