// The assignee collections of clients, organisations and records: the same five operations on
// each parent, over the rules in service.ts (docs/specification-notes.md "Assignees"), registered by each
// parent's routes.ts with its own lookup (so assignees/ imports none of its parents). Cases have
// only the list (docs/specification-notes.md "Cases": their assignees are set outside the API, in the mock by its
// control API).
import type { AppRoutes, RequestContext } from '../../context.ts'
import { listObject, paginate } from '../../kernel/pagination.ts'
import type { Table } from '../../store/table.ts'
import type { Team } from '../../store/world.ts'
import { presentAssignee } from './present.ts'
import { addAssignees, getAssignee, removeAllAssignees, removeAssignee, replaceAssignees, type Assignable } from './service.ts'
import type { AssigneeRow } from './rows.ts'

/** docs/specification-notes.md "Wire details": an assignee add/replace answers with limit 100 (a body holds at most 100). */
const ACTION_LIMIT = 100

type Parent = Assignable
/** The parent's id in the path: {id}, or {clientId} / {recordId} beside {assigneeId}. */
export type ParentParams = { id?: number; clientId?: number; recordId?: number }

/** The five assignee operations of a parent (clients, organisations, records), found by find, changed through its table. */
export function assigneesRoutes<P extends Parent>(
  routes: AppRoutes,
  name: 'clients' | 'organisations' | 'records',
  find: (ctx: RequestContext, params: ParentParams) => P,
  tableOf: (team: Team) => Table<P>,
): void {
  const added = (ctx: RequestContext, parent: P, rows: AssigneeRow[], baseUrl: string) =>
    rows.length === 0 ? undefined : listObject(rows, ACTION_LIMIT, `${baseUrl}/${name}/${parent.id}/assignees`, (row) => presentAssignee(ctx, row))

  routes.handle(`${name}.assignees.list`, { find }, ({ ctx, found, query, url }) =>
    paginate(found.assignees, query, url, (row) => presentAssignee(ctx, row)),
  )

  routes.handle(`${name}.assignees.add`, { find }, ({ ctx, found, body, baseUrl }) => added(ctx, found, addAssignees(ctx, tableOf(ctx.team), found, body), baseUrl))

  routes.handle(`${name}.assignees.replace`, { find }, ({ ctx, found, body, baseUrl }) =>
    added(ctx, found, replaceAssignees(ctx, tableOf(ctx.team), found, body), baseUrl),
  )

  routes.handle(`${name}.assignees.deleteAll`, { find }, ({ ctx, found }) => {
    removeAllAssignees(tableOf(ctx.team), found)
  })

  // Both ids of the path are looked up before any role check, as Laravel binds nested routes: 404 first.
  const findAssignee = (ctx: RequestContext, params: ParentParams & { assigneeId: number }) => {
    const parent = find(ctx, params)
    return { parent, assignee: getAssignee(parent, params.assigneeId) }
  }
  routes.handle(`${name}.assignees.delete`, { find: findAssignee }, ({ ctx, found }) => {
    removeAssignee(tableOf(ctx.team), found.parent, found.assignee)
  })
}

/** A parent whose assignees can only be listed (cases). */
export function assigneesListRoute(routes: AppRoutes, name: 'cases', find: (ctx: RequestContext, params: { id: number }) => Parent): void {
  routes.handle(`${name}.assignees.list`, { find }, ({ ctx, found, query, url }) =>
    paginate(found.assignees, query, url, (row) => presentAssignee(ctx, row)),
  )
}
