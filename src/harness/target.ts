// What the runner learns of a target without the control API from the API itself, with the tokens
// it was given: the current user (GET /me), the team (GET /team), each token's membership and role
// (GET /team/me), the user's teams (GET /me/teams) and the team's members with their roles
// (GET /team/members). {{users.<role>.id}} is the user of that role's token, or else a member of
// the team with that role: a scenario that only names a member (to assign them) needs no token.
import type { HttpClient } from './http.ts'
import { TOKEN_ROLES, type TokenRole } from './roles.ts'

export interface TeamMember {
  id: unknown
  name: unknown
  role: unknown
}

export interface User {
  id: unknown
  name: unknown
}

export interface TargetProfile {
  /** GET /team with the owner's token. */
  team?: { id: unknown; name: unknown }
  /** GET /me with the owner's token. */
  user?: User
  /** Each role's user: its token's (GET /team/me), else the team's first member with that role. */
  users: Partial<Record<TokenRole, User>>
  /** The role each given token has in its team (GET /team/me), when it answered. */
  tokenRoles: Partial<Record<TokenRole, string | null>>
  /** The team's members (GET /team/members, every page). */
  members: TeamMember[]
  /** The owner's user's teams (GET /me/teams). */
  teams: { id: unknown; name: unknown }[]
}

/** Roles a member of the team can have (other-team and legacy are other teams' owners). */
const MEMBER_ROLES: readonly TokenRole[] = ['owner', 'member', 'read-only', 'assigned-only', 'assumed']

/** Pages of a list read at most (100 items each): a team's members or teams, not its data. */
const LIST_PAGES = 20

async function allPages(http: HttpClient, url: string, token: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = []
  for (let page = 1; page <= LIST_PAGES; page++) {
    const list = (await http.json(`${url}?limit=100&page=${page}`, token)) as { data?: Record<string, unknown>[]; total_pages?: number } | undefined
    items.push(...(list?.data ?? []))
    if (!list || page >= (list.total_pages ?? 1)) break
  }
  return items
}

export async function learnTarget(http: HttpClient, base: string, tokens: Partial<Record<TokenRole, string>>): Promise<TargetProfile> {
  const profile: TargetProfile = { users: {}, tokenRoles: {}, members: [], teams: [] }
  for (const role of TOKEN_ROLES) {
    const token = tokens[role]
    if (!token) continue
    const membership = (await http.json(`${base}/team/me`, token)) as { id?: unknown; name?: unknown; role?: string | null } | undefined
    if (!membership) continue
    profile.users[role] = { id: membership.id, name: membership.name }
    profile.tokenRoles[role] = membership.role ?? null
  }
  const owner = tokens.owner
  if (!owner) return profile
  const user = (await http.json(`${base}/me`, owner)) as { id?: unknown; name?: unknown } | undefined
  if (user) profile.user = { id: user.id, name: user.name }
  const team = (await http.json(`${base}/team`, owner)) as { id?: unknown; name?: unknown } | undefined
  if (team) profile.team = { id: team.id, name: team.name }
  profile.teams = (await allPages(http, `${base}/me/teams`, owner)).map((item) => ({ id: item.id, name: item.name }))
  profile.members = (await allPages(http, `${base}/team/members`, owner)).map((item) => ({ id: item.id, name: item.name, role: item.role }))
  for (const role of MEMBER_ROLES) {
    if (profile.users[role]) continue
    const member = profile.members.find((candidate) => candidate.role === role)
    if (member) profile.users[role] = { id: member.id, name: member.name }
  }
  return profile
}

/** One line on whom the run acts as: the team, the owner's token's user and role, the other tokens. */
export function describeProfile(profile: TargetProfile, tokens: Partial<Record<TokenRole, string>>): string {
  const team = profile.team ? `team ${String(profile.team.name)} (${String(profile.team.id)})` : 'a team GET /team did not name'
  const roles = TOKEN_ROLES.filter((role) => tokens[role]).map((role) => {
    const user = profile.users[role]
    const actual = profile.tokenRoles[role]
    const mismatch = actual !== undefined && MEMBER_ROLES.includes(role) && actual !== role ? `, whose role there is ${actual ?? 'none (left the team)'}` : ''
    return user ? `${role}: ${String(user.name)} (${String(user.id)})${mismatch}` : `${role}: a token GET /team/me refused`
  })
  return `${team}; tokens for ${roles.join('; ')}`
}
