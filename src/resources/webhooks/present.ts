import type { WebhookDeliveryJson, WebhookJson } from '../../contracts/generated.ts'
import type { WebhookDeliveryRow, WebhookRow } from './rows.ts'
import { onTheWire } from '../../kernel/frozen.ts'

export function presentWebhook(webhook: WebhookRow): WebhookJson {
  return {
    object: 'webhook' as const,
    id: webhook.id,
    uuid: webhook.uuid,
    url: webhook.url,
    secret: webhook.secret,
    events: onTheWire<WebhookJson['events']>(webhook.events),
    is_enabled: webhook.is_enabled,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  }
}

/** A delivery with a settled attempt (listDeliveries shows no other). */
export function presentDelivery(delivery: WebhookDeliveryRow): WebhookDeliveryJson {
  if (delivery.request === null || delivery.last_sent_at === null) throw new Error(`webhook delivery ${delivery.id} has no attempt yet`)
  return {
    object: 'webhook_delivery' as const,
    id: delivery.id,
    uuid: delivery.uuid,
    event: delivery.event,
    attempts: delivery.attempts,
    request: onTheWire<WebhookDeliveryJson['request']>(delivery.request),
    response: onTheWire<WebhookDeliveryJson['response']>(delivery.response),
    last_sent_at: delivery.last_sent_at,
  }
}
