// CLI entry: config -> the mock (src/mock.ts) -> listen (127.0.0.1 by default); verify runs the scenarios against it or a --base.
import { readFileSync } from 'node:fs'
import { resolve as resolvePath } from 'node:path'
import { parseEnv } from 'node:util'
import { CommanderError } from 'commander'
import { API_BASE, CONTROL_BASE, DASHBOARD_BASE, DOCS_BASE } from './app.ts'
import { buildCli, serveOptions, toDiffConfig, toProxyConfig, toServeConfig, toVerifyConfig, unknownCommand, type ProxyConfig, type ServeConfig } from './config.ts'
// The harness (verify, proxy, diff, pact) is imported by the command that runs it: serve never
// loads it, nor its YAML, JUnit and OpenAPI libraries, and starts that much sooner.
const harness = {
  diff: () => import('./harness/diff/command.ts'),
  pact: () => import('./harness/pact/cli.ts'),
  proxy: () => import('./harness/proxy.ts'),
  proxyReport: () => import('./harness/proxy-report.ts'),
  record: () => import('./harness/record.ts'),
  verify: () => import('./harness/verify.ts'),
}
import { displayHost, openMock, VERSION } from './mock.ts'
import { contractsDir, samplesDir, scenariosDir } from './paths.ts'
import type { WorldFixture } from './seed/fixture.ts'
import { DataFileError } from './store/persistence.ts'
import { oauthOf } from './oauth/index.ts'
import type { Store } from './store/world.ts'

/** Exit codes: 0 done, 1 the server could not run, 2 bad command line or configuration. */
const USAGE_ERROR = 2

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

/**
 * The mock as `serve` runs it (src/mock.ts), listening. It resolves once listening; `announce`
 * prints the start-up lines and stops on SIGINT/SIGTERM.
 */
