// npm run bench: the mock against a bare Hono handler, measured in the same run on 127.0.0.1 with a
// load generator that saturates the bare handler (wrk, bench/load.ts). Prints throughput and
// latency as ratios to the bare handler with each server's CPU share, the in-process figures,
// start-up times and memory, the scale figures against their floor, and every goal of the mock's
// speed beside its figure, met or not; a whole run writes them to docs/benchmark.md.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent, createServer, get as httpGet } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, InvalidArgumentError } from 'commander'
import { build as esbuild } from 'esbuild'
import { bundleOptions } from '../src/build/bundle.ts'
import { build } from '../src/build/main.ts'
import { nodeCommand, pinLoad, pinnableCores, type Cores } from './cores.ts'
import { measureFloor } from './floor.ts'
import { measureInProcess } from './in-process-run.ts'
import { loadGenerator, median, percent, rssMegabytes, SATURATED, type LoadRequest } from './load.ts'
import { goal, loadAverage, report, writeReport } from './report.ts'
import { measureScale } from './scale.ts'

const TOKEN = 'ivs_acme_owner'
/** The seeded world's first OAuth client (fixtures/world.json), for an access token issued through the OAuth flow. */
const FIXTURE = fileURLToPath(new URL('../fixtures/world.json', import.meta.url))
const STARTUP_LIMIT_MS = 30_000
/** Where a whole run writes its figures (the docs show these, never figures typed by hand). */
const DEFAULT_REPORT = fileURLToPath(new URL('../docs/benchmark.md', import.meta.url))

function positiveInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 600) throw new InvalidArgumentError('expected a whole number from 1 to 600.')
  return parsed
}

function countOfClients(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 100_000) throw new InvalidArgumentError('expected a whole number from 0 to 100000.')
  return parsed
}

