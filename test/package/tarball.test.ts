// The package as a user gets it: `npm pack` of a copy of the project (its `prepare` script builds
// dist/), the tarball installed into an empty folder with production dependencies only, then
// `npx ivs-mock serve`, the README's webhook receiver and `npx ivs-mock verify` run from that folder.
// The copy keeps the checkout's own dist/ untouched while other test files use it.
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../../src/paths.ts'
import { runCommand } from '../support/process.ts'

/** Not copied: installed, built, or nothing the package is made from. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'reports', 'coverage', '.data'])
/** What may be in the tarball besides package.json, README.md and LICENSE: package.json "files" (its negations aside). */
const PUBLISHED = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { files: string[] }).files.filter((entry) => !entry.startsWith('!'))
/** A budget that catches tests, sources or a source map slipping into the package. */
const MAX_PACKED_BYTES = 2_500_000
const MAX_UNPACKED_BYTES = 9_000_000
const PACK_LIMIT_MS = 180_000
const INSTALL_LIMIT_MS = 240_000
const START_LIMIT_MS = 30_000
const VERIFY_LIMIT_MS = 180_000

interface PackResult {
  filename: string
  size: number
  unpackedSize: number
  files: Array<{ path: string }>
}

let work: string
let app: string
let packed: PackResult

/**
 * The environment without what npm sets for the script running these tests: npm_config_local_prefix
 * would point npm and npx at the checkout instead of the folder they run in.
 */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config_local_prefix|package_|lifecycle_|command$)/i.test(name)))
}

async function npm(args: string[], cwd: string, limitMs: number): Promise<string> {
  const { code, stdout, stderr } = await runCommand('npm', args, { cwd, env: npmEnv(), limitMs })
  if (code !== 0) throw new Error(`npm ${args.join(' ')} exited with ${String(code)}:\n${stderr}`)
  return stdout
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ivs-package-'))
  const project = join(work, 'project')
  cpSync(projectRoot, project, { recursive: true, filter: (source) => !NOT_COPIED.has(relative(projectRoot, source)) })
  symlinkSync(join(projectRoot, 'node_modules'), join(project, 'node_modules'))
  mkdirSync(join(work, 'pack'))
  // The build's step lines come first on stdout, then npm's JSON.
  const output = await npm(['pack', '--json', '--pack-destination', join(work, 'pack')], project, PACK_LIMIT_MS)
  packed = (JSON.parse(output.slice(output.search(/^\[/m))) as PackResult[])[0] as PackResult

  app = join(work, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-ivs-mock', private: true }))
  await npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', join(work, 'pack', packed.filename)], app, INSTALL_LIMIT_MS)
}, PACK_LIMIT_MS + INSTALL_LIMIT_MS)

// The install holds thousands of files: removing them takes a while on a busy machine.
const REMOVE_LIMIT_MS = 120_000
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
}, REMOVE_LIMIT_MS)

const running = new Set<ChildProcess>()
afterEach(() => {
  for (const child of running) stopGroup(child)
  running.clear()
})

/** npx runs the bin in a process of its own: the whole group goes. */
function stopGroup(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
}

interface Started {
  child: ChildProcess
  output: () => string
  /** Resolves with the output once it matches, rejects when the process ends or the limit passes first. */
  waitFor: (pattern: RegExp) => Promise<RegExpExecArray>
}

/** Starts a command in the install folder, in a process group of its own. */
function startInApp(command: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(command, args, { cwd: app, env: { ...npmEnv(), ...env }, detached: true })
  running.add(child)
  let output = ''
  const listeners = new Set<() => void>()
  const heard = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout?.on('data', heard)
  child.stderr?.on('data', heard)
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const stopWaiting = () => {
        clearTimeout(timer)
        listeners.delete(check)
        child.off('exit', exited)
      }
      const fail = (reason: string) => {
        stopWaiting()
        reject(new Error(`${reason}:\n${output}`))
      }
      const timer = setTimeout(() => fail(`no ${String(pattern)} within ${START_LIMIT_MS} ms`), START_LIMIT_MS)
      const exited = () => fail(`${command} ${args.join(' ')} exited before ${String(pattern)}`)
      const check = () => {
        const match = pattern.exec(output)
        if (!match) return
        stopWaiting()
        resolve(match)
      }
      listeners.add(check)
      child.once('exit', exited)
      check()
    })
  return { child, output: () => output, waitFor }
}

