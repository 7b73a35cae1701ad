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

/** blobs defaults to a temporary uploads folder; webhooks tunes delivery (tests shorten the attempt timeout). */
export type ServiceParts = Omit<Services, 'scheduler' | 'blobs' | 'webhooks'> & {
  blobs?: BlobStore
  webhooks?: Partial<DeliveryOptions>
}

export function createServices(parts: ServiceParts): Services {
  const { webhooks: delivery, ...rest } = parts
  const base = {
    ...rest,
    blobs: parts.blobs ?? new BlobStore({ samplesDir }),
    scheduler: new Scheduler(parts.store.data.jobs, parts.clock, () => parts.store.nextId('job'), undefined, parts.store.jobLog),
  }
  const webhooks = createWebhookDelivery(base, { data: (event, apiBase) => deliveryData(parts.store, event, apiBase), ...delivery })
  const services: Services = { ...base, webhooks }
  registerLifecycle(services)
  // An attachment deleted since a snapshot keeps its bytes while the snapshot may bring it back.
  services.blobs.keep((blob) => imagesHold(parts.store, blob))
  return services
}
