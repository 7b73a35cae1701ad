import type { AppRoutes, RequestContext } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { presentDelivery, presentWebhook } from './present.ts'
import { authorizeWebhooks, createWebhook, deleteWebhook, findWebhook, listDeliveries, listWebhooks, updateWebhook, webhookUrlErrors } from './service.ts'

const webhook = { find: findWebhook }
const urlRule = { rules: ({ ctx, body, passed }: { ctx: RequestContext; body: { url?: string | undefined }; passed: (key: string) => boolean }) => webhookUrlErrors(ctx, body, passed) }

export function webhooksRoutes(routes: AppRoutes): void {
  routes.handle('webhooks.list', { authorize: authorizeWebhooks }, ({ ctx, query, url }) => paginate(listWebhooks(ctx, query), query, url, presentWebhook))

  routes.handle('webhooks.create', { authorize: authorizeWebhooks, ...urlRule }, ({ ctx, body }) => presentWebhook(createWebhook(ctx, body)))

  routes.handle('webhooks.get', webhook, ({ found }) => presentWebhook(found))

  routes.handle('webhooks.update', { ...webhook, ...urlRule }, ({ ctx, found, body }) => presentWebhook(updateWebhook(ctx, found, body)))

  routes.handle('webhooks.delete', webhook, ({ ctx, found }) => deleteWebhook(ctx, found))

  routes.handle('webhooks.deliveries.list', webhook, ({ ctx, found, query, url }) => paginate(listDeliveries(ctx, found), query, url, presentDelivery))
}
