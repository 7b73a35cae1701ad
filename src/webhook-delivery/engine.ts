// Webhook delivery (docs/specification-notes.md "Webhooks"). Every published event reaches the enabled webhooks of its
// team that subscribe to it: a delivery row is written at once (its data taken from the state of
// that moment), and its attempts are HTTP POSTs made outside the request that published the event.
//
//   - Each webhook has one queue: its attempts go out one at a time, in the order they were queued,
//     so first attempts follow the order of the events. A receiver that hangs delays only its own
//     queue, for at most the attempt's timeout.
//   - Slots are shared fairly: teams take turns, and within a team its webhooks take turns; one
//     team has at most maxInFlightPerTeam attempts out at once, and all teams together at most
//     maxInFlight. So one team's hanging receivers never hold up another team's deliveries.
//   - A failed attempt (no 2xx within the timeout) at clock time T is retried by a job on the mock's
//     clock at T + 60 s, then 120, 600 and 900 s: 5 attempts in all. The job only queues the attempt.
//   - 10 payloads in a row that exhausted their attempts disable the webhook; a success resets the
//     tally. A disabled or deleted webhook gets nothing more: its queue and retries are dropped.
//   - A webhook holds at most maxUndelivered payloads not yet delivered (queued or waiting for a
//     retry). One more gives up the oldest of them (not the one in flight): it fails there and
//     then, logged with response null, and counts toward disabling like an exhausted payload.
//   - The log keeps the last attempt's request and response for 90 days of the mock's clock, and at
//     most maxLogged settled deliveries per webhook (the oldest go first).
import { sign } from './verify.js'
import type { Services, WebhookDispatch } from '../context.ts'
import type { DomainEvent } from '../kernel/events.ts'
import type { JobRow } from '../kernel/scheduler.ts'
import { pruneDeliveries, type DeliveryRequest, type WebhookDeliveryRow, type WebhookRow } from '../resources/webhooks/index.ts'
import type { Team } from '../store/world.ts'
import { isSuccess, post, type RecordedResponse } from './http.ts'
import { subscribes } from './matching.ts'
import { listeningAt, listeningOn, pointsAtMock, type Listening } from './self.ts'

/** Seconds after a failed attempt until the next (docs/specification-notes.md "Webhooks"): 5 attempts over about 28 minutes. */
export const RETRY_DELAYS_SECONDS = [60, 120, 600, 900] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1
/** Payloads in a row that exhaust their attempts before the webhook is disabled (docs/specification-notes.md "Webhooks"). */
export const DISABLE_AFTER = 10
/** A receiver must answer 2xx within 5 seconds (docs/specification-notes.md "Webhooks"). */
export const ATTEMPT_TIMEOUT_MS = 5_000
/** Attempts in flight at once, across every team. */
export const MAX_IN_FLIGHT = 32
/** Attempts of one team in flight at once. */
export const MAX_IN_FLIGHT_PER_TEAM = 8
/** Payloads of one webhook not yet delivered (queued, in flight, or waiting for a retry). */
export const MAX_UNDELIVERED = 1_000
/** Settled deliveries (delivered, failed, dropped) the log keeps per webhook. */
export const MAX_LOGGED = 1_000
/** The scheduler's job kind of a retry; its subject is the delivery's id. */
export const RETRY_JOB = 'webhook.retry'
/** The data of a ping (docs/specification-notes.md "Events"). */
export const PING_DATA = ['ping'] as const
/** How much longer than an attempt's timeout settle() waits for attempts out or about to start. */
const SETTLE_MARGIN_MS = 250

export interface DeliveryOptions {
  /** The body's data for an event: ids and API links under apiBase (src/webhook-delivery/data.ts). */
  data: (event: DomainEvent, apiBase: string) => unknown
  /** The API's absolute base URL until main.ts knows where it listens. */
  apiBase?: string
  /** Per attempt (default 5 s); tests shorten it. */
  timeoutMs?: number
  maxInFlight?: number
  maxInFlightPerTeam?: number
  maxUndelivered?: number
  maxLogged?: number
  /** Identifies the sender in User-Agent, beside the webhook id. */
  product?: string
}

/** One attempt waiting in a webhook's queue. */
interface Attempt {
  team: number
  delivery: number
}

/** A webhook's queue. */
interface Lane {
  webhook: number
  share: Share
  queue: Attempt[]
  /** The delivery whose attempt is in flight, if any. */
  current: number | undefined
  /** Waiting in its team's `ready` for a slot. */
  ready: boolean
}

