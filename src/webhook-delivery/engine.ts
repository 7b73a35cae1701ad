// Webhook delivery (FACTS.md "Webhooks"). Every published event reaches the enabled webhooks of its
// team that subscribe to it: a delivery row is written at once (its data taken from the state of
// that moment), and its attempts are HTTP POSTs made outside the request that published the event.
//
//   - Each webhook has one queue: its attempts go out one at a time, in the order they were queued,
//     so first attempts follow the order of the events. A receiver that hangs delays only its own
//     queue, for at most the attempt's timeout.
//   - At most maxInFlight attempts run at once, across all webhooks.
//   - A failed attempt (no 2xx within the timeout) at clock time T is retried by a job on the mock's
//     clock at T + 60 s, then 120, 600 and 900 s: 5 attempts in all. The job only queues the attempt.
//   - 10 payloads in a row that exhausted their attempts disable the webhook; a success resets the
//     tally. A disabled or deleted webhook gets nothing more: its queue and retries are dropped.
//   - The log keeps the last attempt's request and response for 90 days of the mock's clock.
import { sign } from './verify.js'
import type { Services, WebhookDispatch } from '../context.ts'
import type { DomainEvent } from '../kernel/events.ts'
import type { JobRow } from '../kernel/scheduler.ts'
import { pruneDeliveries, type DeliveryRequest, type WebhookDeliveryRow, type WebhookRow } from '../resources/webhooks/index.ts'
import type { Team } from '../store/world.ts'
import { isSuccess, post } from './http.ts'
import { subscribes } from './matching.ts'

/** Seconds after a failed attempt until the next (FACTS.md): 5 attempts over about 28 minutes. */
export const RETRY_DELAYS_SECONDS = [60, 120, 600, 900] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1
/** Payloads in a row that exhaust their attempts before the webhook is disabled (FACTS.md). */
export const DISABLE_AFTER = 10
/** A receiver must answer 2xx within 5 seconds (FACTS.md). */
export const ATTEMPT_TIMEOUT_MS = 5_000
/** Attempts in flight at once, across every webhook. */
export const MAX_IN_FLIGHT = 8
/** The scheduler's job kind of a retry; its subject is the delivery's id. */
export const RETRY_JOB = 'webhook.retry'
/** The data of a ping (spec, Events). */
export const PING_DATA = ['ping'] as const

export interface DeliveryOptions {
  /** The body's data for an event: ids and API links under apiBase (src/webhook-delivery/data.ts). */
  data: (event: DomainEvent, apiBase: string) => unknown
  /** The API's absolute base URL until main.ts knows where it listens. */
  apiBase?: string
  /** Per attempt (default 5 s); tests shorten it. */
  timeoutMs?: number
  maxInFlight?: number
  /** Identifies the sender in User-Agent, beside the webhook id. */
  product?: string
}

/** One attempt waiting in a webhook's queue. */
interface Attempt {
  team: number
  delivery: number
}

interface Lane {
  webhook: number
  team: number
  queue: Attempt[]
  /** The delivery whose attempt is in flight, if any. */
  current: number | undefined
  /** Waiting in `ready` for a slot. */
  ready: boolean
}

export type WebhookEngine = WebhookDispatch

const byCreation = (a: WebhookDeliveryRow, b: WebhookDeliveryRow) => a.id - b.id

