import type { Role } from '../../kernel/roles.ts'

export interface TeamRow {
  id: number
  identifier: string
  uuid: string
  name: string
  contact: string
  telephone: string | null
  tier: string
  is_support_enabled: boolean
  /** A legacy team works with clients and records only; cases answer 403 (spec). Not on the wire. */
  cases_enabled: boolean
  /** The custom declaration feature: records may require the client's declaration. Not on the wire. */
  declaration_enabled: boolean
  created_at: string
  updated_at: string
  archived_at: string | null
}

export interface MemberRow {
  user: number
  /** null once the user has left the team (FACTS.md "Roles"); they still show where they were assigned. */
  role: Role | null
  joined_at: string
}

/** A team member assigned to a client, record, case or organisation. */
export interface AssigneeRow {
  id: number
  user: number
  created_at: string
}
