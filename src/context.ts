// What every operation handler and service receives: who is calling (from the token), their
// team's isolated state, and the mock's shared services.
import type { Clock } from './kernel/clock.ts'
import type { KernelEnv } from './kernel/env.ts'
import type { EventBus } from './kernel/events.ts'
import type { Routes } from './kernel/operation.ts'
import type { Random } from './kernel/random.ts'
import type { Identity, Store } from './store/world.ts'

export interface Behaviour {
  /** Days until a new record expires when its create request names no expiry. */
  recordExpiryDays: number
}

export interface Services {
  store: Store
  clock: Clock
  random: Random
  events: EventBus
  behaviour: Behaviour
}

export type RequestContext = Identity & Services

export type AppEnv = KernelEnv<RequestContext>
export type AppRoutes = Routes<RequestContext>

/** Publishes a fact about the caller's team, stamped with the mock's clock. */
export function emit(ctx: RequestContext, type: string, subjects: Record<string, number | string | null>): void {
  ctx.events.publish({ type, teamId: ctx.team.team.id, occurredAt: ctx.clock.timestamp(), subjects })
}

/** Owners can do everything admins can (README "Behaviour notes"). */
export function isAdmin(ctx: RequestContext): boolean {
  return ctx.member.role === 'owner' || ctx.member.role === 'admin'
}
