// The OAuth state of one world with its indexes: API clients by id, codes and tokens by value. Every
// change goes through here so the indexes stay in step with the rows the world persists, and with
// --data every row added, revoked or dropped is recorded (src/store/changes.ts).
import { deleted, inserted, recording, touched } from '../store/changes.ts'
import { applyChange } from '../store/table.ts'
import type { Identity, Store } from '../store/world.ts'
import type { OAuthAccessTokenRow, OAuthClientRow, OAuthCodeRow, OAuthRefreshTokenRow, OAuthState } from './rows.ts'

/** A grant: who gave which client access, in which team. */
export interface Grant {
  client: string
  user: number
  team: number
}

const sameGrant = (row: Grant, grant: Grant) => row.client === grant.client && row.user === grant.user && row.team === grant.team

export class OAuthStore {
  readonly state: OAuthState
  private readonly clientsById = new Map<string, OAuthClientRow>()
  private readonly codesByValue = new Map<string, OAuthCodeRow>()
  private readonly accessByValue = new Map<string, OAuthAccessTokenRow>()
  private readonly accessById = new Map<number, OAuthAccessTokenRow>()
  private readonly refreshByValue = new Map<string, OAuthRefreshTokenRow>()

  constructor(private readonly store: Store) {
    this.state = store.data.oauth
    for (const client of this.state.clients) this.clientsById.set(client.id, client)
    for (const code of this.state.codes) this.codesByValue.set(code.code, code)
    for (const token of this.state.access_tokens) this.indexAccess(token)
    for (const token of this.state.refresh_tokens) this.refreshByValue.set(token.token, token)
    for (const key of ['clients', 'codes', 'access_tokens', 'refresh_tokens'] as const) store.track(this.state[key], `oauth.${key}`)
  }

  /** A code or token stops working at `at` (a code redeemed, a refresh token rotated, a grant revoked). */
  private revoke<T extends { readonly revoked_at: string | null }>(rows: readonly T[], row: T, at: string): void {
    applyChange<{ revoked_at: string | null }>(row, { revoked_at: at })
    if (recording.on) touched(rows, row)
  }

  private add<T extends object>(rows: T[], row: T): void {
    rows.push(row)
    if (recording.on) inserted(rows, row)
  }

  private indexAccess(token: OAuthAccessTokenRow): void {
    this.accessByValue.set(token.token, token)
    this.accessById.set(token.id, token)
  }

  client(id: string): OAuthClientRow | undefined {
    return this.clientsById.get(id)
  }

  clients(): readonly OAuthClientRow[] {
    return this.state.clients
  }

  addClient(client: OAuthClientRow): void {
    this.add(this.state.clients, client)
    this.clientsById.set(client.id, client)
  }

  code(value: string): OAuthCodeRow | undefined {
    return this.codesByValue.get(value)
  }

  addCode(code: OAuthCodeRow): void {
    this.add(this.state.codes, code)
    this.codesByValue.set(code.code, code)
  }

  accessToken(id: number): OAuthAccessTokenRow | undefined {
    return this.accessById.get(id)
  }

  refreshToken(value: string): OAuthRefreshTokenRow | undefined {
    return this.refreshByValue.get(value)
  }

  /** A code redeemed: it works once. */
  redeemCode(code: OAuthCodeRow, at: string): void {
    this.revoke(this.state.codes, code, at)
  }

  /** A refresh: the refresh token and the access token it came with stop working. */
  rotate(refresh: OAuthRefreshTokenRow, at: string): void {
    this.revoke(this.state.refresh_tokens, refresh, at)
    const access = this.accessById.get(refresh.access_token)
    if (access && access.revoked_at === null) this.revoke(this.state.access_tokens, access, at)
  }

  addTokens(access: OAuthAccessTokenRow, refresh: OAuthRefreshTokenRow): void {
    this.add(this.state.access_tokens, access)
    this.indexAccess(access)
    this.add(this.state.refresh_tokens, refresh)
    this.refreshByValue.set(refresh.token, refresh)
  }

  /** Revokes every code and token of a grant that still works (unexpired, unrevoked); returns how many of each. */
  revokeGrant(grant: Grant, at: string): { codes: number; access: number; refresh: number } {
    const revoke = (rows: ReadonlyArray<Grant & { readonly expires_at: string; readonly revoked_at: string | null }>) => {
      let count = 0
      for (const row of rows) {
        if (row.revoked_at !== null || row.expires_at <= at || !sameGrant(row, grant)) continue
        this.revoke(rows, row, at)
        count++
      }
      return count
    }
    return { codes: revoke(this.state.codes), access: revoke(this.state.access_tokens), refresh: revoke(this.state.refresh_tokens) }
  }

  /** Forgets every code and token granted in a team (the team is being dropped). */
  dropTeam(teamId: number): void {
    const keep = <T extends { team: number }>(rows: T[], forget: (row: T) => void) => {
      const kept = rows.filter((row) => row.team !== teamId)
      for (const row of rows) {
        if (row.team !== teamId) continue
        forget(row)
        if (recording.on) deleted(rows, row)
      }
      rows.length = 0
      for (const row of kept) rows.push(row)
    }
    keep(this.state.codes, (row) => this.codesByValue.delete(row.code))
    keep(this.state.access_tokens, (row) => {
      this.accessByValue.delete(row.token)
      this.accessById.delete(row.id)
    })
    keep(this.state.refresh_tokens, (row) => this.refreshByValue.delete(row.token))
  }

  /**
   * The user, team and membership an access token acts as, like Store.resolveToken for personal
   * tokens: undefined when unknown, revoked or expired, or when the user has left the team (the
   * role is read from the membership now, not when access was granted).
   */
  resolve(value: string, now: () => string): Identity | undefined {
    const row = this.accessByValue.get(value)
    if (!row || row.revoked_at !== null || row.expires_at <= now()) return undefined
    const user = this.store.user(row.user)
    const team = this.store.team(row.team)
    const member = team?.member(row.user)
    if (!user || user.is_disabled || !team || !member) return undefined
    const token = {
      token: row.token,
      name: this.clientsById.get(row.client)?.name ?? row.client,
      user: row.user,
      team: row.team,
      created_at: row.created_at,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
    }
    // member() answers current members only, whose role is set.
    return { token, user, team, member: member as Identity['member'] }
  }
}

const stores = new WeakMap<Store, OAuthStore>()

/** The world's OAuth state, indexed once. */
export function oauthOf(store: Store): OAuthStore {
  let oauth = stores.get(store)
  // A world reloaded from its data file (a save failed) has new OAuth rows to index.
  if (!oauth || oauth.state !== store.data.oauth) {
    oauth = new OAuthStore(store)
    stores.set(store, oauth)
  }
  return oauth
}