/** A webhook receiver that never answers: each delivery attempt waits for its 5-second timeout. */
async function hangingReceiver(): Promise<{ url: string; close: () => void; requests: () => number }> {
  let requests = 0
  const server = createServer(() => {
    requests++
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests: () => requests,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** A fresh team through the control API, optionally with a webhook on every event; its owner's headers for POST /clients. */
async function teamForWrites(origin: string, name: string, webhookUrl?: string): Promise<Record<string, string>> {
  const res = await fetch(`${origin}/_mock/teams`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) })
  if (res.status !== 201) throw new Error(`POST /_mock/teams answered ${res.status}: ${await res.text()}`)
  const headers = { Authorization: `Bearer ${((await res.json()) as { tokens: { owner: string } }).tokens.owner}`, 'Content-Type': 'application/json' }
  if (webhookUrl) {
    const hook = await fetch(`${origin}/api/v2/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: webhookUrl, events: ['*'] }) })
    if (hook.status !== 201) throw new Error(`POST /webhooks answered ${hook.status}: ${await hook.text()}`)
  }
  return headers
}

/** Restores measured after one snapshot: the median is reported. */
const RESTORES = 7

/**
 * A team of `clients` generated clients (with the attachments, files and forms generation gives
 * them), snapshotted once and restored RESTORES times over HTTP, as a test suite would between tests.
 */
async function snapshotRestore(origin: string, clients: number): Promise<{ rows: number; snapshotMs: number; restoreMs: number }> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${origin}/_mock${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`POST /_mock${path} answered ${res.status}: ${await res.text()}`)
    return res.json() as Promise<Record<string, any>>
  }
  const team = (await post('/teams', { name: `Bench snapshots of ${clients} clients`, generate: { clients } })).team.id as number
  let began = performance.now()
  const snapshot = await post(`/teams/${team}/snapshots`, {})
  const snapshotMs = performance.now() - began
  const times: number[] = []
  for (let round = 0; round < RESTORES; round++) {
    began = performance.now()
    await post(`/teams/${team}/restore`, { snapshot: snapshot.id })
    times.push(performance.now() - began)
  }
  const rows = Object.values(snapshot.rows as Record<string, number>).reduce((sum, count) => sum + count, 0)
  return { rows, snapshotMs, restoreMs: times.sort((a, b) => a - b)[Math.floor(RESTORES / 2)] as number }
}

const NEW_CLIENT = JSON.stringify({ name: { first_name: 'Bench', last_name: 'Client' }, email: 'bench@example.com' })

/**
 * A team of `clients` generated clients, made through the control API as a CI job would, and a
 * client from the middle of it: GET by id must cost the same there as in a team of 50.
 */
async function largeTeam(origin: string, clients: number): Promise<{ headers: Record<string, string>; clientId: number; seconds: number }> {
  const began = performance.now()
  const res = await fetch(`${origin}/_mock/teams`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `Bench team of ${clients} clients`, generate: { clients } }),
  })
  if (res.status !== 201) throw new Error(`POST /_mock/teams answered ${res.status}: ${await res.text()}`)
  const seconds = (performance.now() - began) / 1000
  const headers = { Authorization: `Bearer ${((await res.json()) as { tokens: { owner: string } }).tokens.owner}` }
  const page = await fetch(`${origin}/api/v2/clients?limit=1&page=${Math.ceil(clients / 2)}`, { headers })
  const client = ((await page.json()) as { data: Array<{ id: number }> }).data[0]
  if (!client) throw new Error('the large team has no client in its middle')
  return { headers, clientId: client.id, seconds }
}

const options = new Command('bench')
  .description('Benchmark the mock against a bare Hono handler')
  .option('--duration <seconds>', 'seconds of load per target', positiveInteger, 5)
  .option('--connections <n>', 'concurrent connections', positiveInteger, 10)
  .option('--warmup <seconds>', 'seconds of load before each measurement', positiveInteger, 1)
  .option('--rounds <n>', 'rounds over all targets, interleaved; medians are reported', positiveInteger, 5)
  .option('--startups <n>', 'start-ups of each server, interleaved; the median is reported', positiveInteger, 5)
  .option('--only-startup', 'measure start-up only, no load')
  .option('--scale-records <n>', 'records of the scale team of 100,000 clients (bench/scale.ts; the goals are set for 250000, the default: with the floor and --scale-repeats, about 5 minutes and 4 GB today; 0: none)', (value: string) => {
    const records = Number(value)
    if (!Number.isInteger(records) || records < 0 || records > 250_000) throw new InvalidArgumentError('expected a whole number from 0 to 250000.')
    return records
  }, 250_000)
  .option('--scale-repeats <n>', "times the scale team is made and the floor's rows copied, each in a fresh process: the medians are judged (bench/scale.ts)", positiveInteger, 3)
  .option('--only-scale', 'measure only the scale figures')
  .option('--only-floor', "measure only the floor under the scale goals: the scale team's rows as plain objects, in process (bench/floor.ts; about 2 minutes and 4 GB)")
  .option('--large-team <clients>', 'clients of the large team made through POST /_mock/teams (0: none)', countOfClients, 100_000)
  .option('--snapshot-team <clients>', 'clients of the team snapshotted and restored through the control API (0: none)', countOfClients, 5000)
  .option('--only <regex>', 'load only the targets whose name matches (the bare handler always runs)', (value: string) => new RegExp(value, 'i'))
  .option('--only-in-process', 'measure only the in-process figures (mock.fetch against a bare app.request, newTeam())')
  .option('--no-pin', 'let the load and the servers share every core (by default, with Linux taskset and 2 CPUs or more, the load generator runs on core 0 and every server under load on core 1)')
  .option('--report <file>', 'where to write the figures as Markdown (a whole run writes docs/benchmark.md; a partial one nothing unless given)')
  .option('--no-report', 'write no report, not even for a whole run')
  .option('--latency-requests <n>', 'requests, one at a time, for the latency of GET /clients/{id} direct and through the proxy (0: none)', countOfClients, 2000)
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
  .parse(process.argv)
  .opts<{
    duration: number
    connections: number
    warmup: number
    rounds: number
    startups: number
    onlyStartup?: boolean
    scaleRecords: number
    scaleRepeats: number
    onlyScale?: boolean
    onlyFloor?: boolean
    onlyInProcess?: boolean
    largeTeam: number
    snapshotTeam: number
    only?: RegExp
    latencyRequests: number
    pin: boolean
    report?: string | boolean
  }>()

interface Started {
  child: ChildProcess
  origin: string
  /** From spawn to the `listening` line. */
  startupMs: number
}

/** Where the load and the servers run (undefined: anywhere); set once the start-ups are measured. */
let pinnedTo: Cores | undefined

function start(command: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const began = performance.now()
  return new Promise((resolve, reject) => {
    const [file, args] = nodeCommand(command, pinnedTo)
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command.join(' ')} did not start within ${STARTUP_LIMIT_MS} ms`))
    }, STARTUP_LIMIT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ child, origin: match[1] as string, startupMs: performance.now() - began })
      }
    })
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${String(code)}`)))
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** What a first request asks: the mock's first page of clients, or the bare handler's JSON. */
interface Probe {
  path: string
  headers: Record<string, string>
}

/** From spawn to the first answer of `probe`, and the RSS once the process has been idle for IDLE_MS after it. */
async function startAndAnswer(command: string[], probe: Probe): Promise<{ child: ChildProcess; listeningMs: number; answerMs: number; idleRss: number }> {
  const began = performance.now()
  const started = await start(command)
  const res = await fetch(`${started.origin}${probe.path}`, { headers: probe.headers })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`${command.join(' ')}: GET ${probe.path} answered ${res.status}`)
  const answerMs = performance.now() - began
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
  return { child: started.child, listeningMs: started.startupMs, answerMs, idleRss: rssMegabytes(started.child.pid) }
}

/** How long a just-started process sits idle before its RSS is read. */
const IDLE_MS = 1000


interface Measurement {
  name: string
  requestsPerSecond: number
  /** Milliseconds. */
  p50: number
  p99: number
  /** Requests per second in each round (a measurement of one round has its own only). */
  rounds: number[]
  /** The loaded server's CPU share in each round (1: a core busy throughout). */
  serverCpu: number[]
  /** The generator's CPU share in each round. */
  generatorCpu: number[]
  /** The target's yardstick as measured just before it in each round. */
  yardstick?: Measurement
}

interface Target extends LoadRequest {
  name: string
  /** The process that answers (the proxy, for the target through it). */
  pid: number | undefined
  /** The bare server it is set against, loaded just before it in every round. */
  yardstick?: Target
}

const generator = loadGenerator()

async function measure(target: Target, round: number, beside?: Target): Promise<Measurement> {
  const run = (seconds: number, serverPid?: number) => generator.run(target, { connections: options.connections, seconds, serverPid })
  const name = beside ? `${target.name}, beside ${beside.name}` : target.name
  process.stdout.write(`  round ${round}/${options.rounds} ${name}: warm-up ${options.warmup} s, measuring ${options.duration} s ... `)
  await run(options.warmup)
  const result = await run(options.duration, target.pid)
  if (result.failures > 0) throw new Error(`${target.name}: ${result.failures} answers not 2xx or socket errors; the measurement is not valid`)
  const serverCpu = result.serverCpu ?? Number.NaN
  console.log(`${result.requestsPerSecond.toFixed(0)} req/s, the server at ${percent(serverCpu)} CPU, the generator at ${percent(result.generatorCpu)}`)
  return {
    name: target.name,
    requestsPerSecond: result.requestsPerSecond,
    p50: result.p50,
    p99: result.p99,
    rounds: [result.requestsPerSecond],
    serverCpu: [serverCpu],
    generatorCpu: [result.generatorCpu],
  }
}


/** Each side's rounds as one measurement: medians, and the rounds in order. */
function combined(name: string, measured: Measurement[]): Measurement {
  return {
    name,
    requestsPerSecond: median(measured.map((m) => m.requestsPerSecond)),
    p50: median(measured.map((m) => m.p50)),
    p99: median(measured.map((m) => m.p99)),
    rounds: measured.map((m) => m.requestsPerSecond),
    serverCpu: measured.map((m) => m.serverCpu[0] as number),
    generatorCpu: measured.map((m) => m.generatorCpu[0] as number),
  }
}

/**
 * Rounds interleave the targets, and a target with a yardstick has it loaded just before it: this
 * machine's speed swings by half within a minute, so a ratio is taken between runs seconds apart.
 */
async function measureAll(targets: Target[]): Promise<Measurement[]> {
  const runs = targets.map(() => [] as Measurement[])
  const yardsticks = targets.map(() => [] as Measurement[])
  for (let round = 1; round <= options.rounds; round++) {
    for (const [index, target] of targets.entries()) {
      if (target.yardstick) yardsticks[index]?.push(await measure(target.yardstick, round, target))
      runs[index]?.push(await measure(target, round))
    }
  }
  return targets.map((target, index) => {
    const measured = combined(target.name, runs[index] ?? [])
    if (target.yardstick) measured.yardstick = combined(target.yardstick.name, yardsticks[index] ?? [])
    return measured
  })
}

/** A ratio of two targets' throughput, or why none can be given. */
type Ratio = { value: number; rounds: number; saturated: string } | { unreliable: string }

/**
 * How fast `measured` is against `base`: the median over the rounds of the two's ratio in each
 * round, counting only the rounds where the yardstick (the bare server, the faster) kept its core
 * busy: in the others the generator or other work set the pace. Against its own yardstick, a
 * target's ratio in a round is to the yardstick loaded just before it; two targets that each have
 * one are compared by their ratios to them; others by their throughput in the round.
 */
function pairedRatio(measured: Measurement, base: Measurement): Ratio {
  if (!generator.trusted) return { unreliable: 'autocannon cannot saturate the bare server: ratios cannot be trusted; apt-get install wrk' }
  const beside = measured.yardstick
  const inRound = (round: number): { value: number; cpu: number } => {
    const at = (m: Measurement) => m.rounds[round] as number
    const cpu = (m: Measurement) => m.serverCpu[round] ?? 0
    if (beside && beside.name === base.name) return { value: at(measured) / at(beside), cpu: cpu(beside) }
    if (beside && base.yardstick) return { value: at(measured) / at(beside) / (at(base) / at(base.yardstick)), cpu: Math.min(cpu(beside), cpu(base.yardstick)) }
    return { value: at(measured) / at(base), cpu: cpu(base) }
  }
  const rounds = measured.rounds.map((_, round) => inRound(round))
  const counted = rounds.flatMap(({ value, cpu }) => (cpu >= SATURATED ? [value] : []))
  // What had to keep its core busy for a round to count.
  const saturated = beside && beside.name !== base.name && base.yardstick ? "the yardstick beside each" : (beside ?? base).name
  if (counted.length === 0) {
    return { unreliable: `${saturated} at ${percent(median(rounds.map(({ cpu }) => cpu)))} CPU, under ${percent(SATURATED)}: the generator or other work on the machine set the pace` }
  }
  return { value: median(counted), rounds: counted.length, saturated }
}

/** A ratio as the table shows it. */
const ratioCell = (ratio: Ratio) => ('value' in ratio ? ratio.value.toFixed(2) : 'unrel.').padStart(9)

/** What a goal's line says of a ratio: the figure, or why there is none. */
function ratioFigure(ratio: Ratio, measured: Measurement, base: Measurement): string {
  if (!('value' in ratio)) return ratio.unreliable
  const rounds = ratio.rounds === options.rounds ? "the rounds' median" : `the median of the ${ratio.rounds} of ${options.rounds} rounds where ${ratio.saturated} was at >= ${percent(SATURATED)} CPU`
  const against = measured.yardstick?.name === base.name ? `${measured.yardstick.requestsPerSecond.toFixed(0)} req/s (the yardstick's runs beside it)` : `${base.requestsPerSecond.toFixed(0)} req/s`
  return `${ratio.value.toFixed(2)}x, ${rounds}; medians ${measured.requestsPerSecond.toFixed(0)} against ${against}`
}

