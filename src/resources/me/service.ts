import type { RequestContext } from '../../context.ts'
import type { UserUpdateJson } from '../../contracts/generated.ts'
import { invalid } from '../../kernel/errors.ts'
import type { UserRow } from '../../store/identity.ts'

/**
 * PATCH /me. A new email waits for the user's confirmation through a message to the current
 * address, so the answer still shows the old one (spec); the password cannot be changed here.
 */
export function updateMe(ctx: RequestContext, update: UserUpdateJson): UserRow {
  const user = ctx.user
  if (update.email !== undefined) {
    const owner = ctx.store.userByEmail(update.email)
    if (owner && owner.id !== user.id) throw invalid({ email: ['The email has already been taken.'] })
  }
  let changed = false
  if (update.name !== undefined && update.name !== user.name) {
    user.name = update.name
    changed = true
  }
  if (update.email !== undefined) {
    const pending = update.email.toLowerCase() === user.email.toLowerCase() ? null : update.email
    if (pending !== user.pending_email) {
      user.pending_email = pending
      changed = true
    }
  }
  if (changed) user.updated_at = ctx.clock.timestamp()
  return user
}
