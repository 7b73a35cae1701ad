// Every shell and JavaScript block of the README and the guides runs as pasted (test/support/snippets.ts
// says how a block is marked when it is a file, continues another, stays running, runs after a stop,
// or cannot run), as a reader meets them:
//
// - In the reading order, on one mock: the README first, then the guides in the order of the
//   README's "Guides" section, every block on the same mock, started as `npm start` starts it. A
//   guide read after the README and the guides before it finds the ids they used taken, so a block
//   that counted on a fresh mock's ids (team 4, webhook 3) fails here.
// - Each guide alone, on a fresh mock of its own: the blocks that can see a mock's state run again,
//   so a guide that counted on what the ones before it made fails there. Those are the blocks that
//   name the mock's port (4010), in their code or in a file block of the guide they run, and those
//   that talk to a server such a block started (the proxy in front of the mock). Any other block
//   (`verify` on the mock it starts in-process, `startMock()`, a mock of the guide's own on 4011)
//   answers the same on a fresh mock and after every guide, so it runs once, in the reading order.
//   The README is first in the reading order, on a fresh mock: that run is its run alone.
//
// The two runs go side by side, each in processes of its own, so on two cores the second adds its
// CPU (about 5 s: six mock start-ups, the blocks' curl and node calls, the proxy) but little wall
// time; one mock for the reading order instead of one per document saves about as much. Measured
// on the 2-core development machine under others' load (load average 8 to 10), three runs each,
// alternated: 55 to 60 s wall and 25 to 27 s of CPU, against 56 to 60 s and 24 to 25 s for the
// test before it (a mock per document, no run in the reading order; 21 s wall at load 4). Each
// block is a test of its own, reported under its guide.
//
// Each guide runs in a folder of its own set up like a project that installed the package
// (`npx ivs-mock`, `import ... from 'ivs-mock'`), with the repository's fixtures/, scenarios/,
// contracts/ and examples/ beside it as in a clone: files carry over only within a guide, state on
// the mock across guides. The ports a block names (4010 the mock, others its own servers) become free
// ones, and curl reports each answer's status: an error status the block does not mention in a
// comment fails it. What a guide left running is stopped when it ends.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../src/paths.ts'
import { chainsOf, departure, jsonValues, outputsOf, readSnippets, type Snippet } from '../support/snippets.ts'

/** What a block may take before it fails: a verify run of every scenario takes the longest. */
const BLOCK_TIMEOUT_MS = 120_000
/** The folders of the repository a block may name, as in a clone. */
const CLONE_FOLDERS = ['fixtures', 'scenarios', 'contracts', 'examples']
/** Where a port is named: a URL's host, --port, PORT=, -p host:container. */
const PORT_PLACES = /((?:127\.0\.0\.1|localhost):|--port[ =]|\bPORT=|-p )(\d{4,5})\b/g
/** Where a block starts a server on a port: those ports (and the mock's 4010) move; any other (a redirect URL's) stays. */
const SERVER_PORTS = /(?:--port[ =]|\bPORT=|-p )(\d{4,5})\b/g
/** The mock's port in the documents. */
const MOCK_PORT = 4010
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/

