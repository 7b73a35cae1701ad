// The assignee collections of clients, organisations and records: the same five operations on
// each parent, over the rules in service.ts (spec, Clients rule 5; FACTS.md). Cases have only the
// list (FACTS.md, Cases: their assignees are set outside the API, in the mock by its control API).
import type { AppRoutes, RequestContext } from '../../context.ts'
import { listObject, paginate } from '../../kernel/pagination.ts'
import { getCase } from '../cases/index.ts'
import { getClient } from '../clients/index.ts'
import { getOrganisation } from '../organisations/index.ts'
import { getRecord } from '../records/index.ts'
import { presentAssignee } from './present.ts'
import { addAssignees, getAssignee, removeAllAssignees, removeAssignee, replaceAssignees, type Assignable } from './service.ts'
import type { AssigneeRow } from './rows.ts'

/** FACTS.md: an assignee add/replace answers with limit 100 (a body holds at most 100). */
const ACTION_LIMIT = 100

type Parent = Assignable & { id: number }
/** The parent's id in the path: {id}, or {clientId} / {recordId} beside {assigneeId}. */
type ParentParams = { id?: number; clientId?: number; recordId?: number }

const PARENTS = [
  { name: 'clients', find: (ctx: RequestContext, params: ParentParams): Parent => getClient(ctx, (params.id ?? params.clientId) as number) },
  { name: 'organisations', find: (ctx: RequestContext, params: ParentParams): Parent => getOrganisation(ctx, params.id as number) },
  // An assigned-only member manages only the records they see (assigned to them), like clients.
  { name: 'records', find: (ctx: RequestContext, params: ParentParams): Parent => getRecord(ctx, (params.id ?? params.recordId) as number) },
] as const

/** Parents whose assignees can only be listed. */
const LIST_ONLY = [
  // A legacy team gets 403 first; then 404 Case not found, then 403 for an assigned-only member not assigned to it.
  { name: 'cases', find: (ctx: RequestContext, params: { id: number }): Parent => getCase(ctx, params.id) },
] as const

export function assigneesRoutes(routes: AppRoutes): void {
  for (const { name, find } of PARENTS) {
    const added = (ctx: RequestContext, parent: Parent, rows: AssigneeRow[], baseUrl: string) =>
      rows.length === 0 ? undefined : listObject(rows, ACTION_LIMIT, `${baseUrl}/${name}/${parent.id}/assignees`, (row) => presentAssignee(ctx, row))

    routes.handle(`${name}.assignees.list`, { find }, ({ ctx, found, query, url }) =>
      paginate(found.assignees, query, url, (row) => presentAssignee(ctx, row)),
    )

    routes.handle(`${name}.assignees.add`, { find }, ({ ctx, found, body, baseUrl }) => added(ctx, found, addAssignees(ctx, found, body), baseUrl))

    routes.handle(`${name}.assignees.replace`, { find }, ({ ctx, found, body, baseUrl }) =>
      added(ctx, found, replaceAssignees(ctx, found, body), baseUrl),
    )

    routes.handle(`${name}.assignees.deleteAll`, { find }, ({ found }) => removeAllAssignees(found))

    // Both ids of the path are looked up before any role check, as Laravel binds nested routes: 404 first.
    const findAssignee = (ctx: RequestContext, params: ParentParams & { assigneeId: number }) => {
      const parent = find(ctx, params)
      return { parent, assignee: getAssignee(parent, params.assigneeId) }
    }
    routes.handle(`${name}.assignees.delete`, { find: findAssignee }, ({ found }) => removeAssignee(found.parent, found.assignee))
  }
  for (const { name, find } of LIST_ONLY) {
    routes.handle(`${name}.assignees.list`, { find }, ({ ctx, found, query, url }) =>
      paginate(found.assignees, query, url, (row) => presentAssignee(ctx, row)),
    )
  }
}