interface Startups {
  /** Medians: spawn to the first answer, spawn to the `listening` line, RSS when idle after the first answer. */
  mock: { answerMs: number; listeningMs: number; idleRss: number }
  bare: { answerMs: number; listeningMs: number; idleRss: number }
}

/** Median start-up times and idle memory of both commands, started and stopped in turn so both see the same machine. */
async function measureStartups(mockCommand: string[], bareCommand: string[]): Promise<Startups> {
  const mockProbe = { path: '/api/v2/clients?limit=1', headers: { Authorization: `Bearer ${TOKEN}` } }
  const runs = { mock: [] as Array<Awaited<ReturnType<typeof startAndAnswer>>>, bare: [] as Array<Awaited<ReturnType<typeof startAndAnswer>>> }
  for (let round = 1; round <= options.startups; round++) {
    const startedMock = await startAndAnswer(mockCommand, mockProbe)
    await stop(startedMock.child)
    const startedBare = await startAndAnswer(bareCommand, { path: '/', headers: {} })
    await stop(startedBare.child)
    runs.mock.push(startedMock)
    runs.bare.push(startedBare)
    console.log(
      `  start-up ${round}/${options.startups}: mock ${startedMock.answerMs.toFixed(0)} ms to its first answer (listening at ${startedMock.listeningMs.toFixed(0)} ms), idle RSS ${startedMock.idleRss.toFixed(0)} MB; bare handler ${startedBare.answerMs.toFixed(0)} ms, ${startedBare.idleRss.toFixed(0)} MB`,
    )
  }
  const medians = (measured: Array<Awaited<ReturnType<typeof startAndAnswer>>>) => ({
    answerMs: median(measured.map((m) => m.answerMs)),
    listeningMs: median(measured.map((m) => m.listeningMs)),
    idleRss: median(measured.map((m) => m.idleRss)),
  })
  return { mock: medians(runs.mock), bare: medians(runs.bare) }
}