export function createWebhookDelivery(services: Omit<Services, 'webhooks'>, options: DeliveryOptions): WebhookEngine {
  const { store, clock, scheduler, random } = services
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT
  const product = options.product ?? 'IVS-Mock-Webhooks/1.0'
  const lanes = new Map<number, Lane>()
  const ready: Lane[] = []
  let inFlight = 0
  let queued = 0
  let pumpScheduled = false
  let waiters: Array<() => void> = []
  const closing = new AbortController()

  const settledIfIdle = () => {
    if (inFlight > 0 || queued > 0 || pumpScheduled) return
    const resolve = waiters
    waiters = []
    for (const done of resolve) done()
  }

  const laneOf = (team: number, webhook: number): Lane => {
    let lane = lanes.get(webhook)
    if (!lane) {
      lane = { webhook, team, queue: [], current: undefined, ready: false }
      lanes.set(webhook, lane)
    }
    return lane
  }

  const markReady = (lane: Lane) => {
    if (lane.current !== undefined || lane.ready || lane.queue.length === 0) return
    lane.ready = true
    ready.push(lane)
  }

  /** Starts what the slots allow. Deferred, so the request that queued the work answers first. */
  const schedulePump = () => {
    if (pumpScheduled) return
    pumpScheduled = true
    setImmediate(() => {
      pumpScheduled = false
      pump()
      settledIfIdle()
    })
  }

  const pump = () => {
    while (inFlight < maxInFlight && ready.length > 0) {
      const lane = ready.shift() as Lane
      lane.ready = false
      const attempt = lane.queue.shift()
      if (!attempt) continue
      queued--
      lane.current = attempt.delivery
      inFlight++
      // An attempt never fails the process: a bug in one is reported, and the queue goes on.
      void run(attempt)
        .catch((error: unknown) => console.error(error))
        .finally(() => {
          inFlight--
          lane.current = undefined
          if (lane.queue.length === 0) lanes.delete(lane.webhook)
          else markReady(lane)
          pump()
          settledIfIdle()
        })
    }
  }

  const enqueue = (team: Team, delivery: WebhookDeliveryRow) => {
    delivery.state = 'queued'
    if (closing.signal.aborted) return
    const lane = laneOf(team.id, delivery.webhook)
    lane.queue.push({ team: team.id, delivery: delivery.id })
    queued++
    markReady(lane)
    schedulePump()
  }

  const deliver = (team: Team, webhook: WebhookRow, event: WebhookDeliveryRow['event'], data: unknown) => {
    // The log keeps 90 days: each new delivery drops what has aged out before it.
    pruneDeliveries(services, team, webhook.id)
    const delivery: WebhookDeliveryRow = {
      id: store.nextId('webhook_delivery'),
      webhook: webhook.id,
      uuid: random.uuid(),
      event,
      data,
      created_at: clock.timestamp(),
      state: 'queued',
      attempts: 0,
      request: null,
      response: null,
      last_sent_at: null,
    }
    team.webhookDeliveries.insert(delivery)
    enqueue(team, delivery)
  }

  /** Empties a webhook's queue; an attempt in flight settles on its own. Answers the lane, if any. */
  const clearLane = (webhook: number): Lane | undefined => {
    const lane = lanes.get(webhook)
    if (lane) {
      queued -= lane.queue.length
      lane.queue.length = 0
      if (lane.ready) ready.splice(ready.indexOf(lane), 1)
      lane.ready = false
      if (lane.current === undefined) lanes.delete(webhook)
    }
    return lane
  }

  const stop = (team: Team, webhook: WebhookRow) => {
    const lane = clearLane(webhook.id)
    for (const delivery of team.deliveriesByWebhook.get(webhook.id)) {
      if (delivery.state === 'waiting') scheduler.cancel(RETRY_JOB, team.id, delivery.id)
      // The attempt in flight settles on its own; everything else waiting is dropped.
      if (delivery.state === 'waiting' || (delivery.state === 'queued' && delivery.id !== lane?.current)) delivery.state = 'dropped'
    }
    settledIfIdle()
  }

  const disable = (team: Team, webhook: WebhookRow) => {
    webhook.is_enabled = false
    webhook.updated_at = clock.timestamp()
    stop(team, webhook)
  }

  /** The attempt's delivery and webhook, looked up anew (outside a request, each step changes the world as a unit of its own). */
  const lookUp = (attempt: Attempt) => {
    const team = store.team(attempt.team)
    const delivery = team?.webhookDeliveries.get(attempt.delivery)
    const webhook = delivery && team?.webhooks.get(delivery.webhook)
    return team && delivery && webhook && { team, delivery, webhook }
  }

  /** One attempt: sign and POST the body, then record it and decide what comes next. */
  const run = async (attempt: Attempt): Promise<void> => {
    const sending = store.changing(() => {
      const found = lookUp(attempt)
      if (!found) return undefined
      const { delivery, webhook } = found
      if (!webhook.is_enabled) {
        delivery.state = 'dropped'
        return undefined
      }
      const number = delivery.attempts + 1
      const sentAt = clock.timestamp()
      const body = { uuid: delivery.uuid, event: delivery.event, sent_at: sentAt, data: delivery.data }
      const raw = Buffer.from(JSON.stringify(body), 'utf8')
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': `${product} (webhook ${webhook.id})`,
        'X-SVC-Signature': sign(raw, webhook.secret),
        'X-SVC-Delivery-Id': delivery.uuid,
        'X-SVC-Delivery-Attempt': String(number),
      }
      return { delivery, number, sentAt, body, raw, headers, url: webhook.url }
    })
    if (!sending) return
    const response = await post(sending.url, sending.headers, sending.raw, timeoutMs, closing.signal)
    // Cut short by close(): the delivery stays queued, and goes out when the mock starts again.
    if (closing.signal.aborted) return
    store.changing(() => settle(attempt, sending, response))
  }

  /** Records an attempt's answer and decides what comes next. */
  const settle = (attempt: Attempt, sending: { delivery: WebhookDeliveryRow; number: number; sentAt: string; body: unknown; headers: Record<string, string>; url: string }, response: WebhookDeliveryRow['response']) => {
    const found = lookUp(attempt)
    // The webhook may have been deleted (with its log), or the team restored, while the attempt was out.
    if (found?.delivery !== sending.delivery) return
    const { team, delivery, webhook } = found
    const { number, sentAt, headers, body, url } = sending
    delivery.attempts = number
    delivery.request = { url, method: 'POST', headers, body: body as DeliveryRequest['body'] }
    delivery.response = response
    delivery.last_sent_at = sentAt
    if (isSuccess(response)) {
      delivery.state = 'delivered'
      webhook.failures = 0
      return
    }
    if (!webhook.is_enabled) {
      delivery.state = 'dropped'
      return
    }
    if (number < MAX_ATTEMPTS) {
      delivery.state = 'waiting'
      const delay = (RETRY_DELAYS_SECONDS[number - 1] as number) * 1000
      scheduler.schedule(RETRY_JOB, team.id, delivery.id, new Date(clock.now().getTime() + delay))
      return
    }
    delivery.state = 'failed'
    webhook.failures++
    if (webhook.failures >= DISABLE_AFTER) disable(team, webhook)
  }

  const engine: WebhookEngine = {
    apiBase: options.apiBase ?? 'http://127.0.0.1:4010/api/v2',
    ping(team, webhook) {
      if (webhook.is_enabled) deliver(team, webhook, 'ping', [...PING_DATA])
    },
    stop,
    resume() {
      // Attempts that were queued or in flight when the mock last stopped (with --data) go out again.
      for (const team of store.allTeams()) {
        for (const delivery of [...team.webhookDeliveries.all()].sort(byCreation)) {
          if (delivery.state === 'queued') enqueue(team, delivery)
        }
      }
    },
    replaced(team) {
      for (const lane of [...lanes.values()]) if (lane.team === team.id) clearLane(lane.webhook)
      for (const delivery of [...team.webhookDeliveries.all()].sort(byCreation)) {
        if (delivery.state === 'queued') enqueue(team, delivery)
      }
      settledIfIdle()
    },
    close() {
      closing.abort()
      for (const lane of [...lanes.values()]) clearLane(lane.webhook)
      return engine.idle()
    },
    idle() {
      if (inFlight === 0 && queued === 0 && !pumpScheduled) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
    get busy() {
      return inFlight > 0 || queued > 0 || pumpScheduled
    },
  }

  services.events.subscribe((event) => {
    const team = store.team(event.teamId)
    if (!team) return
    const subscribed = team.webhooks.filter((webhook) => webhook.is_enabled && subscribes(webhook.events, event.type))
    if (subscribed.length === 0) return
    // Taken once, when the event happens: later changes do not rewrite what was delivered.
    const data = options.data(event, engine.apiBase)
    for (const webhook of subscribed) deliver(team, webhook, event.type as WebhookDeliveryRow['event'], data)
  })

  scheduler.on(RETRY_JOB, (job: JobRow) => {
    const team = store.team(job.team)
    const delivery = team?.webhookDeliveries.get(job.subject)
    if (!team || !delivery || delivery.state !== 'waiting') return
    enqueue(team, delivery)
  })

  return engine
}
