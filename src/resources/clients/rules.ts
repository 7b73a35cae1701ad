import { isAdmin, type RequestContext } from '../../context.ts'

/**
 * Spec, Clients rule 1: admins or members may delete a client; one with records only an admin.
 * Owners count as admins. is_deletable tells the caller whether they may delete it.
 */
export function canDeleteClient(ctx: RequestContext, hasRecords: boolean): boolean {
  return isAdmin(ctx) || (ctx.member.role === 'member' && !hasRecords)
}
