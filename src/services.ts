// The mock's shared services, built once per process (and once per test mock): the scheduler runs
// on the world's persisted job queue, and the lifecycle engine registers what each job kind does.
import type { Services } from './context.ts'
import { Scheduler } from './kernel/scheduler.ts'
import { registerLifecycle } from './lifecycle/engine.ts'
import { samplesDir } from './paths.ts'
import { BlobStore } from './store/blobs.ts'

/** blobs defaults to a temporary uploads folder. */
export type ServiceParts = Omit<Services, 'scheduler' | 'blobs'> & { blobs?: BlobStore }

export function createServices(parts: ServiceParts): Services {
  const services: Services = {
    ...parts,
    blobs: parts.blobs ?? new BlobStore({ samplesDir }),
    scheduler: new Scheduler(parts.store.data.jobs, parts.clock, () => parts.store.nextId('job')),
  }
  registerLifecycle(services)
  return services
}
