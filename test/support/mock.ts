// A fresh, fully wired mock per test (in memory, frozen clock), sharing one seeded world template
// per test file so seeding costs once.
import { createApp, type AppOptions } from '../../src/app.ts'
import { createClock, toTimestamp, type Clock } from '../../src/kernel/clock.ts'
import { createEventBus, type DomainEvent } from '../../src/kernel/events.ts'
import { createRandom } from '../../src/kernel/random.ts'
import type { Scheduler } from '../../src/kernel/scheduler.ts'
import { createServices } from '../../src/services.ts'
import type { DeliveryOptions } from '../../src/webhook-delivery/index.ts'
import type { BlobStore } from '../../src/store/blobs.ts'
import { addTeam, seedWorld, type NewTeamOptions } from '../../src/seed/index.ts'
import { Store, type Team, type WorldData } from '../../src/store/world.ts'
import type { Role } from '../../src/kernel/roles.ts'
import type { Services, TeamContext } from '../../src/context.ts'
import { ApiClient, CONTROL } from './api.ts'
import { contracts, fixture } from './contracts.ts'
import { PrebuiltContracts } from '../../src/contracts/prebuilt.ts'
import { TABLES } from '../../src/tables.ts'

/** The mock's clock in tests: frozen at a fixed moment, after the seeded world's epoch. */
export const TEST_NOW = new Date('2026-07-01T12:00:00Z')

/**
 * A world with its jobs soonest first: the clock's queue keeps them in heap order, which the same
 * world read back from its files need not share.
 */
export function withJobsInOrder(data: WorldData | undefined): WorldData | undefined {
  return data && { ...data, jobs: [...data.jobs].sort((a, b) => a.due - b.due || a.id - b.id) }
}

/** TEST_NOW as the API writes timestamps. */
export const NOW = toTimestamp(TEST_NOW)

/** The wire timestamp `minutes` after TEST_NOW (after mock.clock.advance of that many minutes). */
export const at = (minutes: number) => toTimestamp(new Date(TEST_NOW.getTime() + minutes * 60_000))

let template: WorldData | undefined

/** What the server validates requests with: the build's validators, or Ajv's when they are not built for these contracts. */
const served = PrebuiltContracts.open() ?? contracts

export interface MockOptions {
  rateLimit?: number
  rateLimitWindowSeconds?: number
  now?: Date
  /** Webhook delivery settings: the data of each event, a shorter attempt timeout. */
  webhooks?: Partial<DeliveryOptions>
  /** Exchanges the traffic journal keeps per team (the app's default when left out). */
  journalSize?: number
  /** Other options of the app (the body limit, CORS, the hosts it answers to); its defaults when left out. */
  app?: Partial<Pick<AppOptions, 'maxBodyBytes' | 'cors' | 'corsOrigins' | 'mockCorsOrigins' | 'allowedHosts' | 'version' | 'progress'>>
  /** The world to start from (a copy of it is taken) instead of the seeded one: a snapshot of another mock's store. */
  world?: WorldData
  /** Where uploads are kept (default: a temporary folder of the mock's own). */
  blobs?: BlobStore
}

export interface TestMock {
  app: ReturnType<typeof createApp>
  store: Store
  clock: Clock
  scheduler: Scheduler
  /** The mock's services, for calling a service directly (what the lifecycle engine or the control API would). */
  services: Services
  /** A team's context for a service that changes one team's state (TeamContext). */
  teamContext(team: Team): TeamContext
  /** Every event published since the mock was created. */
  events: DomainEvent[]
  /** An API client for a token (default: the seeded Acme owner). */
  api(token?: string): ApiClient
  /** A client of the control API (/_mock), which takes no token. */
  control: ApiClient
  /** A fresh isolated team with a user and token of every role. */
  newTeam(options?: NewTeamOptions): ReturnType<typeof addTeam> & { api: (role?: Role) => ApiClient }
}

export function createTestMock(options: MockOptions = {}): TestMock {
  const store = new Store(structuredClone(options.world ?? (template ??= seedWorld(fixture))), TABLES)
  const clock = createClock({ start: options.now ?? TEST_NOW, frozen: true })
  const bus = createEventBus((error) => {
    throw error
  })
  const events: DomainEvent[] = []
  bus.subscribe((event) => events.push(event))
  const random = createRandom(42)
  const services = createServices({ store, clock, random, events: bus, ...(options.blobs && { blobs: options.blobs }), behaviour: { recordExpiryDays: 30, checkDelaySeconds: 60 }, webhooks: { apiBase: 'http://localhost/api/v2', ...options.webhooks } })
  // What fell due between the seed's epoch and now (reminders of open seeded records) happens before
  // the test sees the world, so a test's first request changes nothing on its own.
  services.scheduler.runDue()
  const app = createApp({
    ...services,
    contracts: served,
    rateLimit: { limit: options.rateLimit ?? 10_000, windowSeconds: options.rateLimitWindowSeconds ?? 60 },
    ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
    ...options.app,
  })
  const api = (token = 'ivs_acme_owner') => new ApiClient(app, token)
  return {
    app,
    store,
    clock,
    scheduler: services.scheduler,
    services,
    teamContext: (team) => ({ ...services, team }),
    events,
    api,
    control: new ApiClient(app, undefined, CONTROL),
    newTeam(teamOptions) {
      const team = addTeam(store, random, clock.now(), teamOptions)
      return { ...team, api: (role = 'owner') => api(team.tokens[role]) }
    },
  }
}
