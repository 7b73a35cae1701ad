import type { RequestContext, TeamContext } from '../../context.ts'
import type { TeamUpdateJson } from '../../contracts/generated.ts'
import { matchesSearch, searchWords } from '../../kernel/search.ts'
import type { MemberRow, TeamRow, UserRow } from '../../store/identity.ts'
import type { Draft } from '../../store/table.ts'

/** Owners may change the team's contact details (checked by the route). */
export function updateTeam(ctx: RequestContext, update: TeamUpdateJson): TeamRow {
  const team = ctx.team.row
  const change: Draft<Partial<TeamRow>> = {}
  if (update.contact !== undefined && update.contact !== team.contact) change.contact = update.contact
  if (update.telephone !== undefined && update.telephone !== team.telephone) change.telephone = update.telephone
  return Object.keys(change).length === 0 ? team : ctx.team.updateRow({ ...change, updated_at: ctx.clock.timestamp() })
}

export interface Member {
  member: MemberRow
  user: UserRow
}

/** The team's current members (not those who left) in user id order, optionally filtered by a fuzzy search on their name. */
export function listMembers(ctx: RequestContext, search?: string): Member[] {
  const words = search ? searchWords(search) : []
  return ctx.team.members
    .filter((member) => member.role !== null)
    .map((member) => ({ member, user: ctx.store.user(member.user) as UserRow }))
    .filter(({ user }) => words.length === 0 || matchesSearch(words, [user.name]))
    .sort((a, b) => a.user.id - b.user.id)
}

/** A user as a team member of the caller's team: role null when they have left it. */
export function memberOf(ctx: TeamContext, userId: number): Member | undefined {
  const member = ctx.team.membership(userId)
  const user = ctx.store.user(userId)
  return member && user ? { member, user } : undefined
}