/** The README, then the documents its "Guides" section links to, in that order. */
function readingOrder(): string[] {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## Guides'), readme.indexOf('\n## ', readme.indexOf('\n## Guides') + 1))
  return ['README.md', ...new Set([...section.matchAll(/\]\((docs\/[^)#]+\.md)\)/g)].map((match) => match[1] as string))]
}

const ORDER = readingOrder()
const GUIDES = readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)

interface Plan {
  doc: string
  snippets: Snippet[]
  chains: Snippet[][]
  outputs: Map<Snippet, Snippet>
  /** The chains that run again on a mock of the guide's own (see the top of the file). */
  alone: Snippet[][]
}

const namesPort = (code: string, ports: Set<number>) => [...code.matchAll(PORT_PLACES)].some((match) => ports.has(Number(match[2])))

function planOf(doc: string): Plan {
  const snippets = readSnippets(projectRoot, doc)
  const chains = chainsOf(snippets)
  const files = snippets.filter((snippet) => snippet.file !== undefined && snippet.skip === undefined)
  // The ports through which a block sees the mock: its own, and those of servers that blocks seeing it start.
  const seeing = new Set([MOCK_PORT])
  const alone = chains.filter((chain) => {
    const code = chain.map((snippet) => snippet.code).join('\n')
    const run = [code, ...files.filter((file) => code.includes(file.file as string)).map((file) => file.code)].join('\n')
    if (!namesPort(run, seeing)) return false
    if (chain.some((snippet) => snippet.background !== undefined)) for (const [, port] of code.matchAll(SERVER_PORTS)) seeing.add(Number(port))
    return true
  })
  return { doc, snippets, chains, outputs: outputsOf(snippets), alone: doc === ORDER[0] ? [] : alone }
}

const PLANS = new Map(ORDER.filter((doc) => doc === 'README.md' || GUIDES.includes(doc)).map((doc) => [doc, planOf(doc)]))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** What running a chain gave: its output, its exit code (none for a block left running), the statuses curl saw. */
interface Outcome {
  output: string
  code?: number | null
  statuses: number[]
  /** Why it could not run at all (its background never got ready, the mock did not start). */
  error?: string
}

/** Runs a command in its own process group (so all it starts can be stopped), up to a deadline. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      output += `\n(stopped after ${options.timeoutMs / 1000} s)`
      void stopGroup(child)
    }, options.timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

/** Stops a process group (what a block started goes with it); resolves once its leader has exited, killing it after 10 s. */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name)
    } catch {
      // Already gone.
    }
  }
  return new Promise((resolve) => {
    const kill = setTimeout(() => signal('SIGKILL'), 10_000)
    child.once('close', () => {
      clearTimeout(kill)
      resolve()
    })
    signal('SIGTERM')
  })
}

/** Starts a command in its own process group and waits until its output shows `ready`. */
function startUntil(command: string, args: string[], ready: string | RegExp, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const timer = setTimeout(() => {
      void stopGroup(child)
      reject(new Error(`not ready after ${options.timeoutMs / 1000} s (waiting for ${String(ready)}):\n${output}`))
    }, options.timeoutMs)
    const seen = (chunk: Buffer) => {
      output += chunk.toString()
      if (typeof ready === 'string' ? output.includes(ready) : ready.test(output)) {
        clearTimeout(timer)
        resolve({ child, output: () => output })
      }
    }
    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    child.on('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before it was ready:\n${output}`))
    })
  })
}

/** A mock as `npm start` starts it, on a free port. */
async function startMock(): Promise<{ child: ChildProcess; port: number }> {
  const started = await startUntil(process.execPath, [join(projectRoot, 'bin', 'ivs-mock.js'), 'serve', '--port', '0'], LISTENING, { cwd: projectRoot, env: process.env, timeoutMs: 60_000 })
  return { child: started.child, port: Number(LISTENING.exec(started.output())?.[1]) }
}

/** A curl that also writes each answer's status to $SNIPPET_STATUSES, one line each. */
const CURL = `#!/bin/sh
headers=$(mktemp)
/usr/bin/env -u SNIPPET_SHIM PATH="$SNIPPET_PATH" curl -D "$headers" "$@"
code=$?
grep -E '^HTTP/' "$headers" | tail -n 1 | cut -d ' ' -f 2 >> "$SNIPPET_STATUSES"
rm -f "$headers"
exit $code
`

/** A folder like a project that installed the package, with the clone's folders beside it. */
function projectFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'ivs-mock-snippets-'))
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'docs-snippets', private: true }))
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true })
  symlinkSync(projectRoot, join(folder, 'node_modules', 'ivs-mock'))
  symlinkSync(join(projectRoot, 'bin', 'ivs-mock.js'), join(folder, 'node_modules', '.bin', 'ivs-mock'))
  for (const name of CLONE_FOLDERS) symlinkSync(join(projectRoot, name), join(folder, name))
  mkdirSync(join(folder, '.shim'))
  writeFileSync(join(folder, '.shim', 'curl'), CURL)
  chmodSync(join(folder, '.shim', 'curl'), 0o755)
  return folder
}

