import type { UserJson } from '../../contracts/generated.ts'
import type { UserRow } from '../../store/identity.ts'

export function presentUser(user: UserRow): UserJson {
  return {
    object: 'user' as const,
    id: user.id,
    name: user.name,
    email: user.email,
    is_verified: user.is_verified,
    is_disabled: user.is_disabled,
    created_at: user.created_at,
    updated_at: user.updated_at,
  }
}