async function serveMock(config: ServeConfig, announce: boolean): Promise<{ origin: string; close(): Promise<void> }> {
  const mock = await openMock(announce ? { ...config, progress: { report: (line) => console.log(line) } } : config)
  const { store } = mock.world
  const { clock } = mock.services
  const origin = await mock.listen(config.port, config.host).catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is already in use; choose another with --port or PORT`
        : error.code === 'EADDRNOTAVAIL'
          ? `cannot bind to ${config.host}: no such local address`
          : error.message
    console.error(`ivs-mock: ${reason}`)
    process.exit(1)
  })
  if (announce) {
    const { fixture, world } = mock
    const firstToken = fixture.tokens.find((token) => store.resolveToken(token.token, clock.timestamp))?.token ?? '<token>'
    const state = config.data ? `${config.data} (${world.origin})` : 'in memory'
    const oauthClient = oauthOf(store).clients()[0]
    const lines = [
      `IVS mock ${VERSION} listening on ${origin}${API_BASE}`,
      `  State    ${state}, seed ${store.data.seed}${config.data && world.origin === 'loaded' ? ' (from the file)' : ''}`,
      `  Clock    ${clock.timestamp()}, ${clock.frozen ? (config.control ? 'frozen (POST /_mock/clock/advance moves it)' : 'frozen') : 'ticking'}`,
      `  OpenAPI  ${origin}/openapi.json (browse it at ${origin}${DOCS_BASE})`,
      config.control
        ? `  Control  ${origin}${CONTROL_BASE} (fresh teams: POST ${CONTROL_BASE}/teams; ${origin}${CONTROL_BASE}/openapi.json)`
        : `  Control  off (--no-control): ${CONTROL_BASE} answers 404, as on a real deployment`,
      `  Demo     ${origin}${DASHBOARD_BASE} (the dashboard; records' perform_url open the client's perform page)`,
      ...tokenLines(fixture, store, clock.timestamp()).map((line, index) => `  ${index === 0 ? 'Tokens ' : '       '}  ${line}`),
      ...(oauthClient ? [`  OAuth    ${origin}/oauth/authorize and /oauth/token; client ${oauthClient.name}: id ${oauthClient.id}, secret ${oauthClient.secret}`] : []),
      `  Try      curl -H "Authorization: Bearer ${firstToken}" "${origin}${API_BASE}/clients?limit=2"`,
    ]
    const stop = (signal: string) => {
      console.log(`ivs-mock: ${signal}, stopping`)
      void mock.close().finally(() => process.exit(0))
    }
    // Before the lines that say it listens: whoever reads them may stop it at once.
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
    console.log(lines.join('\n'))
  }
  return { origin, close: () => mock.close() }
}

/** The serve options' defaults, as `verify` starts the mock when it has no --base. */
function inProcessMockConfig(): ServeConfig {
  const defaults = Object.fromEntries(serveOptions().map((option) => [option.attributeName(), option.defaultValue as unknown]))
  // A free port on loopback, no CORS, and no rate limit worth the name: the scenarios run in parallel.
  return { ...toServeConfig(defaults), port: 0, host: '127.0.0.1', rateLimit: 1_000_000_000, cors: false }
}

/** pact verify against --base, or against a mock started for the run on a free port of 127.0.0.1. */
async function pactVerify(files: string[], base: string | undefined): Promise<number> {
  const { runPactVerify } = await harness.pact()
  const start = async () => {
    const mock = await serveMock(inProcessMockConfig(), false)
    return { origin: mock.origin, stop: () => mock.close() }
  }
  return runPactVerify(files, base ? { origin: base } : { start })
}

/** Reads a tokens file of NAME=value lines (util.parseEnv: the dotenv syntax). */
function readTokensFile(file: string | undefined): Record<string, string> {
  if (!file) return {}
  try {
    return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>
  } catch (error) {
    throw new UsageError(`cannot read the tokens file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

class UsageError extends Error {}

async function verifyAction(options: Record<string, unknown>): Promise<number> {
  const config = toVerifyConfig(options, process.env, readTokensFile(options.tokensFile as string | undefined))
  const scenarioPaths = config.scenarios ?? [scenariosDir]
  const { printCoverage, verify } = await harness.verify()
  if (config.coverage) return printCoverage(scenarioPaths)
  const mock = config.base ? undefined : await serveMock(inProcessMockConfig(), false)
  try {
    return await verify({
      base: config.base ?? `${mock?.origin ?? ''}${API_BASE}`,
      scenarioPaths,
      tokens: config.tokens,
      grep: config.grep,
      tags: config.tags,
      bail: config.bail,
      junit: config.junit,
      json: config.json,
      timeoutSeconds: config.timeoutSeconds,
      concurrency: config.concurrency,
      wait: config.wait,
      keep: config.keep,
      readOnly: config.readOnly,
      baseline: config.baseline,
      receiverUrl: config.receiverUrl,
      receiverPort: config.receiverPort,
      samplesDir,
    })
  } finally {
    await mock?.close()
  }
}

async function runProxy(config: ProxyConfig): Promise<void> {
  // The proxy judges answers too, with Ajv (serve never loads it: its validators come with the build).
  const [{ AjvContracts }, { breaksContract, ValidatingProxy }, { proxyReport, unwritable, writeJsonReport, writeJunitReport }, { recordScenario, writeScenario }] = await Promise.all([
    import('./contracts/ajv.ts'),
    harness.proxy(),
    harness.proxyReport(),
    harness.record(),
  ])
  // The reports are written when the proxy stops: a path that cannot take one is found now, not then.
  const reports = Object.entries({ '--json': config.json, '--junit': config.junit, '--record': config.record }).flatMap(([flag, file]) => (file === undefined ? [] : [[flag, file] as const]))
  for (const [flag, file] of reports) {
    const problem = unwritable(file)
    if (problem !== undefined) {
      console.error(`ivs-mock proxy: ${flag} ${file}: cannot be written: ${problem}`)
      process.exit(USAGE_ERROR)
    }
  }
  for (const [index, [flag, file]] of reports.entries()) {
    const same = reports.slice(index + 1).find(([, other]) => resolvePath(other) === resolvePath(file))
    if (same) {
      console.error(`ivs-mock proxy: ${flag} and ${same[0]} name the same file ${file}`)
      process.exit(USAGE_ERROR)
    }
  }
  const contracts = new AjvContracts(contractsDir, { validateSchemas: false })
  const proxy = new ValidatingProxy(contracts, { upstream: config.upstream, host: config.host, port: config.port, log: (line) => console.log(line) })
  let port: number
  try {
    port = await proxy.start()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    console.error(`ivs-mock proxy: ${code === 'EADDRINUSE' ? `port ${config.port} on ${config.host} is already in use; choose another with --port` : (error as Error).message}`)
    process.exit(1)
  }
  const writers: Record<string, (file: string) => void> = {
    '--json': (file) => writeJsonReport(file, proxyReport(config.upstream, proxy.report(), proxy.exchanges)),
    '--junit': (file) => writeJunitReport(file, config.upstream, proxy.exchanges),
    '--record': (file) =>
      writeScenario(
        file,
        recordScenario(proxy.exchanges, contracts, {
          name: `Session recorded through ivs-mock proxy at ${new Date().toISOString()}`,
          description: `What a client did against ${config.upstream}, recorded by ivs-mock proxy --record.`,
          roleTokens: config.roleTokens,
        }),
        contracts,
      ),
  }
  let stopping = false
  /** Writes every report it can (one that fails does not stop the others), then exits: 1 when one failed or the proxy broke. */
  const stop = async (why: string, broke = false) => {
    if (stopping) return
    stopping = true
    await proxy.stop()
    const written: string[] = []
    let failed = false
    for (const [flag, file] of reports) {
      try {
        writers[flag]?.(file)
        written.push(file)
      } catch (error) {
        failed = true
        console.error(`ivs-mock proxy: could not write ${flag} ${file}: ${(error as Error).message}`)
      }
    }
    const failing = proxy.exchanges.filter(breaksContract).length
    const byProxy = proxy.exchanges.filter((exchange) => exchange.answeredBy === 'proxy').length
    console.log(
      `ivs-mock proxy: ${why}, ${proxy.exchanges.length} exchanges, ${failing} breaking the contract${byProxy > 0 ? `, ${byProxy} answered by the proxy` : ''}${written.length > 0 ? `; wrote ${written.join(', ')}` : ''}`,
    )
    process.exit(failed || broke ? 1 : 0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))
  // Nothing a client or an upstream does should get here; if something still does, the reports are not lost.
  process.on('uncaughtException', (error) => {
    console.error(`ivs-mock proxy: unexpected error: ${error.stack ?? error.message}`)
    // One while the reports are written would leave nobody to end the process.
    if (stopping) process.exit(1)
    void stop('stopped by an unexpected error', true)
  })
  console.log(`ivs-mock proxy listening on http://${displayHost(config.host)}:${port} -> ${config.upstream} (stop with Ctrl-C to write the reports)`)
}

async function main(argv: string[]): Promise<void> {
  const { program, serve: serveCommand, verify: verifyCommand, proxy: proxyCommand, diff: diffCommand, pactVerify: pactVerifyCommand, pactCheck: pactCheckCommand } = buildCli(VERSION)
  const unknown = unknownCommand(program, argv.slice(2))
  if (unknown) {
    console.error(unknown)
    process.exit(USAGE_ERROR)
  }
  verifyCommand.action(async (options: Record<string, unknown>) => {
    try {
      process.exitCode = await verifyAction(options)
    } catch (error) {
      if (error instanceof UsageError) {
        console.error(`ivs-mock verify: ${error.message}`)
        process.exit(USAGE_ERROR)
      }
      throw error
    }
  })
  proxyCommand.action((options: Record<string, unknown>) => runProxy(toProxyConfig(options)))
  diffCommand.action(async (document: string, options: Record<string, unknown>) => process.exit(await (await harness.diff()).runDiff({ ...toDiffConfig(document, options), contractsDir, version: VERSION })))
  pactCheckCommand.action(async (files: string[]) => process.exit((await harness.pact()).runPactCheck(files)))
  pactVerifyCommand.action(async (files: string[], options: { base?: string }) => process.exit(await pactVerify(files, options.base)))
  serveCommand.action(async (options: Record<string, unknown>) => {
    try {
      await serveMock(toServeConfig(options), true)
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
