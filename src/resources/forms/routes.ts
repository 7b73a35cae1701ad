// GET /forms, GET /clients/{id}/forms, GET /clients/{id}/forms/{reference} and its PDF download.
import type { AppRoutes, RequestContext } from '../../context.ts'
import { canSee } from '../../context.ts'
import type { Binary } from '../../contracts/binary.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { paginate } from '../../kernel/pagination.ts'
import { findClient, presentClient } from '../clients/index.ts'
import { MOCK_FOOTER, renderPdfLazily } from '../record-download/index.ts'
import { presentRecord } from '../records/index.ts'
import { formSummary } from './layout.ts'
import { presentForm, type FormObject } from './present.ts'
import type { FormRow } from './rows.ts'
import { clientForms, findClientForm, listForms } from './service.ts'

/**
 * A form with its client and record expanded when asked (one level: their own expandables stay
 * collapsed). A record an assigned-only member is not assigned to stays its id.
 */
function presentExpandedForm<O extends FormObject>(ctx: RequestContext, form: FormRow, object: O, expand: Expand, baseUrl: string) {
  const client = expand.has('client') ? ctx.team.clients.get(form.client) : undefined
  const record = expand.has('record') && form.record !== null ? ctx.team.records.get(form.record) : undefined
  return {
    ...presentForm(form, object),
    ...(client && { client: presentClient(ctx, client) }),
    ...(record && canSee(ctx, record) && { record: presentRecord(ctx, record, NO_EXPAND, baseUrl) }),
  }
}

async function formPdf(ctx: RequestContext, form: FormRow): Promise<Binary> {
  const bytes = await renderPdfLazily(formSummary(ctx, form), { title: form.name, author: ctx.team.row.name, subject: `Form ${form.reference}`, date: ctx.clock.now() }, MOCK_FOOTER)
  return { kind: 'binary', type: 'application/pdf', bytes, filename: `form-${form.reference}.pdf` }
}

export function formsRoutes(routes: AppRoutes): void {
  routes.handle('forms.list', ({ ctx, query, url, expand, baseUrl }) =>
    paginate(listForms(ctx, query), query, url, (form) => presentExpandedForm(ctx, form, 'form', expand, baseUrl)),
  )

  routes.handle('clients.forms.list', { find: findClient }, ({ ctx, found, query, url, expand, baseUrl }) =>
    paginate(clientForms(ctx, found, query.type), query, url, (form) => presentExpandedForm(ctx, form, 'client_form', expand, baseUrl)),
  )

  routes.handle('clients.forms.get', { find: findClientForm }, ({ found }) => presentForm(found, 'client_form'))

  routes.handle('clients.forms.download', { find: findClientForm }, ({ ctx, found }) => formPdf(ctx, found))
}
