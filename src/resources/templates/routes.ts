import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { documentTemplates, emailTemplates, presentDocumentTemplate, presentEmailTemplate } from '../documents/index.ts'
import { presentRecordTemplate } from './present.ts'

export function templatesRoutes(routes: AppRoutes): void {
  routes.handle('templates.records.list', ({ ctx, query, url }) => {
    const { enabled } = query
    const templates = ctx.team.recordTemplates.filter((template) => enabled === undefined || template.is_enabled === enabled)
    return paginate(templates, query, url, presentRecordTemplate)
  })

  routes.handle('templates.emails.list', ({ ctx, query, url }) => paginate(emailTemplates(ctx, query.enabled), query, url, presentEmailTemplate))

  routes.handle('templates.documents.list', ({ ctx, query, url }) => paginate(documentTemplates(ctx, query.enabled), query, url, presentDocumentTemplate))
}
