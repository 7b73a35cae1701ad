import type { RequestContext } from '../../context.ts'
import type { UserUpdateJson } from '../../contracts/generated.ts'
import { assertValid, everyKeyPassed, type ValidationErrors } from '../../kernel/errors.ts'
import type { UserRow } from '../../store/identity.ts'
import type { Draft } from '../../store/table.ts'

/**
 * PATCH /me. A new email waits for the user's confirmation through a message to the current
 * address, so the answer still shows the old one (docs/specification-notes.md "User and team"); the password cannot be changed here.
 */
/** PATCH /me beyond its contract: an email of another user is taken (Laravel's unique rule), merged by the gate with the schema's errors. */
export function updateMeErrors(ctx: RequestContext, update: UserUpdateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  if (update.email === undefined || !passed('email')) return {}
  const owner = ctx.store.userByEmail(update.email)
  return owner && owner.id !== ctx.user.id ? { email: ['The email has already been taken.'] } : {}
}

export function updateMe(ctx: RequestContext, update: UserUpdateJson): UserRow {
  const user = ctx.user
  assertValid(updateMeErrors(ctx, update))
  const change: Draft<Partial<UserRow>> = {}
  if (update.name !== undefined && update.name !== user.name) change.name = update.name
  if (update.email !== undefined) {
    const pending = update.email.toLowerCase() === user.email.toLowerCase() ? null : update.email
    if (pending !== user.pending_email) change.pending_email = pending
  }
  return Object.keys(change).length === 0 ? user : ctx.store.updateUser(user, { ...change, updated_at: ctx.clock.timestamp() })
}
