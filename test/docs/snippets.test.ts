// Every shell and JavaScript block of the README and the guides runs as pasted (test/support/snippets.ts
// says how a block is marked when it is a file, continues another, stays running, or cannot run).
// Each document gets a fresh mock, started as `npm start` starts it, and a folder set up like a
// project that installed the package (`npx ivs-mock`, `import ... from 'ivs-mock'`), with the
// repository's fixtures/, scenarios/, contracts/ and examples/ beside it as in a clone. The ports a
// block names (4010 the mock, others its own servers) become free ones, and curl reports each
// answer's status: an error status the block does not mention in a comment fails it.
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../src/paths.ts'
import { chainsOf, departure, jsonValues, outputsOf, readSnippets, type Snippet } from '../support/snippets.ts'

const DOCS = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
/** What a block may take before it fails: a verify run of every scenario takes the longest. */
const BLOCK_TIMEOUT_MS = 120_000
/** The folders of the repository a block may name, as in a clone. */
const CLONE_FOLDERS = ['fixtures', 'scenarios', 'contracts', 'examples']
/** Where a port is named: a URL's host, --port, PORT=, -p host:container. */
const PORT_PLACES = /((?:127\.0\.0\.1|localhost):|--port[ =]|\bPORT=|-p )(\d{4,5})\b/g
/** Where a block starts a server on a port: those ports (and the mock's 4010) move; any other (a redirect URL's) stays. */
const SERVER_PORTS = /(?:--port[ =]|\bPORT=|-p )(\d{4,5})\b/g

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

interface Run {
  code: number | null
  output: string
}

/** Runs a command in its own process group (so all it starts can be stopped), up to a deadline. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
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

describe.each(DOCS)('%s', (doc) => {
  const snippets = readSnippets(projectRoot, doc)
  const chains = chainsOf(snippets)
  const outputs = outputsOf(snippets)
  let folder: string
  let mock: ChildProcess | undefined
  const running: ChildProcess[] = []
  const ports = new Map<number, number>()
  let env: NodeJS.ProcessEnv

  /** The block as it runs here: the ports it starts servers on moved to free ones, the mock's 4010 to the mock's. */
  async function localised(code: string): Promise<string> {
    for (const [, number] of code.matchAll(SERVER_PORTS)) {
      const port = Number(number)
      if (!ports.has(port)) ports.set(port, await freePort())
    }
    return code.replace(PORT_PLACES, (found: string, place: string, number: string) => (ports.has(Number(number)) ? `${place}${ports.get(Number(number))}` : found))
  }

  beforeAll(async () => {
    folder = projectFolder()
    const started = await startUntil(process.execPath, [join(projectRoot, 'bin', 'ivs-mock.js'), 'serve', '--port', '0'], /listening on http:\/\/127\.0\.0\.1:(\d+)/, { cwd: projectRoot, env: process.env, timeoutMs: 60_000 })
    mock = started.child
    ports.set(4010, Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(started.output())?.[1]))
    env = { ...process.env, SNIPPET_PATH: process.env.PATH, PATH: `${join(folder, '.shim')}:${process.env.PATH ?? ''}`, SNIPPET_STATUSES: join(folder, '.statuses') }
    for (const snippet of snippets.filter((item) => item.file !== undefined && item.skip === undefined)) {
      const path = join(folder, snippet.file as string)
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, await localised(`${snippet.code}\n`))
    }
  }, 90_000)

  afterAll(async () => {
    // What the blocks left running stops first (a proxy writes its reports as it stops), then the mock.
    await Promise.all(running.map(stopGroup))
    if (mock) await stopGroup(mock)
    if (folder) rmSync(folder, { recursive: true, force: true })
  }, 30_000)

  it('marks every block it does not run with the reason', () => {
    for (const snippet of snippets.filter((item) => item.skip !== undefined)) expect(snippet.skip, `${doc}:${snippet.line}`).not.toBe('')
  })

  it('quotes its excerpts line for line from the files they name', () => {
    for (const snippet of snippets.filter((item) => item.excerpt !== undefined)) {
      const source = readFileSync(join(projectRoot, snippet.excerpt as string), 'utf8')
      for (const line of snippet.code.split('\n').filter((text) => text.trim() !== '')) expect(source, `${doc}:${snippet.line}: ${line}`).toContain(line.trim())
    }
  })

  it.each(chains.map((chain) => [`${chain[0]?.line}${chain.length > 1 ? ` (with ${chain.slice(1).map((item) => item.line).join(', ')})` : ''}`, chain] as const))(
    'runs the block at line %s as pasted',
    async (_label, chain: Snippet[]) => {
      const code = await localised(chain.map((snippet) => snippet.code).join('\n'))
      const kind = chain[0]?.kind
      const background = chain.find((snippet) => snippet.background !== undefined)?.background
      writeFileSync(env.SNIPPET_STATUSES as string, '')
      const script = kind === 'javascript' ? join(folder, `.snippet-${chain[0]?.line}.mjs`) : join(folder, `.snippet-${chain[0]?.line}.sh`)
      writeFileSync(script, kind === 'javascript' ? code : `set -euo pipefail\n${code}\n`)
      const [command, args] = kind === 'javascript' ? [process.execPath, [script]] : ['bash', [script]]
      let output: string
      if (background !== undefined) {
        const started = await startUntil(command, args, background, { cwd: folder, env, timeoutMs: BLOCK_TIMEOUT_MS })
        running.push(started.child)
        output = started.output()
      } else {
        const result = await run(command, args, { cwd: folder, env, timeoutMs: BLOCK_TIMEOUT_MS })
        output = result.output
        expect(result.code, `${doc}:${chain[0]?.line} exited with ${result.code}:\n${output}`).toBe(0)
      }
      for (const snippet of chain.filter((item) => item.prints !== undefined)) expect(output, `${doc}:${snippet.line} should print ${snippet.prints}`).toContain(snippet.prints)
      const printed = jsonValues(output)
      for (const documented of chain.map((snippet) => outputs.get(snippet)).filter((block) => block !== undefined)) {
        const departures = printed.map((value) => departure(JSON.parse(documented.code), value))
        expect(departures.includes(undefined), `${doc}:${documented.line}: no value the block printed is the documented output:\n${departures.join('\n')}`).toBe(true)
      }
      const statuses = existsSync(env.SNIPPET_STATUSES as string) ? readFileSync(env.SNIPPET_STATUSES as string, 'utf8').split('\n').filter(Boolean).map(Number) : []
      const comments = chain.map((snippet) => snippet.code.split('\n').map((line) => line.slice(line.indexOf('#') + 1 || line.length)).join('\n')).join('\n')
      for (const status of statuses.filter((value) => value >= 400)) {
        expect(comments, `${doc}:${chain[0]?.line}: an answer was ${status}, which no comment of the block expects:\n${output}`).toMatch(new RegExp(`\\b${status}\\b`))
      }
    },
    BLOCK_TIMEOUT_MS + 10_000,
  )
})
