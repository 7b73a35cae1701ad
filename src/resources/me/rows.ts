export interface UserRow {
  id: number
  name: string
  email: string
  /** An email change waiting for the user's confirmation (spec, PATCH /me); not on the wire. */
  pending_email: string | null
  is_verified: boolean
  is_disabled: boolean
  created_at: string
  updated_at: string
}

/** A personal access token: one user, one team (spec "Authentication"). */
export interface TokenRow {
  token: string
  name: string
  user: number
  team: number
  created_at: string
  /** Tokens expire after a year (spec); null never expires. */
  expires_at: string | null
  revoked_at: string | null
}