/** An access token issued through the OAuth flow (the control API grants the code as the fixture's Acme owner would), for the team and user of TOKEN. */
async function oauthAccessToken(origin: string): Promise<string> {
  const client = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { oauth_clients: Array<{ client_id: string; client_secret: string; redirect_uris: string[] }> })
    .oauth_clients[0]
  if (!client) throw new Error('fixtures/world.json has no OAuth client')
  const redirectUri = client.redirect_uris[0] as string
  const granted = await fetch(`${origin}/_mock/oauth/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_id: client.client_id, redirect_uri: redirectUri, token: TOKEN }),
  })
  if (granted.status !== 201) throw new Error(`POST /_mock/oauth/authorize answered ${granted.status}: ${await granted.text()}`)
  const { code } = (await granted.json()) as { code: string }
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: redirectUri })
  const issued = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() })
  if (issued.status !== 200) throw new Error(`POST /oauth/token answered ${issued.status}: ${await issued.text()}`)
  return ((await issued.json()) as { access_token: string }).access_token
}

/**
 * Faults on the team of TOKEN that never match GET /clients/{id} or GET /clients: one on that very
 * operation but for a query nobody sends, one on another operation. Every request still looks them up and tests them.
 */
async function faultsThatDoNotMatch(origin: string): Promise<void> {
  const team = (await (await fetch(`${origin}/api/v2/team`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { id: number }
  for (const fault of [
    { operationId: 'clients.get', query: { bench: 'never-sent' }, status: 503, times: null },
    { operationId: 'records.list', status: 503, times: null },
  ]) {
    const res = await fetch(`${origin}/_mock/teams/${team.id}/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fault) })
    if (res.status !== 201) throw new Error(`POST /_mock/teams/${team.id}/faults answered ${res.status}: ${await res.text()}`)
  }
}

const LATENCY_BLOCK = 250

/**
 * p50 and p99 in ms of `count` GET requests sent one at a time on one kept-alive connection per
 * URL, the URLs taken in turn by blocks of LATENCY_BLOCK. Not request by request: the proxy and the
 * mock share a core, and the proxy checks an answer against its contract after passing it on, so a
 * direct request sent right after a proxied one waited for that check (a direct p50 of 4 ms against
 * 1 ms through the proxy).
 */
