// GET /clients/{id}/corrections and PATCH /clients/{clientId}/corrections/{correctionId}.
import type { AppRoutes } from '../../context.ts'
import { NO_EXPAND } from '../../kernel/expand.ts'
import { paginate } from '../../kernel/pagination.ts'
import { findClient } from '../clients/index.ts'
import { presentCorrection } from './present.ts'
import { decideCorrection, findCorrection, listCorrections } from './service.ts'

export function correctionsRoutes(routes: AppRoutes): void {
  routes.handle('clients.corrections.list', { find: findClient }, ({ ctx, found, query, expand, url, baseUrl }) =>
    paginate(listCorrections(ctx, found, query), query, url, (correction) => presentCorrection(ctx, correction, expand, baseUrl)),
  )

  routes.handle('clients.corrections.update', { find: findCorrection }, ({ ctx, found, body, baseUrl }) =>
    presentCorrection(ctx, decideCorrection(ctx, found, body), NO_EXPAND, baseUrl),
  )
}
