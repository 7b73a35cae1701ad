// GET /records/{id}/download: the record as a PDF (docs/specification-notes.md "Downloads and SDK tokens").
import { canSee, type AppRoutes, type RequestContext } from '../../context.ts'
import type { Binary } from '../../contracts/binary.ts'
import { forbidden, NOT_ASSIGNED, routeNotFound } from '../../kernel/errors.ts'
import type { RecordRow } from '../records/index.ts'
import { recordSummary } from './layout.ts'
import { MOCK_FOOTER, renderPdfLazily } from './render.ts'

/**
 * The record to download. Unlike GET /records/{id}, an unknown record (another team's included) is
 * the generic 404 {"error": "Not Found."} (docs/specification-notes.md "Wire details"); an assigned-only member not
 * assigned to it gets 403.
 */
function findDownload(ctx: RequestContext, params: { id: number }): RecordRow {
  const record = ctx.team.records.get(params.id)
  if (!record) throw routeNotFound()
  if (!canSee(ctx, record)) throw forbidden(NOT_ASSIGNED)
  return record
}

export async function recordPdf(ctx: RequestContext, record: RecordRow): Promise<Binary> {
  const bytes = await renderPdfLazily(
    recordSummary(ctx, record),
    { title: `Record ${record.id}`, author: ctx.team.row.name, subject: `Verification record ${record.id}`, date: ctx.clock.now() },
    MOCK_FOOTER,
  )
  return { kind: 'binary', type: 'application/pdf', bytes, filename: `record-${record.id}.pdf` }
}

export function recordDownloadRoutes(routes: AppRoutes): void {
  routes.handle('records.download', { find: findDownload }, ({ ctx, found }) => recordPdf(ctx, found))
}
