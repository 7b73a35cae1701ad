// The whole mock's state: users and tokens (global, as in the real service), and one isolated
// state per team, chosen by the token. Plain JSON, so lowdb can persist it as it is; the Store
// adds the indexes requests need.
import type { ClientRow } from '../resources/clients/rows.ts'
import type { CreditRow } from '../resources/credits/rows.ts'
import type { TokenRow, UserRow } from '../resources/me/rows.ts'
import type { OrganisationRow } from '../resources/organisations/rows.ts'
import type { RecordRow } from '../resources/records/rows.ts'
import type { MemberRow, TeamRow } from '../resources/team/rows.ts'

/** Bumped when the stored shape changes, so an old --data file is refused with a clear message. */
export const WORLD_FORMAT = 1

export interface TeamState {
  team: TeamRow
  members: MemberRow[]
  clients: ClientRow[]
  organisations: OrganisationRow[]
  credits: CreditRow[]
  records: RecordRow[]
}

/** A team with nothing in it yet. */
export function newTeamState(team: TeamRow): TeamState {
  return { team, members: [], clients: [], organisations: [], credits: [], records: [] }
}

/** Ids are unique across the whole service, like the real one's, so another team's id is a 404. */
export type SequenceName = 'user' | 'team' | 'client' | 'organisation' | 'credit' | 'assignee' | 'record'

export interface WorldData {
  format: typeof WORLD_FORMAT
  seed: number
  sequences: Partial<Record<SequenceName, number>>
  users: UserRow[]
  tokens: TokenRow[]
  teams: TeamState[]
}

export interface Identity {
  token: TokenRow
  user: UserRow
  team: TeamState
  member: MemberRow
}

export class Store {
  private readonly tokens = new Map<string, TokenRow>()
  private readonly users = new Map<number, UserRow>()
  private readonly teams = new Map<number, TeamState>()

  constructor(readonly data: WorldData) {
    for (const user of data.users) this.users.set(user.id, user)
    for (const token of data.tokens) this.tokens.set(token.token, token)
    for (const team of data.teams) this.teams.set(team.team.id, team)
  }

  nextId(sequence: SequenceName): number {
    const next = (this.data.sequences[sequence] ?? 0) + 1
    this.data.sequences[sequence] = next
    return next
  }

  user(id: number): UserRow | undefined {
    return this.users.get(id)
  }

  userByEmail(email: string): UserRow | undefined {
    const wanted = email.toLowerCase()
    return this.data.users.find((user) => user.email.toLowerCase() === wanted)
  }

  team(id: number): TeamState | undefined {
    return this.teams.get(id)
  }

  teamsOf(userId: number): TeamState[] {
    return this.data.teams.filter((state) => state.members.some((member) => member.user === userId))
  }

  addUser(user: UserRow): void {
    this.data.users.push(user)
    this.users.set(user.id, user)
  }

  addToken(token: TokenRow): void {
    this.data.tokens.push(token)
    this.tokens.set(token.token, token)
  }

  addTeam(team: TeamState): void {
    this.data.teams.push(team)
    this.teams.set(team.team.id, team)
  }

  /**
   * A token's user, team and membership; undefined when unknown, revoked, expired or orphaned.
   * now is only asked for when the token can expire (this runs on every request).
   */
  resolveToken(value: string, now: () => string): Identity | undefined {
    const token = this.tokens.get(value)
    if (!token || token.revoked_at !== null) return undefined
    if (token.expires_at !== null && token.expires_at <= now()) return undefined
    const user = this.users.get(token.user)
    const team = this.teams.get(token.team)
    const member = team?.members.find((m) => m.user === token.user)
    if (!user || user.is_disabled || !team || !member) return undefined
    return { token, user, team, member }
  }
}
