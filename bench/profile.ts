// npm run bench:profile: where the built mock's time goes per request, in the TypeScript sources.
// The mock runs as `npm start` runs it, under `node --cpu-prof` (pinned to its own core, as in
// npm run bench), loaded by wrk with one request; the profile's samples taken while the load ran
// are mapped through the bundle's source maps to src/ (or the package they come from) and summed
// by function: self time, in microseconds per request answered, the top costs first. The in-process
// targets run mock.fetch or newTeam() in a loop; large-team profiles the making of a team a fifth
// the size of the scale team's, per record made.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, InvalidArgumentError } from 'commander'
import { build as esbuild } from 'esbuild'
import { bundleOptions } from '../src/build/bundle.ts'
import { build } from '../src/build/main.ts'
import { nodeCommand, pinLoad, pinnableCores } from './cores.ts'
import { loadGenerator, type LoadRequest } from './load.ts'

const TOKEN = 'ivs_acme_owner'
const checkout = fileURLToPath(new URL('../', import.meta.url))

/** What is loaded: the mock's GET by id or list, or the bare Hono server of npm run bench answering the same client's JSON or `{"ok":true}`. */
const TARGETS = {
  'by-id': (origin: string, clientId: number) => `${origin}/api/v2/clients/${clientId}`,
  list: (origin: string) => `${origin}/api/v2/clients?limit=25`,
  'bare-client': (origin: string) => `${origin}/`,
  bare: (origin: string) => `${origin}/`,
  /** mock.fetch of GET /clients/{id} in a process of its own (bench/in-process.ts), no socket. */
  'in-process': () => '',
  /** The bare Hono app.request answering the same JSON, in the same kind of process. */
  'in-process-bare': () => '',
  /** newTeam() in process, one after another. */
  'new-team': () => '',
  /** POST /_mock/teams making a team of LARGE_TEAM's size on the built mock, once: the scale team's time per record. */
  'large-team': () => '',
} as const

/** A fifth of the scale team of npm run bench (100,000 clients, 250,000 records): the same mix, in a minute. */
const LARGE_TEAM = { clients: 20_000, records: 50_000, credit_entries: 1000 }

const options = new Command('bench:profile')
  .description("CPU profile of the built mock under wrk, mapped to the TypeScript sources: each function's self time per request")
  .option('--target <name>', `what to load: ${Object.keys(TARGETS).join(' or ')}`, (value: string) => {
    if (!(value in TARGETS)) throw new InvalidArgumentError(`expected ${Object.keys(TARGETS).join(' or ')}.`)
    return value as keyof typeof TARGETS
  }, 'by-id' as keyof typeof TARGETS)
  .option('--seconds <n>', 'seconds of load profiled (after 2 s of warm-up)', (value: string) => {
    const seconds = Number(value)
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 120) throw new InvalidArgumentError('expected a whole number from 1 to 120.')
    return seconds
  }, 8)
  .option('--top <n>', 'functions listed', (value: string) => Number(value), 25)
  .option('--journal-size <n>', 'the mock\'s --journal-size (its default when left out)')
  .option('--package <folder>', 'profile the build in this folder (its dist/, contracts/, fixtures/ and package.json: an earlier build copied aside) instead of building this checkout')
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
  .parse(process.argv)
  .opts<{ target: keyof typeof TARGETS; seconds: number; top: number; journalSize?: string; package?: string }>()

/** Where the profiled build is: this checkout's dist/, or the folder --package names. */
const root = options.package === undefined ? checkout : `${resolve(options.package)}/`

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
  columnNumber: number
}
interface Profile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

const maps = new Map<string, SourceMap | undefined>()
function mapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))))
    } catch {
      maps.set(file, undefined)
    }
  }
  return maps.get(file)
}

/** Where a frame's code was written: src/… or the npm package, Node's own modules, or V8's pseudo-frames. */
function placeOf(frame: CallFrame): { where: string; group: string } {
  if (frame.url === '') return { where: '', group: frame.functionName.startsWith('(') ? frame.functionName : '(native)' }
  if (frame.url.startsWith('node:')) return { where: frame.url, group: 'node: (Node.js itself)' }
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url
  const entry = mapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber)
  const source = entry && 'originalSource' in entry && entry.originalSource ? relative(root, resolve(file, '..', entry.originalSource)) : relative(root, file)
  const line = entry && 'originalLine' in entry ? entry.originalLine + 1 : frame.lineNumber + 1
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)
  return { where: `${source}:${line}`, group: pkg ? pkg[1] as string : source }
}

