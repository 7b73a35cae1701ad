// Advancing the clock with deliveries in between: each due moment's jobs run, then the attempts they
// queued (retries, and first attempts of the events they published) settle before the clock moves
// on, so every attempt is made, and its next retry scheduled, at its own moment. One advance walks
// the whole retry schedule.
import type { Services } from '../context.ts'

/** Moves the clock forward by milliseconds, as Scheduler.advance does, waiting for deliveries on the way. Returns how many jobs ran. */
export async function advanceSettling(services: Pick<Services, 'clock' | 'scheduler' | 'webhooks'>, milliseconds: number): Promise<number> {
  const { clock, scheduler, webhooks } = services
  const target = clock.now().getTime() + milliseconds
  let ran = 0
  await webhooks.idle()
  for (;;) {
    const next = scheduler.pending()[0]
    if (next === undefined || next.due > target) break
    ran += scheduler.advance(Math.max(0, next.due - clock.now().getTime()))
    if (webhooks.busy) await webhooks.idle()
  }
  ran += scheduler.advance(Math.max(0, target - clock.now().getTime()))
  await webhooks.idle()
  return ran
}