describe('the npm package', () => {
  it('holds the built bundle and what it reads at run time, and nothing else', () => {
    const paths = packed.files.map((file) => file.path)
    for (const path of ['bin/ivs-mock.js', 'dist/main.js', 'dist/world.json', 'contracts/control/records.json', 'fixtures/world.json', 'scenarios/README.md', 'src/webhook-delivery/verify.js', 'README.md', 'package.json']) {
      expect(paths, path).toContain(path)
    }
    const elsewhere = paths.filter((path) => !['package.json', 'README.md', 'LICENSE'].includes(path) && !PUBLISHED.some((published) => path.startsWith(published)))
    expect(elsewhere).toEqual([])
    // Sources, tests and the bundle's map stay in the repository: the bundle is what runs.
    expect(paths.filter((path) => /(^|\/)(test|node_modules)\/|\.map$|(?<!\.d)\.ts$/.test(path))).toEqual([])
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES)
    expect(packed.unpackedSize).toBeLessThan(MAX_UNPACKED_BYTES)
    // The sizes docs/testing-and-ci.md quotes are these, within a tenth of a megabyte: a closer match
    // would flip on a few bytes of difference between builds when a size sits near a rounding boundary.
    const quoted = /About (\d+\.\d) MB packed and (\d+\.\d) MB unpacked/.exec(readFileSync(join(projectRoot, 'docs', 'testing-and-ci.md'), 'utf8'))
    expect(quoted, 'docs/testing-and-ci.md quotes the sizes').not.toBeNull()
    const [quotedPacked, quotedUnpacked] = [Number(quoted?.[1]) * 1_000_000, Number(quoted?.[2]) * 1_000_000]
    expect(Math.abs(quotedPacked - packed.size), `quoted ${String(quotedPacked)} bytes packed, packed ${String(packed.size)}`).toBeLessThanOrEqual(100_000)
    expect(Math.abs(quotedUnpacked - packed.unpackedSize), `quoted ${String(quotedUnpacked)} bytes unpacked, unpacked ${String(packed.unpackedSize)}`).toBeLessThanOrEqual(100_000)
    expect(statSync(join(work, 'pack', packed.filename)).size).toBe(packed.size)
  })

  it('installs without dev dependencies and serves: npx ivs-mock serve --port 0 answers GET /api/v2/status', async () => {
    for (const tool of ['tsx', 'esbuild', 'vitest', 'typescript']) expect(existsSync(join(app, 'node_modules', tool)), tool).toBe(false)
    // The bundle carries the packages it runs on; only Pact's verifier is installed beside it.
    for (const bundled of ['hono', '@hono/node-server', '@faker-js/faker', 'ajv', 'lowdb', 'pdf-lib']) expect(existsSync(join(app, 'node_modules', bundled)), bundled).toBe(false)
    expect(existsSync(join(app, 'node_modules', '@pact-foundation', 'pact'))).toBe(true)
    const server = startInApp('npx', ['--no', 'ivs-mock', 'serve', '--port', '0'])
    const [, origin] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v2[\s\S]*Try /)
    const status = await fetch(`${origin}/api/v2/status`, { headers: { Authorization: 'Bearer ivs_acme_owner' } })
    expect(status.status).toBe(204)
    expect(server.output()).not.toContain('building it first')
  })

  it("runs the README's webhook receiver with the installed ivs-mock/webhooks: the ping and the events verify", async () => {
    const server = startInApp('npx', ['--no', 'ivs-mock', 'serve', '--port', '0'])
    const [, origin] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v2[\s\S]*Try /)
    copyFileSync(join(projectRoot, 'examples', 'webhook-receiver', 'receiver.mjs'), join(app, 'receiver.mjs'))
    const receiver = startInApp(process.execPath, ['receiver.mjs'], { BASE: `${origin}/api/v2`, TOKEN: 'ivs_acme_owner', PORT: '0' })
    await receiver.waitFor(/^ping \["ping"\]$/m)
    const record = await fetch(`${origin}/api/v2/records`, {
      method: 'POST',
      headers: { Authorization: 'Bearer ivs_acme_owner', 'Content-Type': 'application/json' },
      body: JSON.stringify({ client: 3, steps: [{ type: 'check.watchlist' }], notification: false }),
    })
    expect(record.status).toBe(201)
    const { id } = (await record.json()) as { id: number }
    await receiver.waitFor(new RegExp(`^record\\.created \\{"record":\\{"id":${id},`, 'm'))
    expect(receiver.output()).toMatch(/^webhook \d+ created; deliveries go to http:\/\/127\.0\.0\.1:\d+\/hooks$/m)
  })

  it('verifies: npx ivs-mock verify runs every scenario against an in-process mock and exits 0', async () => {
    const { code, stdout, stderr } = await runCommand('npx', ['--no', 'ivs-mock', 'verify'], { cwd: app, env: npmEnv(), limitMs: VERIFY_LIMIT_MS, started: (child) => running.add(child) })
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped$/m)
  }, VERIFY_LIMIT_MS)
})