async function main(): Promise<void> {
  if (options.package === undefined) await build(() => {})
  const cores = pinnableCores()
  if (cores) pinLoad(cores)
  const generator = loadGenerator()
  if (!generator.trusted) console.log(`note: ${generator.name}`)
  const folder = mkdtempSync(join(tmpdir(), 'ivs-bench-profile-'))
  const inProcess = { 'in-process': 'mock', 'in-process-bare': 'bare', 'new-team': 'team' } as const
  if (options.target in inProcess) return profileInProcess(folder, cores, inProcess[options.target as keyof typeof inProcess])
  const bin = join(root, 'dist/main.js')
  if (options.target === 'large-team') return profileLargeTeam(folder, cores, bin)
  const journal = options.journalSize === undefined ? [] : ['--journal-size', options.journalSize]
  const bare = options.target === 'bare' || options.target === 'bare-client'
  const server = bare ? [await bundled('bare-server.ts', folder)] : [bin, 'serve', '--port', '0', '--rate-limit', '1000000000', ...journal]
  const env: Record<string, string> = options.target === 'bare-client' ? { BARE_BODY: await clientJson() } : {}
  await profileServer(folder, cores, server, env, async (origin, sinceSpawn, pid) => {
    const headers: Record<string, string> = bare ? {} : { Authorization: `Bearer ${TOKEN}` }
    const request: LoadRequest = { url: TARGETS[options.target](origin, bare ? 0 : await firstClient(origin)), headers }
    await generator.run(request, { connections: 10, seconds: 2 })
    const from = sinceSpawn()
    const result = await generator.run(request, { connections: 10, seconds: options.seconds, serverPid: pid })
    const to = sinceSpawn()
    if (result.failures > 0) throw new Error(`${result.failures} answers were not 2xx`)
    return { from, to, count: result.requests, label: `GET ${bare ? `${options.target} ` : ''}${request.url.replace(origin, '')}`, serverCpu: result.serverCpu }
  })
}

/** What a profiled server's samples are summed over: the window (ms after spawn), what was done in it and how many times, and its CPU share when known. */
interface ProfiledWindow {
  from: number
  to: number
  count: number
  label: string
  serverCpu?: number
  unit?: string
}

/** Runs a server under --cpu-prof, lets `work` load it (given its origin, the time since spawn and its pid; answering the window to sum), stops it and prints its profile over that window. */
async function profileServer(folder: string, cores: ReturnType<typeof pinnableCores>, server: string[], env: Record<string, string>, work: (origin: string, sinceSpawn: () => number, pid: number | undefined) => Promise<ProfiledWindow>): Promise<void> {
  const [file, args] = nodeCommand(['--cpu-prof', '--cpu-prof-dir', folder, '--cpu-prof-interval', '100', ...server], cores)
  const spawned = performance.now()
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } })
  try {
    const origin = await new Promise<string>((resolveOrigin, reject) => {
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on (http:\/\/[\d.:]+)/.exec(output)
        if (match) resolveOrigin(match[1] as string)
      })
      child.on('exit', (code) => reject(new Error(`the server exited with ${String(code)}`)))
    })
    const window = await work(origin, () => performance.now() - spawned, child.pid)
    await new Promise<void>((done) => {
      child.removeAllListeners('exit')
      child.once('exit', () => done())
      child.kill('SIGTERM')
    })
    const written = readdirSync(folder).find((name) => name.endsWith('.cpuprofile'))
    if (!written) throw new Error('the server wrote no profile')
    report(JSON.parse(readFileSync(join(folder, written), 'utf8')) as Profile, window, window.count, window.label, window.serverCpu, window.unit)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    rmSync(folder, { recursive: true, force: true })
  }
}

