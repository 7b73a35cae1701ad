import type { RequestContext } from '../../context.ts'
import { ownsTeam } from '../../kernel/roles.ts'

/**
 * docs/specification-notes.md "Roles": owners (the specification's "Admin users", and support acting
 * as one) may delete any client; members and assigned-only members only a client without records;
 * read-only members none. is_deletable tells the caller whether they may delete it.
 */
export function canDeleteClient(ctx: RequestContext, hasRecords: boolean): boolean {
  const role = ctx.member.role
  if (ownsTeam(role)) return true
  return (role === 'member' || role === 'assigned-only') && !hasRecords
}
