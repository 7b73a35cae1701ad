import type { RequestContext, Services } from '../../context.ts'
import type { WebhookCreateJson, WebhooksListQuery, WebhookUpdateJson } from '../../contracts/generated.ts'
import { forbidden, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import type { Team } from '../../store/world.ts'
import type { WebhookDeliveryRow, WebhookRow } from './rows.ts'
import type { Draft } from '../../store/table.ts'

/** How long the delivery log keeps a delivery, on the mock's clock (docs/specification-notes.md "Webhooks"). */
export const DELIVERY_RETENTION_MS = 90 * 24 * 60 * 60 * 1000

/**
 * Who manages webhooks (the spec does not say): everyone who sees the whole team, because a
 * webhook receives every event of the team. Read-only members read them (the gate refuses their
 * writes); assigned-only members get 403 on every webhook operation.
 */
export function mayManageWebhooks(ctx: RequestContext): boolean {
  return !seesOnlyAssigned(ctx.member.role)
}

/** For the operations without a path id: the role check alone. */
export const authorizeWebhooks = (ctx: RequestContext): boolean => mayManageWebhooks(ctx)

/** The webhook a path names: 403 for an assigned-only member, then 404 Webhook not found (another team's included). */
export function findWebhook(ctx: RequestContext, params: { id: number }): WebhookRow {
  if (!mayManageWebhooks(ctx)) throw forbidden('an assigned-only member may not manage webhooks')
  const webhook = ctx.team.webhooks.get(params.id)
  if (!webhook) throw notFound('Webhook')
  return webhook
}

/**
 * The rule on url the contract cannot state: not the mock itself (its own port on a name that
 * reaches it), whose control API a delivery could otherwise drive, its answer then readable in
 * the delivery log. Other ports of the same machine are where receivers usually are.
 */
export function webhookUrlErrors(ctx: RequestContext, body: { url?: string | undefined }, passed: (key: string) => boolean): ValidationErrors {
  if (body.url === undefined || !passed('url') || !ctx.webhooks.targetsMock(body.url)) return {}
  return { url: ['The url field must not point at the mock itself.'] }
}

/** GET /webhooks: oldest first; enabled filters on is_enabled. */
export function listWebhooks(ctx: RequestContext, query: WebhooksListQuery): readonly WebhookRow[] {
  const { enabled } = query
  return enabled === undefined ? ctx.team.webhooks.all() : ctx.team.webhooks.filter((webhook) => webhook.is_enabled === enabled)
}

/** The service makes the secret: 64 lowercase hexadecimal characters (docs/specification-notes.md "Webhooks"). A webhook created enabled gets a ping. */
export function createWebhook(ctx: RequestContext, input: WebhookCreateJson): WebhookRow {
  const now = ctx.clock.timestamp()
  const webhook: WebhookRow = {
    id: ctx.store.nextId('webhook'),
    uuid: ctx.random.uuid(),
    url: input.url,
    secret: ctx.random.hex(64),
    events: [...input.events],
    is_enabled: input.is_enabled ?? true,
    failures: 0,
    created_at: now,
    updated_at: now,
  }
  ctx.team.webhooks.insert(webhook)
  ctx.webhooks.ping(ctx.team, webhook)
  return webhook
}

/**
 * PATCH: what the body names changes. is_enabled true re-enables a disabled webhook, resets its
 * failure tally and sends it a ping (docs/specification-notes.md "Webhooks"); is_enabled false stops its deliveries.
 */
export function updateWebhook(ctx: RequestContext, webhook: WebhookRow, input: WebhookUpdateJson): WebhookRow {
  const wasEnabled = webhook.is_enabled
  const change: Draft<Partial<WebhookRow>> = {}
  if (input.url !== undefined && input.url !== webhook.url) change.url = input.url
  if (input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(webhook.events)) change.events = [...input.events]
  if (input.is_enabled !== undefined && input.is_enabled !== wasEnabled) change.is_enabled = input.is_enabled
  const changed = Object.keys(change).length > 0
  // Re-enabling resets the failure tally even when the webhook was enabled already (updated_at stays then).
  const failures = input.is_enabled === true ? { failures: 0 } : {}
  if (changed) ctx.team.webhooks.update(webhook, { ...change, ...failures, updated_at: ctx.clock.timestamp() })
  else if (input.is_enabled === true && webhook.failures !== 0) ctx.team.webhooks.update(webhook, failures)
  if (wasEnabled && !webhook.is_enabled) ctx.webhooks.stop(ctx.team, webhook)
  if (!wasEnabled && webhook.is_enabled) ctx.webhooks.ping(ctx.team, webhook)
  return webhook
}

/** Deletes the webhook and its delivery log; nothing more is sent to it. */
export function deleteWebhook(ctx: RequestContext, webhook: WebhookRow): void {
  ctx.webhooks.stop(ctx.team, webhook)
  for (const delivery of [...ctx.team.deliveriesByWebhook.get(webhook.id)]) ctx.team.webhookDeliveries.delete(delivery.id)
  ctx.team.webhooks.delete(webhook.id)
}

/** Drops a webhook's deliveries older than 90 days of the mock's clock (its group is oldest first). */
export function pruneDeliveries(services: Pick<Services, 'clock'>, team: Team, webhook: number): void {
  const cutoff = services.clock.nowMs() - DELIVERY_RETENTION_MS
  // Oldest first: stop at the first one young enough (this runs for every new delivery, so it must
  // not walk or copy the whole log).
  const deliveries = team.deliveriesByWebhook.get(webhook)
  for (let oldest = deliveries[0]; oldest !== undefined && Date.parse(oldest.created_at) < cutoff; oldest = deliveries[0]) {
    team.webhookDeliveries.delete(oldest.id)
  }
}

/** GET /webhooks/{id}/deliveries: those with at least one settled attempt, of the last 90 days, newest first. */
export function listDeliveries(ctx: RequestContext, webhook: WebhookRow): WebhookDeliveryRow[] {
  pruneDeliveries(ctx, ctx.team, webhook.id)
  return ctx.team.deliveriesByWebhook
    .get(webhook.id)
    .filter((delivery) => delivery.attempts > 0)
    .reverse()
}
