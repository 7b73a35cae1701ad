import type { TeamJson, TeamMemberJson } from '../../contracts/generated.ts'
import type { MemberRow, TeamRow, UserRow } from '../../store/identity.ts'

/** identifier is on the current-team answer only, not in the list of the user's teams (docs/specification-notes.md "User and team"). */
export function presentTeam(team: TeamRow, options: { identifier: boolean }): TeamJson {
  return {
    object: 'team' as const,
    id: team.id,
    ...(options.identifier ? { identifier: team.identifier } : {}),
    uuid: team.uuid,
    name: team.name,
    contact: team.contact,
    telephone: team.telephone,
    tier: team.tier,
    logo: null,
    is_support_enabled: team.is_support_enabled,
    created_at: team.created_at,
    updated_at: team.updated_at,
    archived_at: team.archived_at,
  }
}

export function presentMember(member: MemberRow, user: UserRow): TeamMemberJson {
  return { object: 'team_member' as const, id: user.id, name: user.name, email: user.email, role: member.role }
}
