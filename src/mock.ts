// One running mock: the world (seeded, or read from a data file), the services, the app, and the
// tick that runs what falls due on a ticking clock. `ivs-mock serve` (main.ts) and startMock()
// (index.ts) both run this; they choose whether it listens on a socket and what it prints.
import { readFileSync } from 'node:fs'
import type { Server as HttpServer } from 'node:http'
import { serve as listenOn } from '@hono/node-server'
import { API_BASE, createApp } from './app.ts'
import type { ServeConfig } from './config.ts'
import type { Services } from './context.ts'
import { PrebuiltContracts } from './contracts/prebuilt.ts'
import { createClock } from './kernel/clock.ts'
import { createEventBus } from './kernel/events.ts'
import { createRandom } from './kernel/random.ts'
import { contractsDir, packageJsonPath, samplesDir } from './paths.ts'
import { loadWorldFixture, type WorldFixture } from './seed/fixture.ts'
import { hasPrebuiltWorld, readPrebuiltWorld } from './seed/prebuilt.ts'
import { createServices } from './services.ts'
import { BlobStore, uploadsBeside } from './store/blobs.ts'
import { openWorld, type OpenedWorld, type OpenWorldOptions } from './store/persistence.ts'
import type { ProgressSink } from './seed/index.ts'
import { TABLES } from './tables.ts'

export const VERSION = (JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version: string }).version

/**
 * What a mock runs with: serve's options but where it listens (`host`, when given, is a name it
 * answers to); `progress`: where a team that takes long to make says how far it has got (`serve`
 * prints it).
 */
export type MockConfig = Omit<ServeConfig, 'port' | 'host'> & { host?: string; progress?: ProgressSink }

/** The origin requests and links have when the mock answers in-process, on no socket. */
export const IN_PROCESS_ORIGIN = 'http://localhost'

export interface RunningMock {
  app: ReturnType<typeof createApp>
  services: Services
  world: OpenedWorld
  fixture: WorldFixture
  /**
   * Serves the app on a socket; resolves with its origin (http://127.0.0.1:<port>), where links in
   * webhook deliveries point from then on. Rejects with the server's error (EADDRINUSE...).
   */
  listen(port: number, host: string): Promise<string>
  /**
   * Stops the tick, the socket, the answers held (a fault's delay, --latency) and webhook delivery,
   * closes a data file's log (releasing its lock), and removes a temporary uploads folder. Once: a
   * second call answers the first one's promise.
   */
  close(): Promise<void>
}

/** The host to show in a URL: a wildcard address is reached on loopback; IPv6 goes in brackets. */
export function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/** What tests change in how a data file is written: a writer that fails, a small compaction threshold, what is large enough to announce. */
export type DataFileSeams = Pick<OpenWorldOptions, 'writeLog' | 'compactAfterBytes' | 'announceFrom'>

export async function openMock(config: MockConfig, seams: DataFileSeams = {}): Promise<RunningMock> {
  // The validators the build compiled; without them for these contracts (a checkout whose contracts
  // changed since it was built), Ajv compiles each on first use.
  const contracts = PrebuiltContracts.open() ?? new (await import('./contracts/ajv.ts')).AjvContracts(contractsDir, { validateSchemas: false })
  const fixture = loadWorldFixture()
  const clock = createClock({ start: config.clock, frozen: config.freezeClock })
  // The generator (faker and its locales) loads only for a seed whose world was not built ahead.
  const generate = hasPrebuiltWorld(fixture, config.seed) ? undefined : (await import('./seed/index.ts')).seedWorld
  const build = () => (generate ? generate(fixture, config.seed) : readPrebuiltWorld())
  const world = await openWorld({ tables: TABLES, file: config.data, build, announce: config.progress && ((line) => config.progress?.report(line)), ...seams })
  const { store } = world
  // Mixing in how many ids were handed out keeps new uuids fresh after a restart with --data.
  const issued = Object.values(store.data.sequences).reduce((sum, n) => sum + (n ?? 0), 0)
  const blobs = new BlobStore({ dir: config.data === undefined ? undefined : uploadsBeside(config.data), samplesDir })
  const services = createServices({
    store,
    clock,
    random: createRandom(store.data.seed + issued),
    events: createEventBus(),
    blobs,
    behaviour: { recordExpiryDays: config.recordExpiryDays, checkDelaySeconds: config.checkDelay, scanDelaySeconds: config.scanDelay },
    webhooks: { apiBase: `${IN_PROCESS_ORIGIN}${API_BASE}` },
  })
  // A failed save read the world back from its files: the webhook queues follow what they hold.
  world.onReload(() => {
    for (const team of store.allTeams()) services.webhooks.replaced(team)
  })
  // What fell due while the mock was not running (or since the seed's epoch) happens now.
  services.scheduler.runDue()
  store.changing(() => services.webhooks.resume())
  const closing = new AbortController()
  const app = createApp({
    ...services,
    contracts,
    rateLimit: { limit: config.rateLimit, windowSeconds: config.rateLimitWindow },
    cors: config.cors,
    corsOrigins: config.corsOrigins,
    mockCorsOrigins: config.mockCorsOrigins,
    // The address it is bound to reaches it too (0.0.0.0 is no name: reaching it from elsewhere takes --allowed-host).
    allowedHosts: [...(config.host === undefined ? [] : [config.host]), ...config.allowedHosts],
    journalSize: config.journalSize,
    maxBodyBytes: config.maxBody,
    latency: config.latency,
    writeUnit: config.data ? (work) => world.write(work) : undefined,
    version: VERSION,
    progress: config.progress,
    closing: closing.signal,
    control: config.control,
  })

  // The clock ticks with real time: what falls due (check results, expiry) happens within a second
  // even when nobody calls. This timer only looks at the clock; the work is the scheduler's jobs.
  const tick = setInterval(() => services.scheduler.runDue(), 1000)
  tick.unref()

  let server: HttpServer | undefined
  const listen = (port: number, host: string) =>
    new Promise<string>((resolve, reject) => {
      const started = listenOn({ fetch: app.fetch, port, hostname: host }, (info) => {
        const origin = `http://${displayHost(host)}:${info.port}`
        // Links in webhook deliveries point where the API answers.
        services.webhooks.apiBase = `${origin}${API_BASE}`
        // Webhooks may not point back at the mock, under any name that reaches it.
        services.webhooks.listening(info.port, host, config.allowedHosts)
        resolve(origin)
      }) as HttpServer
      started.once('error', reject)
      server = started
    })

  const shutDown = async () => {
    clearInterval(tick)
    if (server) {
      const listening = server
      // Keep-alive connections (the runner's) would hold close() open.
      listening.closeAllConnections()
      await new Promise<void>((resolve) => listening.close(() => resolve()))
    }
    // After the sockets: a held answer let go has nowhere to go but an in-process caller.
    closing.abort()
    await services.webhooks.close()
    await world.close()
    blobs.dispose()
  }
  let closed: Promise<void> | undefined
  return { app, services, world, fixture, listen, close: () => (closed ??= shutDown()) }
}