async function sequentialLatency(urls: string[], headers: Record<string, string>, count: number): Promise<Array<{ p50: number; p99: number }>> {
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: 1 }))
  const samples = urls.map(() => [] as number[])
  const once = (url: string, agent: Agent) =>
    new Promise<number>((resolve, reject) => {
      const began = performance.now()
      httpGet(url, { headers, agent }, (res) => {
        res.resume()
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - began) : reject(new Error(`${url} answered ${res.statusCode}`))))
      }).on('error', reject)
    })
  const warmup = Math.min(200, count)
  for (let begun = -warmup; begun < count; begun += LATENCY_BLOCK) {
    for (const [which, url] of urls.entries()) {
      for (let index = begun; index < Math.min(begun + LATENCY_BLOCK, count); index++) {
        const ms = await once(url, agents[which] as Agent)
        if (index >= 0) samples[which]?.push(ms)
      }
    }
  }
  for (const agent of agents) agent.destroy()
  const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0
  return samples.map((values) => ({ p50: percentile(values, 0.5), p99: percentile(values, 0.99) }))
}

const pad = (text: string, width: number) => text.padEnd(width)
const num = (value: number, digits = 0) => value.toFixed(digits).padStart(9)

/** The goals of issue 19: throughput as a ratio to the bare handler in the same run, costs as a share of the target's own throughput. */
const GOALS = {
  byId: 0.65,
  list: 0.35,
  create: 0.5,
  /** The journal, faults that do not match and an OAuth token, each against GET /clients/{id} without it. */
  cost: 0.1,
  /** POST /clients with --data against the same writes in memory. */
  durableCreate: 0.5,
  startupMs: 350,
  /** Spawn to first answer against the bare handler's, in the same run. */
  startupRatio: 1.4,
  idleRssMb: 80,
}

