// Advancing the clock with deliveries in between: each due moment's jobs run, then the attempts they
// queued (retries, and first attempts of the events they published) settle before the clock moves
// on, so every attempt is made, and its next retry scheduled, at its own moment. One advance walks
// the whole retry schedule. It is bounded: a webhook still busy one attempt's timeout into a wait
// (its receiver hangs, or its backlog is long) is not waited for again in that advance, so the
// advance never waits for a hanging receiver's backlog.
import type { Services } from '../context.ts'

/** Moves the clock forward by milliseconds, as Scheduler.advance does, waiting for deliveries on the way. Returns how many jobs ran. */
export async function advanceSettling(services: Pick<Services, 'clock' | 'scheduler' | 'webhooks'>, milliseconds: number): Promise<number> {
  const { clock, scheduler, webhooks } = services
  const target = clock.nowMs() + milliseconds
  let ran = 0
  const abandoned = new Set<number>()
  await webhooks.settle(abandoned)
  for (;;) {
    const next = scheduler.next()
    if (next === undefined || next.due > target) break
    ran += scheduler.advance(Math.max(0, next.due - clock.nowMs()))
    await webhooks.settle(abandoned)
  }
  ran += scheduler.advance(Math.max(0, target - clock.nowMs()))
  await webhooks.settle(abandoned)
  return ran
}