async function profileInProcess(folder: string, cores: ReturnType<typeof pinnableCores>, side: 'mock' | 'bare' | 'team'): Promise<void> {
  // Bundled, not run through tsx, whose loader would transform dist/index.js again and move every position the maps know.
  const script = await bundled('in-process.ts', folder)
  const [file, args] = nodeCommand(['--cpu-prof', '--cpu-prof-dir', folder, '--cpu-prof-interval', '100', script], cores)
  try {
    const output = await new Promise<string>((resolveOutput, reject) => {
      const env = { ...process.env, IN_PROCESS_PROFILE: String(options.seconds), IN_PROCESS_SIDE: side, IVS_MOCK_PACKAGE: join(root, 'dist/index.js') }
      const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'], env })
      let text = ''
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
      child.on('exit', (code) => (code === 0 ? resolveOutput(text) : reject(new Error(`bench/in-process.ts exited with ${String(code)}`))))
    })
    const { requests, fromMs, toMs } = JSON.parse(output) as { requests: number; fromMs: number; toMs: number }
    const written = readdirSync(folder).find((name) => name.endsWith('.cpuprofile'))
    if (!written) throw new Error('no profile was written')
    report(JSON.parse(readFileSync(join(folder, written), 'utf8')) as Profile, { from: fromMs, to: toMs }, requests, { mock: 'mock.fetch /api/v2/clients/{id} in process', bare: 'bare app.request /api/v2/clients/{id} in process', team: 'newTeam() in process' }[side], undefined)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The built mock under --cpu-prof, its samples taken while POST /_mock/teams made the large team: time per record made. */
async function profileLargeTeam(folder: string, cores: ReturnType<typeof pinnableCores>, bin: string): Promise<void> {
  await profileServer(folder, cores, [bin, 'serve', '--port', '0'], {}, async (origin, sinceSpawn) => {
    const from = sinceSpawn()
    const made = await fetch(`${origin}/_mock/teams`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Profiled large team', generate: LARGE_TEAM }) })
    if (made.status !== 201) throw new Error(`POST /_mock/teams answered ${made.status}: ${await made.text()}`)
    return { from, to: sinceSpawn(), count: LARGE_TEAM.records, label: `POST /_mock/teams of ${LARGE_TEAM.clients} clients and ${LARGE_TEAM.records} records`, unit: 'record' }
  })
}

async function firstClient(origin: string): Promise<number> {
  const page = (await (await fetch(`${origin}/api/v2/clients?limit=1`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { data: Array<{ id: number }> }
  const client = page.data[0]
  if (!client) throw new Error('the seeded team has no client')
  return client.id
}

/** The JSON of the seeded team's first client, as the mock answers it: what the bare server answers for bare-client. */
async function clientJson(): Promise<string> {
  const { startMock } = (await import(join(root, 'dist/index.js'))) as typeof import('../src/index.ts')
  const mock = await startMock()
  try {
    const headers = { Authorization: `Bearer ${TOKEN}` }
    const page = (await (await mock.fetch('/api/v2/clients?limit=1', { headers })).json()) as { data: Array<{ id: number }> }
    return await (await mock.fetch(`/api/v2/clients/${page.data[0]?.id ?? 1}`, { headers })).text()
  } finally {
    await mock.close()
  }
}

/** A script of bench/ bundled into `folder` as npm run bench bundles it. */
async function bundled(script: string, folder: string): Promise<string> {
  const outfile = join(folder, script.replace(/\.ts$/, '.js'))
  await esbuild({ ...bundleOptions(fileURLToPath(new URL(`./${script}`, import.meta.url)), outfile), write: true })
  return outfile
}

/** Sums the self time of the samples taken between `from` and `to` (ms after spawn) by function and by source. */
function report(profile: Profile, window: { from: number; to: number }, requests: number, path: string, serverCpu: number | undefined, unit = 'request'): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  const names = new Map<number, { name: string; group: string }>()
  const nameOf = (id: number) => {
    let known = names.get(id)
    if (!known) {
      const frame = (byId.get(id) as { callFrame: CallFrame }).callFrame
      const { where, group } = placeOf(frame)
      known = { name: `${frame.functionName || '(anonymous)'}${where ? `  ${where}` : ''}`, group }
      names.set(id, known)
    }
    return known
  }
  /** Time with the function on the stack (once per sample, however deep it recurses): the mock's own functions only. */
  const inclusive = new Map<string, number>()
  const byFunction = new Map<string, number>()
  const byGroup = new Map<string, number>()
  let busy = 0
  let idle = 0
  let at = 0
  for (const [index, id] of profile.samples.entries()) {
    const delta = profile.timeDeltas[index] as number
    at += delta
    const ms = at / 1000
    if (ms < window.from || ms > window.to) continue
    const frame = (byId.get(id) as { callFrame: CallFrame }).callFrame
    if (frame.functionName === '(idle)') {
      idle += delta
      continue
    }
    busy += delta
    const { name, group } = nameOf(id)
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta)
    byGroup.set(group, (byGroup.get(group) ?? 0) + delta)
    const onStack = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const caller = nameOf(at)
      if (caller.group.startsWith('src/')) onStack.add(caller.name)
    }
    for (const caller of onStack) inclusive.set(caller, (inclusive.get(caller) ?? 0) + delta)
  }
  const perRequest = (us: number) => (us / requests).toFixed(2).padStart(8)
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)} %`
  console.log(`${path}: ${requests} ${unit}s in ${((window.to - window.from) / 1000).toFixed(1)} s; the mock's CPU ${serverCpu === undefined ? '?' : `${(serverCpu * 100).toFixed(0)} %`}, ${perRequest(busy).trim()} µs busy per ${unit} (idle ${((idle / (busy + idle)) * 100).toFixed(0)} % of the samples)`)
  console.log('')
  console.log(`self time by source (µs per ${unit}, share of the busy time):`)
  for (const [group, us] of [...byGroup].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${perRequest(us)}  ${share(us)}  ${group}`)
  console.log('')
  console.log('self time by function:')
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, options.top)) console.log(`${perRequest(us)}  ${share(us)}  ${name}`)
  console.log('')
  console.log("total time by function of src/ (with what it calls):")
  for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, options.top)) console.log(`${perRequest(us)}  ${share(us)}  ${name}`)
}

await main()
