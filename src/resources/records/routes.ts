import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { findClient } from '../clients/index.ts'
import { assigneesRoutes } from '../assignees/index.ts'
import { presentRecord } from './present.ts'
import { archiveRecord, expireRecord, findRecord, getRecord, listRecords, recordUpdateErrors, updateRecord } from './service.ts'

const record = { find: findRecord }

export function recordsRoutes(routes: AppRoutes): void {
  routes.handle('records.list', ({ ctx, query, url, expand, baseUrl }) =>
    paginate(listRecords(ctx, query), query, url, (row) => presentRecord(ctx, row, expand, baseUrl)),
  )

  routes.handle('records.get', record, ({ ctx, found, expand, baseUrl }) => presentRecord(ctx, found, expand, baseUrl))

  routes.handle('records.update', { ...record, rules: ({ ctx, body, passed }) => recordUpdateErrors(ctx, body, passed) }, ({ ctx, found, body, expand, baseUrl }) => presentRecord(ctx, updateRecord(ctx, found, body), expand, baseUrl))

  routes.handle('records.archive', record, ({ ctx, found, expand, baseUrl }) => presentRecord(ctx, archiveRecord(ctx, found), expand, baseUrl))

  routes.handle('records.expire', record, ({ ctx, found, expand, baseUrl }) => presentRecord(ctx, expireRecord(ctx, found), expand, baseUrl))

  // A client's records, in the records list's default order (created_at, oldest first).
  routes.handle('clients.records.list', { find: findClient }, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(
      listRecords(ctx, { ...query, order_by: 'asc', sort_by: 'created_at' }, ctx.team.recordsByClient.get(found.id)),
      query,
      url,
      (row) => presentRecord(ctx, row, expand, baseUrl),
    ),
  )

  // An assigned-only member manages only the records they see (assigned to them), like clients.
  assigneesRoutes(routes, 'records', (ctx, params) => getRecord(ctx, (params.id ?? params.recordId) as number), (team) => team.records)
}
