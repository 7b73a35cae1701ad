// The mock's shared services, built once per process (and once per test mock): the scheduler runs
// on the world's persisted job queue, the lifecycle engine registers what each job kind does, and
// webhook delivery subscribes to the event bus.
import type { Services } from './context.ts'
import { Scheduler } from './kernel/scheduler.ts'
import { registerLifecycle } from './lifecycle/engine.ts'
import { samplesDir } from './paths.ts'
import { BlobStore } from './store/blobs.ts'
import { imagesHold } from './store/snapshots.ts'
import { createWebhookDelivery, deliveryData, type DeliveryOptions } from './webhook-delivery/index.ts'

/**
 * blobs defaults to a temporary uploads folder; webhooks tunes delivery (tests shorten the attempt
 * timeout); jobsInCallerUnit: the jobs the clock runs are changes of the write unit that moves it,
 * not units of their own (a team's seeded history, played within the request that makes the team:
 * with --data it is then written once, as it ends, not once for each of its half a million runs).
 */
export type ServiceParts = Omit<Services, 'scheduler' | 'blobs' | 'webhooks'> & {
  blobs?: BlobStore
  webhooks?: Partial<DeliveryOptions>
  jobsInCallerUnit?: boolean
}

export function createServices(parts: ServiceParts): Services {
  const { webhooks: delivery, jobsInCallerUnit, ...rest } = parts
  const jobLog = jobsInCallerUnit ? { ...parts.store.jobLog, unit: <T>(work: () => T) => work() } : parts.store.jobLog
  const base = {
    ...rest,
    blobs: parts.blobs ?? new BlobStore({ samplesDir }),
    scheduler: new Scheduler(parts.store.data.jobs, parts.clock, () => parts.store.nextId('job'), undefined, jobLog),
  }
  const webhooks = createWebhookDelivery(base, { data: (event, apiBase) => deliveryData(parts.store, event, apiBase), ...delivery })
  const services: Services = { ...base, webhooks }
  registerLifecycle(services)
  // An attachment deleted since a snapshot keeps its bytes while the snapshot may bring it back.
  services.blobs.keep((blob) => imagesHold(parts.store, blob))
  return services
}
