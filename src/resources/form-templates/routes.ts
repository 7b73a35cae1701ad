import type { AppRoutes, RequestContext } from '../../context.ts'
import type { FormTemplateUpdateJson } from '../../contracts/generated.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentFormTemplate } from './present.ts'
import { createFormTemplate, deleteFormTemplate, findFormTemplate, formTemplateErrors, listFormTemplates, mayChangeLibrary, updateFormTemplate } from './service.ts'

/** The template the path names, looked up before the input is validated (404 Form template not found). */
const template = { find: findFormTemplate }
const libraryWrite = { authorize: mayChangeLibrary }
const rules = { rules: ({ ctx, body, passed }: { ctx: RequestContext; body: FormTemplateUpdateJson; passed: (key: string) => boolean }) => formTemplateErrors(ctx, body, passed) }

export function formTemplatesRoutes(routes: AppRoutes): void {
  routes.handle('formTemplates.list', ({ ctx, query, url }) => paginate(listFormTemplates(ctx, query), query, url, presentFormTemplate))

  routes.handle('formTemplates.create', { ...libraryWrite, ...rules }, ({ ctx, body }) => presentFormTemplate(createFormTemplate(ctx, body)))

  routes.handle('formTemplates.get', template, ({ found }) => presentFormTemplate(found))

  routes.handle('formTemplates.update', { ...template, ...libraryWrite, ...rules }, ({ ctx, found, body }) => presentFormTemplate(updateFormTemplate(ctx, found, body)))

  routes.handle('formTemplates.delete', { ...template, ...libraryWrite }, ({ ctx, found }) => deleteFormTemplate(ctx, found))
}
