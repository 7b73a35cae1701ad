// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex } from '../../store/table.ts'
import type { WebhookDeliveryRow, WebhookRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    webhooks: WebhookRow[]
    webhook_deliveries: WebhookDeliveryRow[]
  }
  interface TeamTables {
    webhooks: Table<WebhookRow>
    webhookDeliveries: Table<WebhookDeliveryRow>
    deliveriesByWebhook: GroupIndex<number, WebhookDeliveryRow>
  }
  interface IdSequences {
    webhook: true
    webhook_delivery: true
  }
}

export const webhookTables = declareTables({
  rows: ['webhooks', 'webhook_deliveries'],
  open(state, team) {
    const webhookDeliveries = new Table(state.webhook_deliveries, team.changes)
    return { webhooks: new Table(state.webhooks, team.changes), webhookDeliveries, deliveriesByWebhook: webhookDeliveries.groupBy((delivery) => delivery.webhook) }
  },
})
