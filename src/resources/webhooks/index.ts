export { presentDelivery, presentWebhook } from './present.ts'
export type { DeliveryRequest, DeliveryState, WebhookDeliveryRow, WebhookRow } from './rows.ts'
export { DELIVERY_RETENTION_MS, pruneDeliveries } from './service.ts'
export { webhookTables } from './tables.ts'