/** Runs chains of a guide, in order, against the mock on `mockPort`, in a folder of their own; stops what they left running at the end. */
async function runGuide(plan: Plan, chains: Snippet[][], mockPort: number, done: (chain: Snippet[], outcome: Outcome) => void): Promise<void> {
  const folder = projectFolder()
  const ports = new Map([[MOCK_PORT, mockPort]])
  const running: ChildProcess[] = []
  const env = { ...process.env, SNIPPET_PATH: process.env.PATH, PATH: `${join(folder, '.shim')}:${process.env.PATH ?? ''}`, SNIPPET_STATUSES: join(folder, '.statuses') }
  /** The block as it runs here: the ports it starts servers on moved to free ones, the mock's 4010 to the mock's. */
  const localised = async (code: string) => {
    for (const [, number] of code.matchAll(SERVER_PORTS)) if (!ports.has(Number(number))) ports.set(Number(number), await freePort())
    return code.replace(PORT_PLACES, (found: string, place: string, number: string) => (ports.has(Number(number)) ? `${place}${ports.get(Number(number))}` : found))
  }
  try {
    for (const snippet of plan.snippets.filter((item) => item.file !== undefined && item.skip === undefined)) {
      const path = join(folder, snippet.file as string)
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, await localised(`${snippet.code}\n`))
    }
    for (const chain of chains) {
      const first = chain[0] as Snippet
      if (first.afterStop) await Promise.all(running.splice(0).map(stopGroup))
      const code = await localised(chain.map((snippet) => snippet.code).join('\n'))
      const background = chain.find((snippet) => snippet.background !== undefined)?.background
      writeFileSync(env.SNIPPET_STATUSES, '')
      const script = join(folder, `.snippet-${first.line}.${first.kind === 'javascript' ? 'mjs' : 'sh'}`)
      writeFileSync(script, first.kind === 'javascript' ? code : `set -euo pipefail\n${code}\n`)
      const [command, args] = first.kind === 'javascript' ? [process.execPath, [script]] : ['bash', [script]]
      const outcome: Outcome = { output: '', statuses: [] }
      if (background !== undefined) {
        try {
          const started = await startUntil(command, args, background, { cwd: folder, env, timeoutMs: BLOCK_TIMEOUT_MS })
          running.push(started.child)
          outcome.output = started.output()
        } catch (error) {
          outcome.error = (error as Error).message
        }
      } else {
        Object.assign(outcome, await run(command, args, { cwd: folder, env, timeoutMs: BLOCK_TIMEOUT_MS }))
      }
      outcome.statuses = readFileSync(env.SNIPPET_STATUSES, 'utf8').split('\n').filter(Boolean).map(Number)
      done(chain, outcome)
    }
  } finally {
    // What the blocks left running stops first (a proxy writes its reports as it stops).
    await Promise.all(running.map(stopGroup))
    rmSync(folder, { recursive: true, force: true })
  }
}

/** A promise per chain, settled by the run that runs it. */
class Outcomes {
  private readonly waiting = new Map<Snippet[], { promise: Promise<Outcome>; settle: (outcome: Outcome) => void }>()

  constructor(chains: Snippet[][]) {
    for (const chain of chains) {
      let settle!: (outcome: Outcome) => void
      const promise = new Promise<Outcome>((resolve) => (settle = resolve))
      this.waiting.set(chain, { promise, settle })
    }
  }

  of(chain: Snippet[]): Promise<Outcome> {
    return (this.waiting.get(chain) as { promise: Promise<Outcome> }).promise
  }

  settle(chain: Snippet[], outcome: Outcome): void {
    this.waiting.get(chain)?.settle(outcome)
  }

  /** Settles every chain not yet run with why it could not run (a chain settled already keeps its outcome). */
  fail(error: unknown): void {
    for (const chain of this.waiting.keys()) this.settle(chain, { output: '', statuses: [], error: String(error) })
  }
}

const inOrder = new Outcomes([...PLANS.values()].flatMap((plan) => plan.chains))
const alone = new Outcomes([...PLANS.values()].flatMap((plan) => plan.alone))
let runs: Promise<unknown>

/** The README and every guide in the reading order, on one mock. */
async function readInOrder(): Promise<void> {
  const mock = await startMock()
  try {
    for (const plan of PLANS.values()) await runGuide(plan, plan.chains, mock.port, (chain, outcome) => inOrder.settle(chain, outcome))
  } finally {
    await stopGroup(mock.child)
  }
}

