// `ivs-mock verify` as users run it: a real process, its output and its exit status.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toVerifyConfig } from '../../src/config.ts'
import { IVS_MOCK_BIN as BIN, runToExit, type Finished } from '../support/process.ts'
import { FIXTURES } from './support.ts'

const LIMIT_MS = 30_000

const running = new Set<ChildProcess>()
const folders: string[] = []
afterEach(async () => {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })))
})

function verify(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const clean: NodeJS.ProcessEnv = { ...process.env, CI: '1', ...env }
  for (const name of Object.keys(clean)) if (name.startsWith('IVS_TOKEN_') && !(name in env)) delete clean[name]
  return runToExit(BIN, ['verify', ...args], { env: clean, limitMs: LIMIT_MS, started: (child) => running.add(child) })
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ivs-verify-'))
  folders.push(folder)
  return folder
}

const suite = relative(process.cwd(), `${FIXTURES}suite`)

describe('ivs-mock verify', () => {
  it('runs the scenarios against the mock it starts, with a line per scenario and the summary last, and writes the reports', async () => {
    const folder = await tempFolder()
    const result = await verify(['--scenarios', suite, '--junit', join(folder, 'report.xml'), '--json', join(folder, 'report.json')])
    expect(result.stderr).toBe('')
    const lines = result.stdout.trimEnd().split('\n')
    const summary = lines.indexOf('4 passed, 0 failed, 0 skipped')
    expect(lines[summary - 1]).toMatch(/^Requests: \d+$/)
    expect(lines.slice(0, summary - 1).map((line) => line.replace(/ \(\d+ ms\)$/, '')).sort()).toEqual([
      '✓ A client is created, read back and refused without a name',
      '✓ A read-only member cannot create a client',
      '✓ A webhook pointed at the runner receives a signed client.created',
      "✓ The token is checked and the mock's clock read",
    ])
    // The table of the operations the scenarios call follows, the others in one line, and the count of those reached ends the output.
    expect(lines.slice(summary + 1)).toEqual([
      'Operations (99):',
      '  ✓ clients.create   POST /clients      passed (4 answers)',
      '  ✓ clients.get      GET /clients/{id}  passed (1 answer)',
      '  ✓ status.get       GET /status        passed (3 answers)',
      '  ✓ webhooks.create  POST /webhooks     passed (1 answer)',
      '  - 95 others not reached: no scenario of the run calls them',
      '4 of 99 operations reached, 0 failed',
    ])
    expect(result.code).toBe(0)
    expect(await readFile(join(folder, 'report.xml'), 'utf8')).toContain('<testsuite name="ivs-mock verify" time="')
    expect(await readFile(join(folder, 'report.xml'), 'utf8')).toMatch(/ tests="4" failures="0" errors="0" skipped="0">/)
    const json = JSON.parse(await readFile(join(folder, 'report.json'), 'utf8'))
    expect(json.scenarios.map((scenario: any) => scenario.outcome)).toEqual(['passed', 'passed', 'passed', 'passed'])
  })

  it('exits 1 when a scenario fails, naming the scenario, the step and the difference', async () => {
    const folder = await tempFolder()
    await writeFile(
      join(folder, 'wrong.yaml'),
      'name: A wrong expectation\ndescription: d\nsteps:\n  - name: check the token\n    operation: status.get\n    expect: { status: 200 }\n',
    )
    const result = await verify(['--scenarios', folder, '--grep', 'wrong'])
    expect(result.stdout).toContain(`✗ A wrong expectation (${join(folder, 'wrong.yaml')})\n    step 1 "check the token" (status.get)\n`)
    expect(result.stdout).toContain('      - status: expected 200, got 204\n')
    expect(result.stdout).toContain('\n0 passed, 1 failed, 0 skipped\nOperations (99):\n')
    expect(result.stdout).toMatch(/\n {2}✗ status\.get +GET \/status +failed \(1 answer\)\n/)
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 of 99 operations reached, 1 failed')
    expect(result.code).toBe(1)
  })

  it('exits 2 with one clear line when the target cannot be reached', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/api/v2`
    const result = await verify(['--base', base, '--token', 'x', '--scenarios', suite])
    expect(result.stderr).toBe(`ivs-mock verify: cannot reach ${base} (GET /status: ECONNREFUSED)\n`)
    expect(result.code).toBe(2)
  })

  it('exits 2 on bad usage: a bad option value, a base that is no API base, an unknown command', async () => {
    const concurrency = await verify(['--concurrency', '0'])
    expect(concurrency.stderr).toContain("error: option '--concurrency <n>' argument '0' is invalid. the concurrency must be a whole number from 1 to 64.")
    expect(concurrency.code).toBe(2)
    const base = await verify(['--base', 'http://127.0.0.1:1/v1'])
    expect(base.stderr).toContain('expected the API base URL, ending in /api/v2')
    expect(base.code).toBe(2)
    const unknown = await runToExit(BIN, ['frobnicate'], { limitMs: LIMIT_MS, started: (child) => running.add(child) })
    expect(unknown.stderr).toBe("ivs-mock: unknown command 'frobnicate' (commands: serve, verify, proxy, diff, pact; run with --help for usage)\n")
    expect(unknown.code).toBe(2)
  })

  it('exits 2 naming the file and the path when a scenario file breaks the format', async () => {
    const result = await verify(['--scenarios', relative(process.cwd(), `${FIXTURES}broken`)])
    expect(result.stderr).toContain('ivs-mock verify: 5 problems in scenario files not valid:\n  test/harness/fixtures/broken/bad-format.yaml: (file): unknown key "colour"\n')
    expect(result.stderr).toContain('  test/harness/fixtures/broken/bad-format.yaml: steps.0.expect.status: must be integer or array\n')
    expect(result.stdout).toBe('')
    expect(result.code).toBe(2)
  })

  it('prints the coverage by operationId without running anything', async () => {
    const result = await verify(['--coverage', '--scenarios', suite])
    expect(result.stdout).toMatch(/^clients\.create +4$/m)
    expect(result.stdout).toMatch(/^clients\.delete +0 {2}not covered$/m)
    expect(result.stdout).toMatch(/^\d+ of \d+ operations covered; not covered: .*clients\.delete/m)
    expect(result.code).toBe(0)
  })

  it('refuses a tokens file that cannot be read', async () => {
    const missing = join(await tempFolder(), 'missing.env')
    const result = await verify(['--base', 'http://127.0.0.1:1/api/v2', '--tokens-file', missing, '--scenarios', suite])
    expect(result.stderr).toBe(`ivs-mock verify: cannot read the tokens file ${missing}: ENOENT\n`)
    expect(result.code).toBe(2)
  })

  it('exits 2 with one line when the --baseline cannot be read, before it tries the target', async () => {
    const missing = join(await tempFolder(), 'last-night.json')
    const result = await verify(['--base', `http://127.0.0.1:${await closedPort()}/api/v2`, '--baseline', missing])
    expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `ivs-mock verify: cannot read the baseline ${missing}: ENOENT\n`])
  })

  it('takes tokens from --token and --role-token, then the environment, then the tokens file', () => {
    const config = toVerifyConfig(
      { token: 'owner-option', roleToken: { member: 'member-option' }, tag: [], timeout: 30, concurrency: 4 },
      { IVS_TOKEN_MEMBER: 'member-env', IVS_TOKEN_READ_ONLY: 'read-only-env' },
      { IVS_TOKEN_OWNER: 'owner-file', IVS_TOKEN_READ_ONLY: 'read-only-file', IVS_TOKEN_OTHER_TEAM: 'other-file' },
    )
    expect(config.tokens).toEqual({ owner: 'owner-option', member: 'member-option', 'read-only': 'read-only-env', 'other-team': 'other-file' })
  })
})