/** A team's part of the slots: its lanes waiting for one, in turn, and how many it holds. */
interface Share {
  team: number
  ready: Lane[]
  inFlight: number
  /** Waiting in `turns` for its next slot. */
  queued: boolean
  /** Its lanes with something queued or in flight. */
  lanes: number
}

export type WebhookEngine = WebhookDispatch

const byCreation = (a: WebhookDeliveryRow, b: WebhookDeliveryRow) => a.id - b.id

const isUndelivered = (delivery: WebhookDeliveryRow) => delivery.state === 'queued' || delivery.state === 'waiting'

export function createWebhookDelivery(services: Omit<Services, 'webhooks'>, options: DeliveryOptions): WebhookEngine {
  const { store, clock, scheduler, random } = services
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT
  const maxPerTeam = options.maxInFlightPerTeam ?? MAX_IN_FLIGHT_PER_TEAM
  const maxUndelivered = options.maxUndelivered ?? MAX_UNDELIVERED
  const maxLogged = options.maxLogged ?? MAX_LOGGED
  const product = options.product ?? 'IVS-Mock-Webhooks/1.0'
  const apiBase = options.apiBase ?? 'http://127.0.0.1:4010/api/v2'
  let self: Listening = listeningAt(apiBase)
  /** Lanes with something queued or in flight, by webhook. */
  const lanes = new Map<number, Lane>()
  /** Shares of the teams that have a lane, by team. */
  const shares = new Map<number, Share>()
  /** Teams with a lane ready and a slot of their own left, in turn. */
  const turns: Share[] = []
  /** Each webhook's undelivered payloads (queued or waiting), oldest first: the queue cap. */
  const undelivered = new Map<number, Set<number>>()
  /** The retry job of each waiting delivery, to drop it without walking the clock's queue. */
  const retries = new Map<number, JobRow>()
  let inFlight = 0
  let queued = 0
  let pumpScheduled = false
  let waiters: Array<() => void> = []
  let settlers: Array<{ abandoned: Set<number>; done: () => void }> = []
  const closing = new AbortController()

  const busy = () => inFlight > 0 || queued > 0 || pumpScheduled

  /** Whether every lane still working is one the caller gave up waiting for. */
  const quietBut = (abandoned: ReadonlySet<number>) => {
    for (const webhook of lanes.keys()) if (!abandoned.has(webhook)) return false
    return true
  }

  const notify = () => {
    if (!busy()) {
      const resolve = waiters
      waiters = []
      for (const done of resolve) done()
    }
    if (settlers.length === 0) return
    const waiting = settlers
    settlers = []
    for (const settler of waiting) {
      if (quietBut(settler.abandoned)) settler.done()
      else settlers.push(settler)
    }
  }

  const undeliveredOf = (webhook: number): Set<number> => {
    let set = undelivered.get(webhook)
    if (!set) {
      set = new Set()
      undelivered.set(webhook, set)
    }
    return set
  }

  /** A delivery is settled (delivered, failed, dropped): it no longer counts against the queue cap. */
  const settled = (delivery: WebhookDeliveryRow) => {
    const set = undelivered.get(delivery.webhook)
    set?.delete(delivery.id)
    if (set?.size === 0) undelivered.delete(delivery.webhook)
    const retry = retries.get(delivery.id)
    if (retry) scheduler.unschedule(retry)
    retries.delete(delivery.id)
  }

  const shareOf = (team: number): Share => {
    let share = shares.get(team)
    if (!share) {
      share = { team, ready: [], inFlight: 0, queued: false, lanes: 0 }
      shares.set(team, share)
    }
    return share
  }

  const laneOf = (team: number, webhook: number): Lane => {
    let lane = lanes.get(webhook)
    if (!lane) {
      lane = { webhook, share: shareOf(team), queue: [], current: undefined, ready: false }
      lane.share.lanes++
      lanes.set(webhook, lane)
    }
    return lane
  }

  /** Puts a team in line for a slot when it has a lane ready and a slot of its own left. */
  const takeTurn = (share: Share) => {
    if (share.queued || share.ready.length === 0 || share.inFlight >= maxPerTeam) return
    share.queued = true
    turns.push(share)
  }

  const markReady = (lane: Lane) => {
    if (lane.current !== undefined || lane.ready || lane.queue.length === 0) return
    lane.ready = true
    lane.share.ready.push(lane)
    takeTurn(lane.share)
  }

  /** Takes a lane out of its share's turn (nothing left to send), and the share out of the turns when no lane of it is ready. */
  const unready = (lane: Lane) => {
    if (!lane.ready) return
    lane.ready = false
    lane.share.ready.splice(lane.share.ready.indexOf(lane), 1)
    if (lane.share.ready.length === 0 && lane.share.queued) {
      lane.share.queued = false
      turns.splice(turns.indexOf(lane.share), 1)
    }
  }

  /** Forgets a lane with nothing left, and its team's share when that has nothing left either. */
  const retire = (lane: Lane) => {
    if (lane.current !== undefined || lane.queue.length > 0) return
    lanes.delete(lane.webhook)
    if (--lane.share.lanes === 0) shares.delete(lane.share.team)
  }

  /** Starts what the slots allow. Deferred, so the request that queued the work answers first. */
  const schedulePump = () => {
    if (pumpScheduled) return
    pumpScheduled = true
    setImmediate(() => {
      pumpScheduled = false
      pump()
      notify()
    })
  }

  const pump = () => {
    while (inFlight < maxInFlight && turns.length > 0) {
      const share = turns.shift() as Share
      share.queued = false
      const lane = share.ready.shift() as Lane
      lane.ready = false
      const attempt = lane.queue.shift() as Attempt
      queued--
      lane.current = attempt.delivery
      inFlight++
      share.inFlight++
      // The team's next lane waits behind the other teams' turns.
      takeTurn(share)
      // An attempt never fails the process: a bug in one is reported, and the queue goes on.
      void run(attempt)
        .catch((error: unknown) => console.error(error))
        .finally(() => {
          inFlight--
          share.inFlight--
          lane.current = undefined
          markReady(lane)
          takeTurn(share)
          retire(lane)
          pump()
          notify()
        })
    }
  }

  const enqueue = (team: Team, delivery: WebhookDeliveryRow) => {
    if (delivery.state !== 'queued') team.webhookDeliveries.update(delivery, { state: 'queued' })
    retries.delete(delivery.id)
    // After close() the delivery stays queued in the state, for resume() on the next start.
    if (closing.signal.aborted) return
    const lane = laneOf(team.id, delivery.webhook)
    lane.queue.push({ team: team.id, delivery: delivery.id })
    queued++
    markReady(lane)
    schedulePump()
  }

  /** Takes a queued delivery out of its webhook's queue (it is not in flight). */
  const unqueue = (delivery: WebhookDeliveryRow) => {
    const lane = lanes.get(delivery.webhook)
    const index = lane?.queue.findIndex((attempt) => attempt.delivery === delivery.id) ?? -1
    if (!lane || index === -1) return
    lane.queue.splice(index, 1)
    queued--
    if (lane.queue.length === 0) unready(lane)
    retire(lane)
  }

  /** What an attempt sends: the body (with this attempt's sent_at) and its signed headers. */
  const requestOf = (webhook: WebhookRow, delivery: WebhookDeliveryRow, number: number, sentAt: string) => {
    const body = { uuid: delivery.uuid, event: delivery.event, sent_at: sentAt, data: delivery.data }
    const raw = Buffer.from(JSON.stringify(body), 'utf8')
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': `${product} (webhook ${webhook.id})`,
      'X-SVC-Signature': sign(raw, webhook.secret),
      'X-SVC-Delivery-Id': delivery.uuid,
      'X-SVC-Delivery-Attempt': String(number),
    }
    return { body, raw, headers }
  }

  /** Writes an attempt's request and response into the log. */
  const logAttempt = (team: Team, delivery: WebhookDeliveryRow, url: string, request: ReturnType<typeof requestOf>, number: number, sentAt: string, response: RecordedResponse | null) => {
    team.webhookDeliveries.update(delivery, {
      attempts: number,
      request: { url, method: 'POST', headers: request.headers, body: request.body as DeliveryRequest['body'] },
      response,
      last_sent_at: sentAt,
    })
  }

  /** A payload that failed for good (every attempt, or given up): it counts toward disabling the webhook. */
  const failed = (team: Team, webhook: WebhookRow, delivery: WebhookDeliveryRow) => {
    team.webhookDeliveries.update(delivery, { state: 'failed' })
    settled(delivery)
    team.webhooks.update(webhook, { failures: webhook.failures + 1 })
    if (webhook.failures >= DISABLE_AFTER) disable(team, webhook)
    trimLog(team, webhook.id)
  }

  /**
   * Over the cap, the oldest undelivered payload that is not in flight is given up: its next attempt
   * fails there and then, logged (what it would have sent, response null), and the payload counts
   * as failed.
   */
  const giveUpOldest = (team: Team, webhook: WebhookRow) => {
    const set = undelivered.get(webhook.id)
    if (!set || set.size <= maxUndelivered) return
    const current = lanes.get(webhook.id)?.current
    for (const id of set) {
      if (id === current) continue
      const delivery = team.webhookDeliveries.get(id)
      if (!delivery) {
        set.delete(id)
        continue
      }
      if (delivery.state === 'queued') unqueue(delivery)
      const number = delivery.attempts + 1
      const sentAt = clock.timestamp()
      logAttempt(team, delivery, webhook.url, requestOf(webhook, delivery, number, sentAt), number, sentAt, null)
      failed(team, webhook, delivery)
      return
    }
  }

  /** Drops a webhook's oldest settled deliveries beyond the log's cap (undelivered ones stay). */
  const trimLog = (team: Team, webhook: number) => {
    const deliveries = team.deliveriesByWebhook.get(webhook)
    let excess = deliveries.length - (undelivered.get(webhook)?.size ?? 0) - maxLogged
    for (let index = 0; excess > 0 && index < deliveries.length; ) {
      const delivery = deliveries[index] as WebhookDeliveryRow
      if (isUndelivered(delivery)) {
        index++
        continue
      }
      team.webhookDeliveries.delete(delivery.id)
      excess--
    }
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
    undeliveredOf(webhook.id).add(delivery.id)
    enqueue(team, delivery)
    giveUpOldest(team, webhook)
  }

  /** Empties a webhook's queue; an attempt in flight settles on its own. Answers the lane, if any. */
  const clearLane = (webhook: number): Lane | undefined => {
    const lane = lanes.get(webhook)
    if (lane) {
      queued -= lane.queue.length
      lane.queue.length = 0
      unready(lane)
      retire(lane)
    }
    return lane
  }

  const stop = (team: Team, webhook: WebhookRow) => {
    const lane = clearLane(webhook.id)
    for (const delivery of team.deliveriesByWebhook.get(webhook.id)) {
      // The attempt in flight settles on its own; everything else waiting is dropped.
      if (delivery.state === 'waiting' || (delivery.state === 'queued' && delivery.id !== lane?.current)) {
        team.webhookDeliveries.update(delivery, { state: 'dropped' })
        settled(delivery)
      }
    }
    trimLog(team, webhook.id)
    notify()
  }

  const disable = (team: Team, webhook: WebhookRow) => {
    team.webhooks.update(webhook, { is_enabled: false, updated_at: clock.timestamp() })
    stop(team, webhook)
  }

  /** A delivery whose team or webhook is gone (the team dropped): nothing of it is kept in here. */
  const forget = (delivery: number) => {
    for (const [webhook, set] of undelivered) if (set.delete(delivery) && set.size === 0) undelivered.delete(webhook)
    retries.delete(delivery)
  }

  /**
   * One attempt: sign and POST the body, then record it and decide what comes next. Outside a
   * request, what it changes before and after the POST are write units of their own (--data).
   */
  const run = async (attempt: Attempt): Promise<void> => {
    const sending = store.changing(() => {
      const team = store.team(attempt.team)
      const delivery = team?.webhookDeliveries.get(attempt.delivery)
      const webhook = delivery && team?.webhooks.get(delivery.webhook)
      if (!team || !delivery || !webhook) {
        forget(attempt.delivery)
        return undefined
      }
      if (!webhook.is_enabled) {
        team.webhookDeliveries.update(delivery, { state: 'dropped' })
        settled(delivery)
        trimLog(team, webhook.id)
        return undefined
      }
      const number = delivery.attempts + 1
      const sentAt = clock.timestamp()
      return { team: team.id, delivery, number, sentAt, request: requestOf(webhook, delivery, number, sentAt), url: webhook.url }
    })
    if (!sending) return
    const { delivery, number, sentAt, request, url } = sending
    // A URL that reached another server when it was set may point at the mock now (restarted on its port): never sent.
    const response = pointsAtMock(url, self) ? null : await post(url, request.headers, request.raw, timeoutMs, closing.signal)
    // Cut short by close(): the delivery stays queued, and goes out when the mock starts again.
    if (closing.signal.aborted) return
    store.changing(() => {
      // The webhook may have been deleted (with its log), or the team restored, while the attempt was out.
      const team = store.team(sending.team)
      const current = team?.webhookDeliveries.get(delivery.id)
      const webhook = current && team?.webhooks.get(delivery.webhook)
      if (!team || current !== delivery || !webhook) {
        // A restored team has its own row under this id, taken up by replaced().
        if (current === undefined) forget(delivery.id)
        return
      }
      logAttempt(team, delivery, url, request, number, sentAt, response)
      if (isSuccess(response) || !webhook.is_enabled) {
        team.webhookDeliveries.update(delivery, { state: isSuccess(response) ? 'delivered' : 'dropped' })
        if (isSuccess(response) && webhook.failures !== 0) team.webhooks.update(webhook, { failures: 0 })
        settled(delivery)
        trimLog(team, webhook.id)
        return
      }
      if (number < MAX_ATTEMPTS) {
        team.webhookDeliveries.update(delivery, { state: 'waiting' })
        const delay = (RETRY_DELAYS_SECONDS[number - 1] as number) * 1000
        retries.set(delivery.id, scheduler.schedule(RETRY_JOB, team.id, delivery.id, new Date(clock.nowMs() + delay)))
        return
      }
      failed(team, webhook, delivery)
    })
  }

  const retryJobs = () => new Map(scheduler.pending().filter((job) => job.kind === RETRY_JOB).map((job) => [job.subject, job]))

  /** Takes up a team's undelivered payloads as its state has them: queued ones go out, waiting ones wait for their retry jobs. */
  const take = (team: Team, jobs: ReadonlyMap<number, JobRow>) => {
    for (const delivery of [...team.webhookDeliveries.all()].sort(byCreation)) {
      if (!isUndelivered(delivery)) continue
      undeliveredOf(delivery.webhook).add(delivery.id)
      const job = jobs.get(delivery.id)
      if (delivery.state === 'waiting' && job) retries.set(delivery.id, job)
      if (delivery.state === 'queued') enqueue(team, delivery)
    }
  }

  const engine: WebhookEngine = {
    apiBase,
    listening(port, host, allowedHosts) {
      self = listeningOn(port, host, allowedHosts)
    },
    targetsMock: (url) => pointsAtMock(url, self),
    ping(team, webhook) {
      if (webhook.is_enabled) deliver(team, webhook, 'ping', [...PING_DATA])
    },
    stop,
    resume() {
      // Attempts that were queued or in flight when the mock last stopped (with --data) go out again;
      // retries wait for their jobs, which the world kept.
      const jobs = retryJobs()
      for (const team of store.allTeams()) take(team, jobs)
    },
    replaced(team) {
      for (const lane of [...lanes.values()]) if (lane.share.team === team.id) clearLane(lane.webhook)
      for (const [delivery, job] of retries) if (job.team === team.id) retries.delete(delivery)
      // The caps count again from the restored deliveries; a webhook the restore took away counts nothing.
      for (const webhook of [...undelivered.keys()]) {
        if (team.webhooks.get(webhook) || ![...store.allTeams()].some((other) => other.webhooks.get(webhook))) undelivered.delete(webhook)
      }
      take(team, retryJobs())
      notify()
    },
    close() {
      closing.abort()
      for (const lane of [...lanes.values()]) clearLane(lane.webhook)
      return engine.idle()
    },
    idle() {
      if (!busy()) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
    settle(abandoned) {
      if (quietBut(abandoned)) return Promise.resolve()
      return new Promise((resolve) => {
        const settler = { abandoned, done: () => resolve() }
        settlers.push(settler)
        // Whatever is still out after one attempt's timeout (and a little) waits on a receiver that
        // hangs, or behind one: it goes on without this caller. The timer only holds an answer.
        const timer = setTimeout(() => {
          for (const webhook of lanes.keys()) abandoned.add(webhook)
          notify()
        }, timeoutMs + SETTLE_MARGIN_MS)
        timer.unref()
        settler.done = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    },
    get busy() {
      return busy()
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
    if (!team || !delivery) {
      forget(job.subject)
      return
    }
    if (delivery.state !== 'waiting') return
    enqueue(team, delivery)
  })

  return engine
}
