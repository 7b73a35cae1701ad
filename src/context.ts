// What every operation handler and service receives: who is calling (from the token), their
// team's isolated state, and the mock's shared services.
import type { Clock } from './kernel/clock.ts'
import type { EventBus } from './kernel/events.ts'
import type { Routes } from './kernel/operation.ts'
import type { Random } from './kernel/random.ts'
import type { Scheduler } from './kernel/scheduler.ts'
import { forbidden, NOT_ASSIGNED, notFound } from './kernel/errors.ts'
import { ownsTeam, seesOnlyAssigned } from './kernel/roles.ts'
import type { BlobStore } from './store/blobs.ts'
import type { Table } from './store/table.ts'
import type { Identity, Store, Team, TeamTables } from './store/world.ts'

/** A webhook as resources/webhooks keeps it (its table, declared there). */
type WebhookRow = NonNullable<ReturnType<TeamTables['webhooks']['get']>>

export interface Behaviour {
  /** Days until a new record expires when its create request names no expiry. */
  recordExpiryDays: number
  /** Seconds between a client submitting a check and its result (src/lifecycle). */
  checkDelaySeconds: number
  /** Seconds an upload's virus scan takes (default: DEFAULT_SCAN_DELAY_SECONDS of lifecycle/schedule.ts). */
  scanDelaySeconds?: number
}

/** What the webhooks resource asks of the delivery engine (src/webhook-delivery/), and what tests wait on. */
export interface WebhookDispatch {
  /** The API's absolute base URL for the links in delivery bodies, e.g. http://127.0.0.1:4010/api/v2 (main.ts sets it once listening). */
  apiBase: string
  /** Delivers a ping to the webhook (created enabled, or re-enabled). */
  ping(team: Team, webhook: WebhookRow): void
  /** Sends the webhook nothing more: its queued attempts and waiting retries are dropped (disabled or deleted). */
  stop(team: Team, webhook: WebhookRow): void
  /** Queues again the attempts a stopped mock left queued or in flight (main.ts, on start with --data). */
  resume(): void
  /** The team's state was put back (a snapshot restored): drops the attempts queued for its old deliveries and queues those its state has queued. */
  replaced(team: Team): void
  /** Sends nothing more: drops every queued attempt and cuts short those in flight (their deliveries stay queued, for resume()). */
  close(): Promise<void>
  /**
   * Where the mock listens, once it does (main.ts): its port, the address it is bound to and the
   * other names it answers to. Until then, where apiBase points.
   */
  listening(port: number, host: string, allowedHosts: readonly string[]): void
  /** Whether a URL points at the mock itself: refused as a webhook URL, and never POSTed to. */
  targetsMock(url: string): boolean
  /** Resolves once no attempt is queued or in flight (retries waiting on the clock do not count). */
  idle(): Promise<void>
  /**
   * Resolves once every webhook's queue is empty and nothing is in flight, except for the webhooks
   * in `abandoned`: those still busy one attempt's timeout after the call are added to it and no
   * longer waited for (their receiver hangs, or their backlog is long). Passing the same set to
   * later calls waits for none of them again.
   */
  settle(abandoned: Set<number>): Promise<void>
  /** Whether an attempt is queued or in flight. */
  readonly busy: boolean
}

export interface Services {
  store: Store
  clock: Clock
  random: Random
  events: EventBus
  /** Work due later on the mock's clock (check results, reminders, expiry, scans). */
  scheduler: Scheduler
  /** Attachments' bytes. */
  blobs: BlobStore
  behaviour: Behaviour
  /** Webhook delivery: subscribes to events and POSTs them to the team's webhooks. */
  webhooks: WebhookDispatch
}

export type RequestContext = Identity & Services

/**
 * The context of one API request. Written out field by field: V8 builds `{ ...identity, ...services }`
 * (or a spread followed by more fields) through a slow path, about 30 µs a request, most of what
 * GET /clients/{id} cost (npm run bench); a literal is a few dozen nanoseconds.
 */
export function requestContext({ token, user, team, member }: Identity, services: Services): RequestContext {
  const { store, clock, random, events, scheduler, blobs, behaviour, webhooks } = services
  return { token, user, team, member, store, clock, random, events, scheduler, blobs, behaviour, webhooks }
}

/** What a change to one team's state needs: the shared services and the team (the control API has no caller). */
export type TeamContext = Services & { team: Team }

/** The services acting on one team, written out field by field for the same reason as requestContext (jobs and the seed make millions). */
export function teamContext(services: Services, team: Team): TeamContext {
  const { store, clock, random, events, scheduler, blobs, behaviour, webhooks } = services
  return { team, store, clock, random, events, scheduler, blobs, behaviour, webhooks }
}

export type AppRoutes = Routes<RequestContext>

/** Publishes a fact about the caller's team, stamped with the mock's clock. */
export function emit(ctx: TeamContext, type: string, subjects: Record<string, number | string | null>): void {
  ctx.events.publish({ type, teamId: ctx.team.id, occurredAt: ctx.clock.timestamp(), subjects })
}

/** PATCH /team and GET /credits: owners, and support users acting in the team (docs/specification-notes.md "Roles"). */
export function isOwner(ctx: RequestContext): boolean {
  return ownsTeam(ctx.member.role)
}

/**
 * Whether the caller sees a client, record, case or organisation: assigned-only members see only
 * what they are assigned to (docs/specification-notes.md "Roles"); everyone else sees the whole team's.
 */
export function canSee(ctx: RequestContext, row: { assignees: ReadonlyArray<{ user: number }> }): boolean {
  return !seesOnlyAssigned(ctx.member.role) || row.assignees.some((assignee) => assignee.user === ctx.user.id)
}

/**
 * A row of the caller's team by id: 404 {"error": "<Resource> not found"} when the team has none
 * (another team's id included), 403 when the caller may not see it.
 */
export function visibleRow<T extends { id: number; assignees: ReadonlyArray<{ user: number }> }>(
  ctx: RequestContext,
  table: Table<T>,
  id: number,
  resource: string,
): T {
  const row = table.get(id)
  if (!row) throw notFound(resource)
  if (!canSee(ctx, row)) throw forbidden(NOT_ASSIGNED)
  return row
}
