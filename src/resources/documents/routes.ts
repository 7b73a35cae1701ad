// GET /documents: the team's library documents. Any role may read them.
import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentLibraryDocument } from './present.ts'
import { libraryDocuments } from './service.ts'

export function documentsRoutes(routes: AppRoutes): void {
  routes.handle('documents.list', ({ ctx, query, url, expand }) =>
    paginate(libraryDocuments(ctx, query.enabled), query, url, (document) => presentLibraryDocument(ctx, document, expand)),
  )
}