async function main(): Promise<void> {
  const bin = fileURLToPath(new URL('../bin/ivs-mock.js', import.meta.url))
  const bareScript = fileURLToPath(new URL('./bare-server.ts', import.meta.url))
  const loadBefore = loadAverage()
  console.log(`ivs-mock benchmark: Node ${process.version}, ${availableParallelism()} CPUs, ${options.connections} connections, ${options.duration} s per target; load average ${loadBefore}`)
  console.log(`load generator: ${generator.name}`)
  // In process, from the sources: nothing is built or started.
  const reportIfAsked = (whole: boolean, pinning: string) => {
    // Commander leaves `report` undefined when neither --report nor --no-report is given.
    const reportFile = options.report === undefined || options.report === true ? (whole ? DEFAULT_REPORT : undefined) : options.report || undefined
    if (!reportFile) return
    writeReport(reportFile, { generator: generator.name, pinned: pinning, command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`, load: { before: loadBefore, after: loadAverage() } })
    console.log(`written: ${reportFile}`)
  }
  if (options.onlyFloor) {
    measureFloor({ clients: 100_000, records: options.scaleRecords, copies: options.scaleRepeats })
    reportIfAsked(false, 'unpinned: the floor is measured in process')
    return
  }

  // A fresh dist/main.js, so every start below is what npm start runs, never a rebuild.
  console.log('build:')
  await build((line) => console.log(`  ${line}`))
  // The bare handler is bundled the same way, so both sides load one file of plain JavaScript.
  const bareDir = mkdtempSync(join(tmpdir(), 'ivs-bench-'))
  const bareBundle = join(bareDir, 'bare-server.js')
  await esbuild({ ...bundleOptions(bareScript, bareBundle), write: true })
  // The rate limit is lifted so the load measures the mock, not its 429s.
  const mockCommand = [bin, 'serve', '--port', '0', '--rate-limit', '1000000000']
  const children: ChildProcess[] = []
  const cleanups: Array<() => void> = []
  const cores = options.pin ? pinnableCores() : undefined
  const pinning = cores ? `the load on core ${cores.load}, every server it loads on core ${cores.server} (taskset)` : 'unpinned: the load and the servers share every core'
  /** From here on, the load runs on one core and the servers it loads on another. */
  const pin = () => {
    if (!cores) return
    pinLoad(cores)
    pinnedTo = cores
    console.log(`pinned: ${pinning} (--no-pin to share every core)`)
  }
  const scale = () => measureScale({ bin, clients: 100_000, records: options.scaleRecords, connections: options.connections, duration: options.duration, warmup: options.warmup, cores: pinnedTo, generator, repeats: options.scaleRepeats })
  const whole = !options.onlyStartup && !options.onlyScale && !options.onlyInProcess && options.only === undefined
  /** What the options ask to measure; a partial run returns early, and the report is written after it either way. */
  const measureAsked = async (): Promise<void> => {
    if (options.onlyScale) {
      pin()
      await scale()
      return
    }
    if (options.onlyInProcess) {
      pin()
      await measureInProcess(pinnedTo)
      return
    }
    console.log('start-up:')
    const startup = await measureStartups(mockCommand, [bareBundle])
    const startupGoals = () => {
      report(
        `start-up: ${startup.mock.answerMs.toFixed(0)} ms from spawn to the first answer, listening at ${startup.mock.listeningMs.toFixed(0)} ms (bare handler: ${startup.bare.answerMs.toFixed(0)} and ${startup.bare.listeningMs.toFixed(0)} ms), medians of ${options.startups}`,
      )
      report(`idle memory (RSS ${IDLE_MS} ms after the first answer): ${startup.mock.idleRss.toFixed(0)} MB (bare handler: ${startup.bare.idleRss.toFixed(0)} MB)`)
      goal(`start-up (spawn to first answer) at most ${GOALS.startupMs} ms`, startup.mock.answerMs <= GOALS.startupMs, `${startup.mock.answerMs.toFixed(0)} ms`)
      const startupRatio = startup.mock.answerMs / startup.bare.answerMs
      goal(`start-up at most ${GOALS.startupRatio}x the bare handler's`, startupRatio <= GOALS.startupRatio, `${startupRatio.toFixed(2)}x`)
      goal(`idle RSS at most ${GOALS.idleRssMb} MB`, startup.mock.idleRss <= GOALS.idleRssMb, `${startup.mock.idleRss.toFixed(0)} MB`)
    }
    if (options.onlyStartup) {
      console.log('')
      startupGoals()
      return
    }

    pin()
    const mock = await start(mockCommand)
    children.push(mock.child)
    const rssAfterStart = rssMegabytes(mock.child.pid)
    const headers = { Authorization: `Bearer ${TOKEN}` }
    const sample = await fetch(`${mock.origin}/api/v2/clients?limit=1`, { headers })
    const client = ((await sample.json()) as { data: Array<{ id: number }> }).data[0]
    if (!client) throw new Error('the seeded team has no client to read')
    const clientJson = await (await fetch(`${mock.origin}/api/v2/clients/${client.id}`, { headers })).text()
    const records = await fetch(`${mock.origin}/api/v2/records?limit=1`, { headers })
    const record = ((await records.json()) as { data: Array<{ id: number }> }).data[0]
    if (!record) throw new Error('the seeded team has no record to read')

    // The journal's and the faults' costs compare mocks that differ in that one thing: each of
    // these serves GET /clients/{id} alone (the first mock also serves the lists, the records and
    // the OAuth token, and its GET by id runs slower for it: a larger heap, less specialised code).
    const alone = await start(mockCommand)
    children.push(alone.child)
    const withoutJournal = await start([...mockCommand, '--journal-size', '0'])
    children.push(withoutJournal.child)
    // The validating proxy in front of the first mock.
    const proxy = await start([bin, 'proxy', '--upstream', mock.origin, '--port', '0'])
    children.push(proxy.child)

    // The same mock with faults on the team that never match the requests loaded here.
    const faulted = await start(mockCommand)
    children.push(faulted.child)
    await faultsThatDoNotMatch(faulted.origin)
    // The same caller (team and user) through an OAuth access token, a JWT issued by the OAuth flow.
    const oauthHeaders = { Authorization: `Bearer ${await oauthAccessToken(mock.origin)}` }

    // The yardstick of the reads: a bare handler answering {"ok":true}. Beside it one answering the
    // same client JSON as the mock (the same payload to serialise and send), whose POST parses its
    // body and answers 201 with that JSON: the yardstick of the writes.
    const bare = await start([bareBundle])
    children.push(bare.child)
    const bareClient = await start([bareBundle], { BARE_BODY: clientJson })
    children.push(bareClient.child)

    // The large team, the snapshots and the writes each load a mock of their own: a heap grown by
    // one target (100,000 clients, thousands of created ones) slows every other target of its
    // process, and the comparisons above need mocks that differ only in what they compare.
    const crowded = options.largeTeam > 0 ? await start(mockCommand) : undefined
    if (crowded) children.push(crowded.child)
    const large = crowded ? await largeTeam(crowded.origin, options.largeTeam) : undefined
    const rssWithLargeTeam = crowded ? rssMegabytes(crowded.child.pid) : undefined
    if (large) console.log(`large team: ${options.largeTeam} clients made by POST /_mock/teams in ${large.seconds.toFixed(1)} s`)
    const snapshotted = options.snapshotTeam > 0 ? await start(mockCommand) : undefined
    if (snapshotted) children.push(snapshotted.child)
    const snapshots = snapshotted ? await snapshotRestore(snapshotted.origin, options.snapshotTeam) : undefined

    // Writes that publish an event (client.created), without a webhook and with one whose receiver never answers.
    const hanging = await hangingReceiver()
    cleanups.push(hanging.close)
    const writer = await start(mockCommand)
    children.push(writer.child)
    const quiet = await teamForWrites(writer.origin, 'Bench writes without webhooks')
    const subscribed = await teamForWrites(writer.origin, 'Bench writes with a hanging webhook', hanging.url)
    // The same writes on a mock that keeps its state in a data file (--data: each write appended to its change log before the answer).
    const dataDir = mkdtempSync(join(tmpdir(), 'ivs-bench-data-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const durable = await start([...mockCommand, '--data', join(dataDir, 'mock.json')])
    children.push(durable.child)
    const durableWriter = await teamForWrites(durable.origin, 'Bench writes with --data')

    console.log('running:')
    const only = options.only
    const byId = `/api/v2/clients/${client.id}`
    const bareGet: Target = { name: 'bare Hono GET {"ok":true}', url: `${bare.origin}/`, headers: {}, pid: bare.child.pid }
    const barePost: Target = { name: 'bare Hono POST (parses JSON, 201)', url: `${bareClient.origin}/`, headers: { 'Content-Type': 'application/json' }, method: 'POST', body: NEW_CLIENT, pid: bareClient.child.pid }
    const [baseline, bareSame, bareCreate, ...targets] = (await measureAll([
      bareGet,
      { name: "bare Hono GET, the client's JSON", url: `${bareClient.origin}/`, headers: {}, pid: bareClient.child.pid },
      barePost,
      ...([
        { name: 'GET /clients/{id}', url: `${mock.origin}${byId}`, headers, pid: mock.child.pid },
        { name: 'GET /clients/{id}, a mock of its own', url: `${alone.origin}${byId}`, headers, pid: alone.child.pid },
        { name: 'GET /clients/{id}, journal off', url: `${withoutJournal.origin}${byId}`, headers, pid: withoutJournal.child.pid },
        { name: 'GET /clients/{id}, faults set', url: `${faulted.origin}${byId}`, headers, pid: faulted.child.pid },
        { name: 'GET /clients/{id}, OAuth token', url: `${mock.origin}${byId}`, headers: oauthHeaders, pid: mock.child.pid },
        // The proxy and the mock behind it share the servers' core: the proxy's share is what is left.
        { name: 'GET /clients/{id}, via the proxy', url: `${proxy.origin}${byId}`, headers, pid: proxy.child.pid },
        { name: 'GET /clients?limit=25', url: `${mock.origin}/api/v2/clients?limit=25`, headers, pid: mock.child.pid },
        { name: 'GET /records/{id}', url: `${mock.origin}/api/v2/records/${record.id}`, headers, pid: mock.child.pid },
        { name: 'GET /records?limit=25', url: `${mock.origin}/api/v2/records?limit=25`, headers, pid: mock.child.pid },
        { name: 'POST /clients, no webhook', url: `${writer.origin}/api/v2/clients`, headers: quiet, method: 'POST', body: NEW_CLIENT, pid: writer.child.pid },
        { name: 'POST /clients, hanging webhook', url: `${writer.origin}/api/v2/clients`, headers: subscribed, method: 'POST', body: NEW_CLIENT, pid: writer.child.pid },
        { name: 'POST /clients, --data', url: `${durable.origin}/api/v2/clients`, headers: durableWriter, method: 'POST', body: NEW_CLIENT, pid: durable.child.pid },
        ...(crowded && large
          ? [
              { name: `GET /clients/{id}, 50 clients, beside the large team`, url: `${crowded.origin}${byId}`, headers, pid: crowded.child.pid },
              { name: `GET /clients/{id}, ${options.largeTeam} clients`, url: `${crowded.origin}/api/v2/clients/${large.clientId}`, headers: large.headers, pid: crowded.child.pid },
            ]
          : []),
      ] as Target[])
        .filter((target) => !only || only.test(target.name))
        // Writes are set beside the bare POST, which parses its body too; reads beside the bare GET of {"ok":true}.
        .map((target) => ({ ...target, yardstick: target.method === 'POST' ? barePost : bareGet })),
    ])) as [Measurement, Measurement, Measurement, ...Measurement[]]
    const latencyRequests = options.latencyRequests
    const latency =
      latencyRequests > 0
        ? await sequentialLatency([`${mock.origin}${byId}`, `${proxy.origin}${byId}`], headers, latencyRequests)
        : undefined
    const rssAfterLoad = rssMegabytes(mock.child.pid)

    report('')
    report(`medians of ${options.rounds} rounds of ${options.duration} s at ${options.connections} connections, each after ${options.warmup} s of warm-up; ${generator.name}; ${pinning}`)
    report(`${pad('target', 42)}${'req/s'.padStart(9)}${'x bare'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'server'.padStart(9)}${'load'.padStart(9)}`)
    const yardstick = (m: Measurement) => (m.yardstick?.name === bareCreate.name || m === bareCreate ? bareCreate : baseline)
    for (const m of [baseline, bareSame, bareCreate, ...targets]) {
      report(
        `${pad(m.name, 42)}${num(m.requestsPerSecond)}${ratioCell(pairedRatio(m, yardstick(m)))}${num(m.p50, 2)}${num(m.p99, 2)}${percent(median(m.serverCpu)).padStart(9)}${percent(median(m.generatorCpu)).padStart(9)}`,
      )
    }
    report(`${pad('', 42)}x bare: to the bare GET {"ok":true}, a POST to the bare POST, the median of each round's ratio,`)
    report(`${pad('', 42)}each to the yardstick loaded just before the target in that round (its own rows: runs of their own)`)
    report(`${pad('', 42)}(only rounds whose yardstick was at >= ${percent(SATURATED)} CPU; "unrel." when none was)`)
    report(`${pad('', 42)}server, load: the CPU share of the server loaded and of the generator, medians`)
    report('')
    report(
      `memory (RSS): ${rssAfterStart.toFixed(0)} MB after start, ${rssAfterLoad.toFixed(0)} MB after load${rssWithLargeTeam === undefined ? '' : `; the mock with the large team ${rssWithLargeTeam.toFixed(0)} MB`}`,
    )
    const target = (name: string) => targets.find((m) => m.name === name)
    /** A goal on a ratio: judged only when the ratio could be measured. */
    const ratioGoal = (text: string, ratio: Ratio, met: (value: number) => boolean, figure: string) =>
      goal(text, 'value' in ratio ? met(ratio.value) : ratio, figure)
    const throughputGoal = (name: string, base: Measurement, least: number) => {
      const measured = target(name)
      if (!measured) return
      const ratio = pairedRatio(measured, base)
      ratioGoal(`${name} at least ${least.toFixed(2)}x ${base.name}`, ratio, (value) => value >= least, ratioFigure(ratio, measured, base))
    }
    throughputGoal('GET /clients/{id}', baseline, GOALS.byId)
    throughputGoal('GET /clients?limit=25', baseline, GOALS.list)
    throughputGoal('POST /clients, no webhook', bareCreate, GOALS.create)
    const firstById = target('GET /clients/{id}')
    // Each cost: how much throughput GET /clients/{id} loses with it, against the same target without
    // it: the journal and the faults on mocks that serve that request alone, the OAuth token on the first.
    const costGoal = (what: string, withIt: Measurement | undefined, without: Measurement | undefined) => {
      if (!withIt || !without) return
      const ratio = pairedRatio(withIt, without)
      const figure = 'value' in ratio ? `${((1 - ratio.value) * 100).toFixed(1)}%, from ${ratioFigure(ratio, withIt, without)}` : ''
      ratioGoal(`${what} costs GET /clients/{id} under ${GOALS.cost * 100}% of its throughput`, ratio, (value) => 1 - value < GOALS.cost, figure)
    }
    const byIdAlone = target('GET /clients/{id}, a mock of its own')
    costGoal('the traffic journal', byIdAlone, target('GET /clients/{id}, journal off'))
    costGoal('a fault set that does not match', target('GET /clients/{id}, faults set'), byIdAlone)
    costGoal('an OAuth access token (a JWT) instead of a personal token', target('GET /clients/{id}, OAuth token'), firstById)
    if (latency) {
      const [direct, proxied] = latency as [{ p50: number; p99: number }, { p50: number; p99: number }]
      report(
        `proxy: GET /clients/{id} one at a time (${latencyRequests} requests): direct p50 ${direct.p50.toFixed(2)} ms, p99 ${direct.p99.toFixed(2)} ms; through the proxy p50 ${proxied.p50.toFixed(2)} ms, p99 ${proxied.p99.toFixed(2)} ms; added p50 ${(proxied.p50 - direct.p50).toFixed(2)} ms, p99 ${(proxied.p99 - direct.p99).toFixed(2)} ms`,
      )
    }
    // Both on the mock that holds the large team: only the team's size differs.
    const largeById = large ? target(`GET /clients/{id}, ${options.largeTeam} clients`) : undefined
    const smallById = large ? target('GET /clients/{id}, 50 clients, beside the large team') : undefined
    if (smallById && largeById) {
      const same = pairedRatio(largeById, smallById)
      ratioGoal(`GET /clients/{id} as fast with ${options.largeTeam} clients as with 50 (within 10%)`, same, (value) => value >= 0.9, ratioFigure(same, largeById, smallById))
    }
    const [quietWrites, hangingWrites] = [target('POST /clients, no webhook'), target('POST /clients, hanging webhook')]
    if (quietWrites && hangingWrites) {
      report(
        `webhooks: POST /clients with a receiver that never answers subscribed to *: p50 ${hangingWrites.p50.toFixed(2)} ms, p99 ${hangingWrites.p99.toFixed(2)} ms, ${hangingWrites.requestsPerSecond.toFixed(0)} req/s (without: p50 ${quietWrites.p50.toFixed(2)} ms, p99 ${quietWrites.p99.toFixed(2)} ms, ${quietWrites.requestsPerSecond.toFixed(0)} req/s); the receiver got ${hanging.requests()} attempts (one at a time, 5 s each)`,
      )
    }
    const durableWrites = target('POST /clients, --data')
    if (quietWrites && durableWrites) {
      const ratio = pairedRatio(durableWrites, quietWrites)
      ratioGoal(`POST /clients with --data at least ${GOALS.durableCreate.toFixed(2)}x of in memory`, ratio, (value) => value >= GOALS.durableCreate, ratioFigure(ratio, durableWrites, quietWrites))
    }
    if (snapshots) {
      report(
        `snapshots: a team of ${options.snapshotTeam} clients (${snapshots.rows} rows): snapshot ${snapshots.snapshotMs.toFixed(0)} ms, restore ${snapshots.restoreMs.toFixed(0)} ms (median of ${RESTORES}, over HTTP)`,
      )
    }
    startupGoals()
    // In process and the scale team, with the servers above stopped: each runs alone on the servers' core.
    await Promise.all(children.splice(0).map(stop))
    report('')
    await measureInProcess(pinnedTo)
    if (options.scaleRecords > 0) {
      report('')
      await scale()
    }
  }
  try {
    await measureAsked()
  } finally {
    // The mocks stop first: one on a data file finishes a compaction before its folder goes.
    await Promise.all(children.map(stop))
    for (const cleanup of cleanups) cleanup()
    rmSync(bareDir, { recursive: true, force: true })
  }
  reportIfAsked(whole, pinning)
}

await main()
