// bin/ivs-mock.js as a launcher: in a checkout it runs dist/main.js, rebuilds it first when it is
// missing or older than what it is built from, and says what to run when it cannot build; in an
// installed package it runs the bundle as it is. Every case works on a copy in a temporary folder,
// so the checkout's own dist/ is never touched. A build takes seconds, so the launcher builds in
// two cases only (a bundle missing, then one stale, in the same copy); which inputs make a bundle
// stale is asked of its check (bin/staleness.js) in process.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { staleness } from '../../bin/staleness.js'
import { projectRoot } from '../../src/paths.ts'
import { runToExit, type Finished } from '../support/process.ts'

const COPIED = ['bin', 'src', 'contracts', 'fixtures', 'package.json', 'package-lock.json', 'tsconfig.json']
const BUILD_TOOLS = ['tsx', 'esbuild', '@esbuild', '.bin']
// A run that builds takes a few seconds alone, and several times that on a busy two-core machine
// (the package test builds at the same time): limits, not timing goals.
const RUN_LIMIT_MS = 60_000
/** A test that builds at most `builds` times. */
const buildingTest = (builds: number) => builds * RUN_LIMIT_MS + 10_000

const copies: string[] = []
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the project without dist/; its node_modules links to the checkout's, less the build tools if asked. */
function projectCopy(options: { buildTools: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ivs-launcher-'))
  copies.push(dir)
  for (const entry of COPIED) cpSync(join(projectRoot, entry), join(dir, entry), { recursive: true })
  if (options.buildTools) {
    symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'))
  } else {
    mkdirSync(join(dir, 'node_modules'))
    for (const name of readdirSync(join(projectRoot, 'node_modules'))) {
      if (!BUILD_TOOLS.includes(name)) symlinkSync(join(projectRoot, 'node_modules', name), join(dir, 'node_modules', name))
    }
  }
  return dir
}

/**
 * What an installed package holds (package.json "files"): the launcher, a bundle, and of src/ only
 * the webhooks helper, so no src/main.ts to build from. Its node_modules links to the checkout's,
 * build tools included, as in a project that has its own. The bundle here only says it ran.
 */
function installedCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ivs-installed-'))
  copies.push(dir)
  for (const entry of ['bin', 'contracts', 'fixtures', 'package.json', 'src/webhook-delivery/verify.js']) cpSync(join(projectRoot, entry), join(dir, entry), { recursive: true })
  mkdirSync(join(dir, 'dist'))
  writeFileSync(join(dir, 'dist', 'main.js'), "console.log(`the installed bundle ran with ${process.argv.slice(2).join(' ')}`)\n")
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/** Dates every input of the copy an hour back and its bundle half an hour back. */
function backdate(dir: string): void {
  const hourAgo = new Date(Date.now() - 3_600_000)
  for (const entry of ['src', 'contracts', 'fixtures', 'package.json', 'package-lock.json']) {
    const path = join(dir, entry)
    const nested = statSync(path).isDirectory() ? readdirSync(path, { recursive: true, encoding: 'utf8' }).map((name) => join(path, name)) : []
    for (const file of [...nested, path]) utimesSync(file, hourAgo, hourAgo)
  }
  const halfHourAgo = new Date(Date.now() - 1_800_000)
  utimesSync(join(dir, 'dist', 'main.js'), halfHourAgo, halfHourAgo)
}

function launch(dir: string, args: string[]): Promise<Finished> {
  return runToExit(join(dir, 'bin', 'ivs-mock.js'), args, { limitMs: RUN_LIMIT_MS })
}

const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version

describe('bin/ivs-mock.js', () => {
  // Built by the first test, rebuilt by the second.
  const built = { dir: '' }
  afterAll(() => rmSync(built.dir, { recursive: true, force: true }))

  it('builds dist/main.js when it is missing, says so in one line on stderr, then runs it', async () => {
    built.dir = projectCopy({ buildTools: true })
    copies.pop()
    const first = await launch(built.dir, ['--version'])
    expect(first).toEqual({ code: 0, stdout: `${version}\n`, stderr: 'ivs-mock: dist/main.js is missing; building it first (npm run build)\n' })
    expect(existsSync(join(built.dir, 'dist', 'main.js'))).toBe(true)
    expect(existsSync(join(built.dir, 'dist', 'main.js.map'))).toBe(true)

    const again = await launch(built.dir, ['--version'])
    expect(again).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  }, buildingTest(1))

  it('rebuilds when a source is newer than the bundle, says why, then runs it', async () => {
    const { dir } = built
    backdate(dir)
    expect(await launch(dir, ['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
    utimesSync(join(dir, 'src', 'kernel', 'clock.ts'), new Date(), new Date())
    expect(await launch(dir, ['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: 'ivs-mock: src/kernel/clock.ts changed after dist/main.js was built; building it first (npm run build)\n' })
    expect(staleness(`${dir}/`)).toBeUndefined()
  }, buildingTest(1))

  it('refuses to start when the rebuild fails, naming the step and the problem, with exit 1', async () => {
    const dir = projectCopy({ buildTools: true })
    const file = join(dir, 'fixtures', 'world.json')
    const world = JSON.parse(readFileSync(file, 'utf8'))
    world.tokens[0].team = 'globex'
    writeFileSync(file, JSON.stringify(world))
    const { code, stdout, stderr } = await launch(dir, ['serve', '--port', '0'])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('ivs-mock: build step check failed: fixtures: token ivs_acme_owner names user olivia, who is not a member of globex')
    expect(existsSync(join(dir, 'dist', 'main.js'))).toBe(false)
  }, buildingTest(1))

  it('runs the bundle of an installed package as it is, whatever the dates, even where build tools are installed', async () => {
    const dir = installedCopy()
    const hourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(join(dir, 'dist', 'main.js'), hourAgo, hourAgo)
    expect(await launch(dir, ['--version'])).toEqual({ code: 0, stdout: 'the installed bundle ran with --version\n', stderr: '' })
  })

  it('says to install again and exits 2 when an installed package has no bundle', async () => {
    const dir = installedCopy()
    rmSync(join(dir, 'dist'), { recursive: true })
    expect(await launch(dir, ['serve'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ivs-mock: dist/main.js is missing, and this install has no sources to build it from; install the package again.\n',
    })
  })

  it('says what to run and exits 2 when it must build but the build tools are not installed', async () => {
    const dir = projectCopy({ buildTools: false })
    const { code, stdout, stderr } = await launch(dir, ['serve', '--port', '0'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'ivs-mock: dist/main.js is missing, and it cannot be built here: tsx and esbuild are not installed (a production-only install). ' +
        'Run npm ci (with dev dependencies) and npm run build, then start it again.\n',
    )
  })
})

describe("the launcher's check of its bundle (bin/staleness.js)", () => {
  /** A copy of the project with a bundle older than its inputs' dates (backdate). */
  function staleCheckout(): string {
    const dir = projectCopy({ buildTools: false })
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'main.js'), '')
    backdate(dir)
    return `${dir}/`
  }

  it('finds a bundle missing, then newer than every input', () => {
    const dir = projectCopy({ buildTools: false })
    expect(staleness(`${dir}/`)).toBe('dist/main.js is missing')
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'main.js'), '')
    backdate(dir)
    expect(staleness(`${dir}/`)).toBeUndefined()
  })

  it('names a source, a contract, a fixture or package.json newer than the bundle', () => {
    const dir = staleCheckout()
    for (const entry of ['src/kernel/clock.ts', 'contracts/schemas/client.json', 'fixtures/world.json', 'package.json']) {
      utimesSync(`${dir}${entry}`, new Date(), new Date())
      expect(staleness(dir)).toBe(`${entry} changed after dist/main.js was built`)
      backdate(dir)
    }
    writeFileSync(`${dir}contracts/schemas/client.json`, readFileSync(`${dir}contracts/schemas/client.json`))
    expect(staleness(dir)).toBe('contracts/schemas/client.json changed after dist/main.js was built')
  })

  it('names the folder a source was removed from', () => {
    const dir = staleCheckout()
    writeFileSync(`${dir}src/kernel/unused.ts`, 'export {}\n')
    backdate(dir)
    expect(staleness(dir)).toBeUndefined()
    rmSync(`${dir}src/kernel/unused.ts`)
    expect(staleness(dir)).toBe('src/kernel changed after dist/main.js was built')
  })

  it('never finds the bundle of an installed package stale, whatever the dates', () => {
    const dir = installedCopy()
    const hourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(join(dir, 'dist', 'main.js'), hourAgo, hourAgo)
    expect(staleness(`${dir}/`)).toBeUndefined()
  })
})
