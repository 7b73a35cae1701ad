// The world's own rows: who can call (users and their tokens), the teams and who is in them. The
// store resolves a token to these on every request, so they live with it; me/ and team/ present them.
import type { Role } from '../kernel/roles.ts'

export interface UserRow {
  readonly id: number
  readonly name: string
  readonly email: string
  /** An email change waiting for the user's confirmation (docs/specification-notes.md "User and team"); not on the wire. */
  readonly pending_email: string | null
  readonly is_verified: boolean
  readonly is_disabled: boolean
  readonly created_at: string
  readonly updated_at: string
}

/** A personal access token: one user, one team (docs/specification-notes.md "Authentication"). */
export interface TokenRow {
  readonly token: string
  readonly name: string
  readonly user: number
  readonly team: number
  readonly created_at: string
  /** Tokens expire after a year (docs/specification-notes.md "Authentication"); null never expires. */
  readonly expires_at: string | null
  readonly revoked_at: string | null
}

export interface TeamRow {
  readonly id: number
  readonly identifier: string
  readonly uuid: string
  readonly name: string
  readonly contact: string
  readonly telephone: string | null
  readonly tier: string
  readonly is_support_enabled: boolean
  /** A legacy team works with clients and records only; cases answer 403 (docs/specification-notes.md "Cases"). Not on the wire. */
  readonly cases_enabled: boolean
  /** The custom declaration feature: records may require the client's declaration. Not on the wire. */
  readonly declaration_enabled: boolean
  readonly created_at: string
  readonly updated_at: string
  readonly archived_at: string | null
}

export interface MemberRow {
  readonly user: number
  /** null once the user has left the team (docs/specification-notes.md "Roles"); they still show where they were assigned. */
  readonly role: Role | null
  readonly joined_at: string
}
