// GET /records/{id}/documents.
import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { findRecord } from '../records/index.ts'
import { presentRecordDocument } from './present.ts'
import { documentsOf } from './service.ts'

export function recordDocumentsRoutes(routes: AppRoutes): void {
  routes.handle('records.documents.list', { find: findRecord }, ({ ctx, found, query, expand, url }) =>
    paginate(documentsOf(ctx, found), query, url, (document) => presentRecordDocument(ctx, document, expand)),
  )
}
