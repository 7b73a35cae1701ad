import type { Frozen } from '../../kernel/frozen.ts'
import type { WebhookDeliveryJson, WebhookJson } from '../../contracts/generated.ts'

export interface WebhookRow {
  readonly id: number
  readonly uuid: string
  /** Where deliveries are POSTed: an absolute http(s) URL. */
  readonly url: string
  /** 64 lowercase hexadecimal characters: the key of each delivery's X-SVC-Signature. */
  readonly secret: string
  /** Subscribed event names and wildcards (*, <category>.*). */
  readonly events: Frozen<WebhookJson['events']>
  readonly is_enabled: boolean
  /** Payloads in a row that exhausted every attempt; 10 disable the webhook, one success resets it (docs/specification-notes.md "Webhooks"). */
  readonly failures: number
  readonly created_at: string
  readonly updated_at: string
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
  readonly id: number
  readonly webhook: number
  /** The delivery's uuid: the body's uuid and X-SVC-Delivery-Id, the same on every attempt. */
  readonly uuid: string
  /** An event name, or ping. */
  readonly event: WebhookDeliveryJson['event']
  /** The body's data, taken when the event happened: ids and links as they were then. */
  readonly data: Frozen<unknown>
  /** When the event happened (the 90-day retention counts from here). */
  readonly created_at: string
  readonly state: DeliveryState
  /** Attempts made so far (0 until the first one settles). */
  readonly attempts: number
  /** The last attempt's request and response, null before the first one settled. */
  readonly request: Frozen<DeliveryRequest | null>
  readonly response: Frozen<WebhookDeliveryJson['response']>
  readonly last_sent_at: string | null
}
