// bin/ivs-mock.js as a launcher: it runs dist/main.js, rebuilds it first when it is missing or older
// than what it is built from, and says what to run when it cannot build. Every case works on a copy
// of the project in a temporary folder, so the checkout's own dist/ is never touched.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot } from '../../src/paths.ts'
import { runToExit, type Finished } from '../support/process.ts'

const COPIED = ['bin', 'src', 'contracts', 'fixtures', 'package.json', 'package-lock.json', 'tsconfig.json']
const BUILD_TOOLS = ['tsx', 'esbuild', '@esbuild', '.bin']
/** A run that builds first (five steps, the type declarations among them) on a busy two-core machine. */
const RUN_LIMIT_MS = 40_000

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
  it('builds dist/main.js when it is missing, says so in one line on stderr, then runs it', async () => {
    const dir = projectCopy({ buildTools: true })
    const first = await launch(dir, ['--version'])
    expect(first).toEqual({ code: 0, stdout: `${version}\n`, stderr: 'ivs-mock: dist/main.js is missing; building it first (npm run build)\n' })
    expect(existsSync(join(dir, 'dist', 'main.js'))).toBe(true)
    expect(existsSync(join(dir, 'dist', 'main.js.map'))).toBe(true)

    const again = await launch(dir, ['--version'])
    expect(again).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  }, RUN_LIMIT_MS * 2)

  it('rebuilds when a source or a contract is newer than the bundle, or a source is removed', async () => {
    const dir = projectCopy({ buildTools: true })
    await launch(dir, ['--version'])
    const rebuilt = (entry: string) => ({ code: 0, stdout: `${version}\n`, stderr: `ivs-mock: ${entry} changed after dist/main.js was built; building it first (npm run build)\n` })

    backdate(dir)
    expect(await launch(dir, ['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
    utimesSync(join(dir, 'src', 'kernel', 'clock.ts'), new Date(), new Date())
    expect(await launch(dir, ['--version'])).toEqual(rebuilt('src/kernel/clock.ts'))

    backdate(dir)
    writeFileSync(join(dir, 'contracts', 'schemas', 'client.json'), readFileSync(join(dir, 'contracts', 'schemas', 'client.json')))
    expect(await launch(dir, ['--version'])).toEqual(rebuilt('contracts/schemas/client.json'))

    writeFileSync(join(dir, 'src', 'kernel', 'unused.ts'), 'export {}\n')
    backdate(dir)
    rmSync(join(dir, 'src', 'kernel', 'unused.ts'))
    expect(await launch(dir, ['--version'])).toEqual(rebuilt('src/kernel'))
    // Four builds in a row: generous on a busy two-core machine.
  }, RUN_LIMIT_MS * 4)

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