/** Each guide's blocks that see the mock's state, on a fresh mock of the guide's own. */
async function readAlone(): Promise<void> {
  for (const plan of [...PLANS.values()].filter((item) => item.alone.length > 0)) {
    const mock = await startMock()
    try {
      await runGuide(plan, plan.alone, mock.port, (chain, outcome) => alone.settle(chain, outcome))
    } finally {
      await stopGroup(mock.child)
    }
  }
}

beforeAll(() => {
  runs = Promise.all([readInOrder().catch((error: unknown) => inOrder.fail(error)), readAlone().catch((error: unknown) => alone.fail(error))])
})

afterAll(() => runs, BLOCK_TIMEOUT_MS)

/** Holds what a chain gave to what its guide says: it ran, printed what the text shows, met only the error statuses its comments name. */
function judge(plan: Plan, chain: Snippet[], outcome: Outcome): void {
  const where = `${plan.doc}:${chain[0]?.line}`
  expect(outcome.error, `${where} could not run`).toBeUndefined()
  if (outcome.code !== undefined) expect(outcome.code, `${where} exited with ${outcome.code}:\n${outcome.output}`).toBe(0)
  for (const snippet of chain.filter((item) => item.prints !== undefined)) expect(outcome.output, `${plan.doc}:${snippet.line} should print ${snippet.prints}`).toContain(snippet.prints)
  const printed = jsonValues(outcome.output)
  for (const documented of chain.map((snippet) => plan.outputs.get(snippet)).filter((block) => block !== undefined)) {
    const departures = printed.map((value) => departure(JSON.parse(documented.code), value))
    expect(departures.includes(undefined), `${plan.doc}:${documented.line}: no value the block printed is the documented output:\n${departures.join('\n')}`).toBe(true)
  }
  const comments = chain.map((snippet) => snippet.code.split('\n').map((line) => line.slice(line.indexOf('#') + 1 || line.length)).join('\n')).join('\n')
  for (const status of outcome.statuses.filter((value) => value >= 400)) {
    expect(comments, `${where}: an answer was ${status}, which no comment of the block expects:\n${outcome.output}`).toMatch(new RegExp(`\\b${status}\\b`))
  }
}

const label = (chain: Snippet[]) => `${chain[0]?.line}${chain.length > 1 ? ` (with ${chain.slice(1).map((item) => item.line).join(', ')})` : ''}`

it("reads every guide in docs/, in the order of the README's Guides section", () => {
  expect([...ORDER].slice(1).sort()).toEqual([...GUIDES].sort())
})

describe.each([...PLANS.keys()])('%s', (doc) => {
  const plan = PLANS.get(doc) as Plan

  it('marks every block it does not run with the reason', () => {
    for (const snippet of plan.snippets.filter((item) => item.skip !== undefined)) expect(snippet.skip, `${doc}:${snippet.line}`).not.toBe('')
  })

  it('quotes its excerpts line for line from the files they name', () => {
    for (const snippet of plan.snippets.filter((item) => item.excerpt !== undefined)) {
      const source = readFileSync(join(projectRoot, snippet.excerpt as string), 'utf8')
      for (const line of snippet.code.split('\n').filter((text) => text.trim() !== '')) expect(source, `${doc}:${snippet.line}: ${line}`).toContain(line.trim())
    }
  })

  it('names no shell helper after a command or builtin: a function id() would hide id(1) from every later paste', () => {
    for (const snippet of plan.snippets.filter((item) => item.kind === 'shell')) {
      for (const [, name] of snippet.code.matchAll(/^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm)) {
        const hidden = spawnSync('bash', ['-c', `type -t ${name as string}`], { encoding: 'utf8' }).stdout.trim()
        expect(hidden, `${doc}:${snippet.line}: ${name as string}() hides the ${hidden} of that name`).toBe('')
      }
    }
  })

  it.each(plan.chains.map((chain) => [label(chain), chain] as const))(
    'runs the block at line %s as pasted, after the documents before it on the same mock',
    async (_label, chain: Snippet[]) => judge(plan, chain, await inOrder.of(chain)),
    BLOCK_TIMEOUT_MS + 60_000,
  )

  it.each(plan.alone.map((chain) => [label(chain), chain] as const))(
    'runs the block at line %s as pasted, on a fresh mock',
    async (_label, chain: Snippet[]) => judge(plan, chain, await alone.of(chain)),
    BLOCK_TIMEOUT_MS + 60_000,
  )
})
