// CLI entry: config -> world -> createApp() -> listen (127.0.0.1 by default).
import { existsSync, readFileSync } from 'node:fs'
import { serve as listen } from '@hono/node-server'
import { CommanderError } from 'commander'
import { API_BASE, CONTROL_BASE, createApp } from './app.ts'
import { buildCli, toServeConfig, type ServeConfig } from './config.ts'
import { Contracts } from './contracts/load.ts'
import { createClock } from './kernel/clock.ts'
import { createEventBus } from './kernel/events.ts'
import { createRandom } from './kernel/random.ts'
import { createServices } from './services.ts'
import { contractsDir, packageJsonPath, prebuiltWorldPath, samplesDir } from './paths.ts'
import { loadWorldFixture, type WorldFixture } from './seed/fixture.ts'
import { seedWorld } from './seed/index.ts'
import { BlobStore, uploadsBeside } from './store/blobs.ts'
import { DataFileError, openWorld } from './store/persistence.ts'
import type { Store, WorldData } from './store/world.ts'
import { TABLES } from './tables.ts'

const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version: string }

/** Exit codes: 0 done, 1 the server could not run, 2 bad command line or configuration. */
const USAGE_ERROR = 2

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/** The ready-made tokens of fixtures/world.json: those that work, one line per team, then the rest. */
function tokenLines(fixture: WorldFixture, store: Store, nowTimestamp: string): string[] {
  const resolved = fixture.tokens.map((token) => ({ token, identity: store.resolveToken(token.token, () => nowTimestamp) }))
  const lines: string[] = []
  for (const team of fixture.teams) {
    const tokens = resolved
      .filter(({ token, identity }) => identity && token.team === team.key)
      .map(({ token, identity }) => `${token.token} (${identity?.member.role ?? ''})`)
    if (tokens.length > 0) lines.push(`${team.name}${team.cases_enabled ? '' : ' [legacy, no cases]'}: ${tokens.join(', ')}`)
  }
  const rejected = resolved.filter(({ identity }) => !identity).map(({ token }) => token.token)
  if (rejected.length > 0) lines.push(`401 on purpose: ${rejected.join(', ')}`)
  return lines
}

/** The fixture's own seed was seeded by the build (dist/world.json); any other seed is seeded now. */
function seededWorld(fixture: WorldFixture, seed: number | undefined): WorldData {
  if ((seed === undefined || seed === fixture.seed) && existsSync(prebuiltWorldPath)) {
    return JSON.parse(readFileSync(prebuiltWorldPath, 'utf8')) as WorldData
  }
  return seedWorld(fixture, seed)
}

async function serve(config: ServeConfig): Promise<void> {
  const contracts = new Contracts(contractsDir, { validateSchemas: false })
  const fixture = loadWorldFixture()
  const clock = createClock({ start: config.clock })
  const world = await openWorld({ tables: TABLES, file: config.data, build: () => seededWorld(fixture, config.seed) })
  const { store } = world
  // Mixing in how many ids were handed out keeps new uuids fresh after a restart with --data.
  const issued = Object.values(store.data.sequences).reduce((sum, n) => sum + (n ?? 0), 0)
  let deliveriesChanged = false
  const services = createServices({
    store,
    clock,
    random: createRandom(store.data.seed + issued),
    events: createEventBus(),
    blobs: new BlobStore({ dir: config.data === undefined ? undefined : uploadsBeside(config.data), samplesDir }),
    behaviour: { recordExpiryDays: config.recordExpiryDays, checkDelaySeconds: config.checkDelay, scanDelaySeconds: config.scanDelay },
    // Delivery attempts settle outside requests: the tick saves what they changed.
    webhooks: { onChange: () => (deliveriesChanged = true) },
  })
  // What fell due while the mock was not running (or since the seed's epoch) happens now.
  services.scheduler.runDue()
  services.webhooks.resume()
  const app = createApp({
    ...services,
    contracts,
    rateLimit: { limit: config.rateLimit, windowSeconds: config.rateLimitWindow },
    cors: config.cors,
    afterWrite: config.data ? () => world.save() : undefined,
    version: packageJson.version,
  })

  const server = listen({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const origin = `http://${displayHost(config.host)}:${info.port}`
    // Links in webhook deliveries point where the API answers.
    services.webhooks.apiBase = `${origin}${API_BASE}`
    const firstToken = fixture.tokens.find((token) => store.resolveToken(token.token, clock.timestamp))?.token ?? '<token>'
    const state = config.data ? `${config.data} (${world.origin})` : 'in memory'
    const lines = [
      `IVS mock ${packageJson.version} listening on ${origin}${API_BASE}`,
      `  State    ${state}, seed ${store.data.seed}${config.data && world.origin === 'loaded' ? ' (from the file)' : ''}`,
      `  OpenAPI  ${origin}/openapi.json`,
      `  Control  ${origin}${CONTROL_BASE} (fresh teams: POST ${CONTROL_BASE}/teams; ${origin}${CONTROL_BASE}/openapi.json)`,
      ...tokenLines(fixture, store, clock.timestamp()).map((line, index) => `  ${index === 0 ? 'Tokens ' : '       '}  ${line}`),
      `  Try      curl -H "Authorization: Bearer ${firstToken}" "${origin}${API_BASE}/clients?limit=2"`,
    ]
    console.log(lines.join('\n'))
  })
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use; choose another with --port or PORT`
        : error.code === 'EADDRNOTAVAIL'
          ? `cannot bind to ${config.host}: no such local address`
          : error.message
    console.error(`ivs-mock: ${reason}`)
    process.exit(1)
  })
  // The clock ticks with real time: what falls due (check results, expiry) happens within a second
  // even when nobody calls. This timer only looks at the clock; the work is the scheduler's jobs.
  const tick = setInterval(() => {
    const ran = services.scheduler.runDue()
    if ((ran > 0 || deliveriesChanged) && config.data) void world.save()
    deliveriesChanged = false
  }, 1000)
  tick.unref()
  const stop = (signal: string) => {
    clearInterval(tick)
    console.log(`ivs-mock: ${signal}, stopping`)
    server.close()
    void world.save().finally(() => process.exit(0))
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}

async function main(argv: string[]): Promise<void> {
  const { program, serve: serveCommand } = buildCli(packageJson.version)
  serveCommand.action(async (options: Record<string, unknown>) => {
    try {
      await serve(toServeConfig(options))
    } catch (error) {
      if (error instanceof DataFileError) {
        console.error(`ivs-mock: ${error.message}`)
        process.exit(USAGE_ERROR)
      }
      throw error
    }
  })
  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : USAGE_ERROR)
    throw error
  }
}

await main(process.argv)
