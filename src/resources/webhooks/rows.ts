import type { WebhookDeliveryJson, WebhookJson } from '../../contracts/generated.ts'

export interface WebhookRow {
  id: number
  uuid: string
  /** Where deliveries are POSTed: an absolute http(s) URL. */
  url: string
  /** 64 lowercase hexadecimal characters: the key of each delivery's X-SVC-Signature. */
  secret: string
  /** Subscribed event names and wildcards (*, <category>.*). */
  events: WebhookJson['events']
  is_enabled: boolean
  /** Payloads in a row that exhausted every attempt; 10 disable the webhook, one success resets it (docs/specification-notes.md "Webhooks"). */
  failures: number
  created_at: string
  updated_at: string
}

/** What an attempt sent, as the log records it. */
export type DeliveryRequest = WebhookDeliveryJson['request']

/**
 * Where a delivery is: queued (its next attempt waits in the engine's queue or is in flight),
 * waiting (a retry job is on the clock), delivered (a 2xx), failed (every attempt failed) or
 * dropped (its webhook was disabled before it got through).
 */
export type DeliveryState = 'queued' | 'waiting' | 'delivered' | 'failed' | 'dropped'

/** One payload for one webhook, with its last attempt (what GET /webhooks/{id}/deliveries shows). */
export interface WebhookDeliveryRow {
  id: number
  webhook: number
  /** The delivery's uuid: the body's uuid and X-SVC-Delivery-Id, the same on every attempt. */
  uuid: string
  /** An event name, or ping. */
  event: WebhookDeliveryJson['event']
  /** The body's data, taken when the event happened: ids and links as they were then. */
  data: unknown
  /** When the event happened (the 90-day retention counts from here). */
  created_at: string
  state: DeliveryState
  /** Attempts made so far (0 until the first one settles). */
  attempts: number
  /** The last attempt's request and response, null before the first one settled. */
  request: DeliveryRequest | null
  response: WebhookDeliveryJson['response']
  last_sent_at: string | null
}
