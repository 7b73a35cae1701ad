// GET /files, and a client's files: GET, POST /clients/{id}/files, DELETE and download of one.
import type { AppRoutes } from '../../context.ts'
import { NO_EXPAND } from '../../kernel/expand.ts'
import { paginate } from '../../kernel/pagination.ts'
import { findClient } from '../clients/index.ts'
import { presentFile, type FileSourcePresenters } from './present.ts'
import { clientFileErrors, createClientFile, deleteClientFile, downloadClientFile, findClientFile, listClientFiles, listFiles } from './service.ts'

const someClient = { find: findClient }
const someFile = { find: findClientFile }

/** sources: how checks, record documents and forms show as a file's source (app.ts gives them). */
export function filesRoutes(routes: AppRoutes, sources: FileSourcePresenters): void {
  routes.handle('files.list', ({ ctx, query, url, expand, baseUrl }) =>
    paginate(listFiles(ctx, query), query, url, (file) => presentFile(ctx, file, 'file', expand, baseUrl, sources)),
  )

  routes.handle('clients.files.list', someClient, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(listClientFiles(ctx, found, query), query, url, (file) => presentFile(ctx, file, 'client_file', expand, baseUrl, sources)),
  )

  routes.handle('clients.files.create', { ...someClient, rules: ({ ctx, body, passed }) => clientFileErrors(ctx, body, passed) }, ({ ctx, found, body, baseUrl }) =>
    presentFile(ctx, createClientFile(ctx, found, body), 'client_file', NO_EXPAND, baseUrl, sources),
  )

  routes.handle('clients.files.delete', someFile, ({ ctx, found }) => deleteClientFile(ctx, found))

  routes.handle('clients.files.download', someFile, ({ ctx, found }) => downloadClientFile(ctx, found))
}
