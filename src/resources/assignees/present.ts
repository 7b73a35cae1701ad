import type { AssigneeJson } from '../../contracts/generated.ts'
import type { TeamContext } from '../../context.ts'
import { listRelation } from '../../kernel/expand.ts'
import { memberOf, presentMember } from '../team/index.ts'
import type { AssigneeRow } from './rows.ts'

function teamMember(ctx: TeamContext, userId: number) {
  const found = memberOf(ctx, userId)
  if (!found) throw new Error(`assignee: user ${userId} was never in team ${ctx.team.id}`)
  return presentMember(found.member, found.user)
}

export function presentAssignee(ctx: TeamContext, row: AssigneeRow): AssigneeJson {
  return { object: 'assignee' as const, id: row.id, type: 'team_member' as const, team_member: teamMember(ctx, row.user) }
}

/**
 * The assignees property of an organisation or a case: user ids when collapsed; when
 * expanded, a list object of team members (not assignee records) over the assignees collection.
 */
export function presentAssigneesRelation<L extends number>(ctx: TeamContext, rows: readonly AssigneeRow[], expanded: boolean, page: { limit: L; url: string }) {
  return listRelation(rows, expanded, page, (row) => row.user, (row) => teamMember(ctx, row.user))
}
