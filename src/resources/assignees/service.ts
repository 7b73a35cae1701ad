// Assignees: team members assigned to a client, an organisation or a record (docs/specification-notes.md "Assignees").
// The add/replace/remove rules live here once; each parent keeps its assignees in its own row.
import type { RequestContext } from '../../context.ts'
import type { AssigneesInputJson } from '../../contracts/generated.ts'
import { invalid, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import type { Table } from '../../store/table.ts'
import type { AssigneeRow } from './rows.ts'

export interface Assignable {
  readonly id: number
  readonly assignees: readonly AssigneeRow[]
}

/**
 * The assignees of something an assigned-only member creates: themselves, so they can go on
 * working on it (docs/behaviour-notes.md "Authentication and errors"); nobody for anyone else.
 */
export function assignCreator(ctx: RequestContext, at: string): AssigneeRow[] {
  return seesOnlyAssigned(ctx.member.role) ? [{ id: ctx.store.nextId('assignee'), user: ctx.user.id, created_at: at }] : []
}

/** The users assigned to a client, organisation or record (what its table's index by assignee keys it by). */
export function assignedUsers(holder: Assignable): readonly number[] {
  return holder.assignees.length === 0 ? NOBODY : holder.assignees.map((assignee) => assignee.user)
}
const NOBODY: readonly number[] = []

/** The users a body names, once each in order; a user who is not a member of the team is a 422 keyed by the item's path. */
function namedUsers(ctx: RequestContext, input: AssigneesInputJson): number[] {
  const errors: ValidationErrors = {}
  input.forEach((item, index) => {
    if (!ctx.team.member(item.team_member)) errors[`${index}.team_member`] = ['The selected team member is invalid.']
  })
  if (Object.keys(errors).length > 0) throw invalid(errors)
  return [...new Set(input.map((item) => item.team_member))]
}

function newAssignees(ctx: RequestContext, users: readonly number[]): AssigneeRow[] {
  const at = ctx.clock.timestamp()
  return users.map((user) => ({ id: ctx.store.nextId('assignee'), user, created_at: at }))
}

/**
 * Merges with the existing assignees; returns only those newly added. The holder's table is told
 * even when nothing was added (its indexes by assignee move the holder).
 */
export function addAssignees<P extends Assignable>(ctx: RequestContext, table: Table<P>, holder: P, input: AssigneesInputJson): AssigneeRow[] {
  const added = newAssignees(ctx, namedUsers(ctx, input).filter((user) => !holder.assignees.some((assignee) => assignee.user === user)))
  setAssignees(table, holder, [...holder.assignees, ...added])
  return added
}

/**
 * Swaps the complete set: assignees named again stay (same id), the others go; returns only those
 * newly added.
 */
export function replaceAssignees<P extends Assignable>(ctx: RequestContext, table: Table<P>, holder: P, input: AssigneesInputJson): AssigneeRow[] {
  const users = namedUsers(ctx, input)
  const kept = holder.assignees.filter((assignee) => users.includes(assignee.user))
  const added = newAssignees(ctx, users.filter((user) => !kept.some((assignee) => assignee.user === user)))
  setAssignees(table, holder, [...kept, ...added])
  return added
}

export function removeAllAssignees<P extends Assignable>(table: Table<P>, holder: P): void {
  setAssignees(table, holder, [])
}

/** The holder's assignees become `assignees`. */
export function setAssignees<P extends Assignable>(table: Table<P>, holder: P, assignees: readonly AssigneeRow[]): void {
  table.update(holder, (draft) => {
    draft.assignees = [...assignees]
  })
}

/** One assignee by its own id (not the user id): 404 Assignee not found. */
export function getAssignee(holder: Assignable, assigneeId: number): AssigneeRow {
  const assignee = holder.assignees.find((row) => row.id === assigneeId)
  if (!assignee) throw notFound('Assignee')
  return assignee
}

export function removeAssignee<P extends Assignable>(table: Table<P>, holder: P, assignee: AssigneeRow): void {
  setAssignees(table, holder, holder.assignees.filter((row) => row !== assignee))
}
