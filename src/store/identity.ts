// The world's own rows: who can call (users and their tokens), the teams and who is in them. The
// store resolves a token to these on every request, so they live with it; me/ and team/ present them.
import type { Role } from '../kernel/roles.ts'

export interface UserRow {
  id: number
  name: string
  email: string
  /** An email change waiting for the user's confirmation (docs/specification-notes.md "User and team"); not on the wire. */
  pending_email: string | null
  is_verified: boolean
  is_disabled: boolean
  created_at: string
  updated_at: string
}

/** A personal access token: one user, one team (docs/specification-notes.md "Authentication"). */
export interface TokenRow {
  token: string
  name: string
  user: number
  team: number
  created_at: string
  /** Tokens expire after a year (docs/specification-notes.md "Authentication"); null never expires. */
  expires_at: string | null
  revoked_at: string | null
}

export interface TeamRow {
  id: number
  identifier: string
  uuid: string
  name: string
  contact: string
  telephone: string | null
  tier: string
  is_support_enabled: boolean
  /** A legacy team works with clients and records only; cases answer 403 (docs/specification-notes.md "Cases"). Not on the wire. */
  cases_enabled: boolean
  /** The custom declaration feature: records may require the client's declaration. Not on the wire. */
  declaration_enabled: boolean
  created_at: string
  updated_at: string
  archived_at: string | null
}

export interface MemberRow {
  user: number
  /** null once the user has left the team (docs/specification-notes.md "Roles"); they still show where they were assigned. */
  role: Role | null
  joined_at: string
}
