// The control API's OAuth operations (contracts/control/oauth.json): register API clients, grant
// and revoke access without a browser (CI), and the key that verifies access tokens.
import type { Services } from '../context.ts'
import { invalid } from '../kernel/errors.ts'
import type { Routes } from '../kernel/operation.ts'
import type { Identity } from '../store/world.ts'
import { ACCESS_TOKEN_ALG, ACCESS_TOKEN_ISSUER, accessTokenKey } from './key.ts'
import type { OAuthClientRow } from './rows.ts'
import { ACCESS_TOKEN_LIFETIME_SECONDS, grantCode } from './service.ts'
import { oauthOf } from './store.ts'

const presentClient = (client: OAuthClientRow) => ({
  object: 'mock_oauth_client' as const,
  client_id: client.id,
  client_secret: client.secret,
  name: client.name,
  redirect_uris: [...client.redirect_uris],
  created_at: client.created_at,
})

function knownClient(services: Services, clientId: string): OAuthClientRow {
  const client = oauthOf(services.store).client(clientId)
  if (!client) throw invalid({ client_id: ['The selected client id is invalid.'] })
  return client
}

/** The user and team a personal access token names (who grants or revokes). */
function tokenOwner(services: Services, token: string): Identity {
  const identity = services.store.resolveToken(token, services.clock.timestamp)
  if (!identity) throw invalid({ token: ['The token is not a valid personal access token.'] })
  return identity
}

export function oauthControlRoutes(routes: Routes<Services>): void {
  routes.handle('control.oauth.clients.list', ({ ctx }) => ({ object: 'list' as const, data: oauthOf(ctx.store).clients().map(presentClient) }))

  routes.handle('control.oauth.clients.create', ({ ctx, body }) => {
    const client: OAuthClientRow = {
      id: ctx.random.uuid(),
      name: body.name,
      secret: ctx.random.hex(40),
      redirect_uris: body.redirect_uris,
      created_at: ctx.clock.timestamp(),
    }
    oauthOf(ctx.store).addClient(client)
    return presentClient(client)
  })

  routes.handle('control.oauth.authorize', ({ ctx, body }) => {
    const client = knownClient(ctx, body.client_id)
    if (!client.redirect_uris.includes(body.redirect_uri)) throw invalid({ redirect_uri: ['The redirect uri is not one the client registered.'] })
    const owner = tokenOwner(ctx, body.token)
    const { code, redirect } = grantCode(ctx, client, body.redirect_uri, { user: owner.user.id, team: owner.team.id }, body.state)
    return { object: 'mock_oauth_authorization' as const, code: code.code, redirect, expires_at: code.expires_at }
  })

  routes.handle('control.oauth.revoke', ({ ctx, body }) => {
    const client = knownClient(ctx, body.client_id)
    const owner = tokenOwner(ctx, body.token)
    const grant = { client: client.id, user: owner.user.id, team: owner.team.id }
    const revoked = oauthOf(ctx.store).revokeGrant(grant, ctx.clock.timestamp())
    return {
      object: 'mock_oauth_revocation' as const,
      client_id: client.id,
      user: grant.user,
      team: grant.team,
      revoked_access_tokens: revoked.access,
      revoked_refresh_tokens: revoked.refresh,
      revoked_codes: revoked.codes,
    }
  })

  routes.handle('control.oauth.key', ({ ctx }) => ({
    object: 'mock_oauth_key' as const,
    alg: ACCESS_TOKEN_ALG,
    issuer: ACCESS_TOKEN_ISSUER,
    lifetime: ACCESS_TOKEN_LIFETIME_SECONDS,
    jwk: accessTokenKey(ctx.store).jwk,
  }))
}
