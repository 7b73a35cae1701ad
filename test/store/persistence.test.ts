// openWorld: the world in memory (default), or in a data file and its change log (--data): what is
// written and when, what a damaged file or a second process gets, a save that fails, compaction.
import { existsSync, writeSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { serveOptions, toServeConfig } from '../../src/config.ts'
import { openMock, type DataFileSeams, type RunningMock } from '../../src/mock.ts'
import { seedWorld } from '../../src/seed/index.ts'
import { DataFileError, openWorld } from '../../src/store/persistence.ts'
import { dataFilesOf, readWorld, writeWorld } from '../../src/store/data-files.ts'
import { LINE_CHARACTERS } from '../../src/store/log.ts'
import { checkWorld } from '../../src/store/world-check.ts'
import { WORLD_FORMAT, type WorldData } from '../../src/store/world.ts'
import { TABLES } from '../../src/tables.ts'
import { ApiClient } from '../support/api.ts'
import { fixture } from '../support/contracts.ts'
import { TEST_NOW, withJobsInOrder } from '../support/mock.ts'

let template: WorldData | undefined
/** A freshly seeded world (seeded once per file, cloned per call). */
const build = () => structuredClone((template ??= seedWorld(fixture)))

let dir: string
let file: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ivs-persistence-'))
  file = join(dir, 'world.json')
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Expects a promise to reject with a DataFileError and returns its message. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(DataFileError)
  return (error as DataFileError).message
}

const serveDefaults = () => toServeConfig(Object.fromEntries(serveOptions().map((option) => [option.attributeName(), option.defaultValue as unknown])))

/** Commits made outside requests (the start-up's due jobs, a clock job) go out with the next write, at the end of this turn of the event loop. */
const settled = () => new Promise((resolve) => setImmediate(resolve))

/** A mock as serve runs it, on the data file, with its clock frozen at TEST_NOW; what its start changed is written. */
async function mockOn(seams: DataFileSeams = {}): Promise<RunningMock> {
  const mock = await openMock({ ...serveDefaults(), data: file, clock: new Date(TEST_NOW), freezeClock: true, rateLimit: 1_000_000 }, seams)
  await settled()
  return mock
}

/** The world as its files have it, once every commit made so far is written. */
async function readBack(): Promise<WorldData | undefined> {
  await settled()
  return readWorld(dataFilesOf(file), { check: checkWorld, activeLog: true })?.data
}

describe('openWorld in memory (the default)', () => {
  it('seeds the world and keeps it in memory, writing nothing', async () => {
    const builder = vi.fn(build)
    const world = await openWorld({ tables: TABLES, build: builder })
    expect(world.origin).toBe('seeded')
    expect(builder).toHaveBeenCalledTimes(1)
    expect(world.store.data).toEqual(seedWorld(fixture))
    await world.close()
    expect(existsSync(file)).toBe(false)
  })

  it('seeds again on every open: nothing is shared between two in-memory worlds', async () => {
    const one = await openWorld({ tables: TABLES, build })
    one.store.team(one.store.data.teams[0]!.team.id)!.updateRow({ name: 'Changed' })
    const two = await openWorld({ tables: TABLES, build })
    expect(two.store.data.teams[0]?.team.name).toBe('Acme Recruitment')
  })
})

describe('openWorld with a data file', () => {
  it('seeds the world on first open and writes it at once, with an empty change log', async () => {
    const world = await openWorld({ tables: TABLES, file, build })
    expect(world.origin).toBe('seeded')
    const written = JSON.parse(await readFile(file, 'utf8')) as WorldData & { log: number }
    expect(written).toEqual({ ...world.store.data, log: 0 })
    expect(written.format).toBe(WORLD_FORMAT)
    expect(await readFile(`${file}.log`, 'utf8')).toBe('')
    await world.close()
  })

  it('reads the world back on a second open, its indexes rebuilt (tokens resolve)', async () => {
    await (await openWorld({ tables: TABLES, file, build })).close()
    const builder = vi.fn(build)
    const loaded = await openWorld({ tables: TABLES, file, build: builder })
    expect(loaded.origin).toBe('loaded')
    expect(builder).not.toHaveBeenCalled()
    expect(loaded.store.resolveToken('ivs_acme_owner', () => '2026-07-01T12:00:00Z')?.team.row.name).toBe('Acme Recruitment')
    expect(loaded.store.resolveToken('ivs_revoked', () => '2026-07-01T12:00:00Z')).toBeUndefined()
    await loaded.close()
  })
})

describe('a damaged data file: one line, and the file left as it was', () => {
  /** Writes text as the data file, expects the open to be refused, and the file unchanged. */
  async function refused(text: string): Promise<string> {
    await writeFile(file, text)
    const builder = vi.fn(build)
    const message = await refusal(openWorld({ tables: TABLES, file, build: builder }))
    expect(builder).not.toHaveBeenCalled()
    expect(await readFile(file, 'utf8')).toBe(text)
    expect(message).not.toContain('\n')
    // The lock went with the refusal: the next start is not told the file is in use.
    expect(existsSync(`${file}.lock`)).toBe(false)
    return message
  }
  const seeded = () => ({ ...build(), log: 0 }) as Record<string, unknown>

  it('refuses a file that is not JSON, or cut short', async () => {
    expect(await refused('{"format": 9, "teams": [')).toMatch(new RegExp(`^data file ${file} is not JSON \\(.+\\); nothing was changed`))
    expect(await refused(JSON.stringify(seeded()).slice(0, 5000))).toContain('is not JSON')
  })

  it('refuses an empty file', async () => {
    expect(await refused('')).toBe(`data file ${file} is empty; nothing was changed (restore it, or delete it to start from the seeded world)`)
  })

  it('refuses a file holding null (it used to be replaced by a new world)', async () => {
    expect(await refused('null')).toBe(`data file ${file} holds null, not a world; nothing was changed (delete it to start from the seeded world)`)
    expect(await refused('[1, 2]')).toContain('holds an array, not a world')
  })

  it('refuses another format, quoting what the file says', async () => {
    const message = `this version reads format ${WORLD_FORMAT}; delete it to start from the seeded world`
    expect(await refused(JSON.stringify({ ...seeded(), format: WORLD_FORMAT + 1 }))).toBe(`data file ${file} has format ${WORLD_FORMAT + 1}, ${message}`)
    expect(await refused(JSON.stringify({ ...seeded(), format: String(WORLD_FORMAT) }))).toBe(`data file ${file} has format "${WORLD_FORMAT}", ${message}`)
    const { format: _format, ...noFormat } = seeded()
    expect(await refused(JSON.stringify(noFormat))).toBe(`data file ${file} has no format, ${message}`)
  })

  it('refuses valid JSON with parts missing (it used to be a stack trace)', async () => {
    const { teams: _teams, ...noTeams } = seeded()
    expect(await refused(JSON.stringify(noTeams))).toBe(`data file ${file} is damaged: the world has no teams; nothing was changed (restore it, or delete it to start from the seeded world)`)
    const noClients = seeded()
    delete (noClients.teams as Array<Record<string, unknown>>)[1]!.clients
    expect(await refused(JSON.stringify(noClients))).toContain('is damaged: /teams/1 has no clients;')
  })

  it('refuses a row of the wrong shape (a client named null used to start, then answer 500)', async () => {
    const world = seeded()
    const acme = (world.teams as Array<{ clients: Array<Record<string, unknown>> }>)[0]!
    acme.clients[3]!.name = null
    expect(await refused(JSON.stringify(world))).toContain('is damaged: /teams/0/clients/3/name must be object;')
  })

  it('refuses two rows of a table with the same id', async () => {
    const world = seeded()
    const acme = (world.teams as Array<{ clients: Array<Record<string, unknown>> }>)[0]!
    acme.clients.push({ ...acme.clients[0] })
    expect(await refused(JSON.stringify(world))).toContain(`is damaged: /teams/0/clients has two rows with id ${String(acme.clients[0]!.id)};`)
  })

  it('refuses a change log with a damaged line, and one without its data file', async () => {
    await (await openWorld({ tables: TABLES, file, build })).close()
    const data = await readFile(file, 'utf8')
    const log = '{"n":1,"c":[["s",{"client":500}]],"end":true}\n{"n":2,"c":[["q"]],"end":true}\n{"n":3,"c":[],"end":true}\n'
    await writeFile(`${file}.log`, log)
    expect(await refused(data)).toBe(
      `change log ${file}.log is damaged at line 2: not a change: ["q"]; nothing was changed (restore it, or delete it to lose the changes since the last compaction)`,
    )
    expect(await readFile(`${file}.log`, 'utf8')).toBe(log)
    await rm(file)
    expect(await refusal(openWorld({ tables: TABLES, file, build }))).toBe(
      `change log ${file}.log has no data file ${file} beside it; nothing was changed (restore the data file, or delete the log)`,
    )
  })

  it('refuses a data file in lines cut short, or with a damaged line, naming the line', async () => {
    writeWorld(dataFilesOf(file), build(), 0, { wholeTextLimit: 1000, lineCharacters: 100_000 })
    const lines = (await readFile(file, 'utf8')).split(/(?<=\n)/)
    expect(lines.length).toBeGreaterThan(2)
    const cutShort = `data file ${file} is cut short: its rows end before their last line; nothing was changed (restore it, or delete it to start from the seeded world)`
    expect(await refused(lines.slice(0, -1).join(''))).toBe(cutShort)
    // Its first line alone is a world without rows: it must not read as one.
    expect(await refused(lines[0]!)).toBe(cutShort)
    expect(await refused([lines[0], '{"n":1,"c":[["a","users",[7]]]}\n', ...lines.slice(1)].join(''))).toBe(
      `data file ${file} is damaged at line 2: not a change: ["a","users",[7]]; nothing was changed (restore it, or delete it to start from the seeded world)`,
    )
  })

  it('drops a last commit cut short by a crash (never answered), and goes on after it', async () => {
    await (await openWorld({ tables: TABLES, file, build })).close()
    const complete = '{"n":1,"c":[["s",{"client":500}]],"end":true}\n'
    await writeFile(`${file}.log`, `${complete}{"n":2,"c":[["s",{"client":6`)
    const world = await openWorld({ tables: TABLES, file, build })
    expect(world.store.data.sequences.client).toBe(500)
    expect(await readFile(`${file}.log`, 'utf8')).toBe(complete)
    await world.close()
  })
})

describe('the lock: one process per data file', () => {
  it('refuses a second open while the first holds the file, naming the process', async () => {
    const first = await openWorld({ tables: TABLES, file, build })
    expect((await readFile(`${file}.lock`, 'utf8')).trim()).toBe(String(process.pid))
    expect(await refusal(openWorld({ tables: TABLES, file, build }))).toBe(
      `data file ${file} is in use by process ${process.pid} (lock file ${file}.lock); stop that mock first, or give this one another --data file`,
    )
    await first.close()
    expect(existsSync(`${file}.lock`)).toBe(false)
    await (await openWorld({ tables: TABLES, file, build })).close()
  })

  it('takes over a lock whose process is gone (a mock killed with kill -9)', async () => {
    // No process has this id: it is above the kernel's largest.
    await writeFile(`${file}.lock`, '4194305\n')
    const world = await openWorld({ tables: TABLES, file, build })
    expect((await readFile(`${file}.lock`, 'utf8')).trim()).toBe(String(process.pid))
    await world.close()
  })
})

describe('a mock on a data file', () => {
  let mock: RunningMock

  afterEach(async () => {
    await mock.close()
  })

  it('has a write in its change log once it is answered, and nothing for reads', async () => {
    mock = await mockOn()
    const api = new ApiClient(mock.app, 'ivs_acme_owner')
    const before = (await stat(`${file}.log`)).size
    for (const path of ['/clients', '/team', '/me', '/status', '/records']) expect((await api.get(path)).status, path).toBeLessThan(300)
    expect((await stat(`${file}.log`)).size).toBe(before)

    const created = await api.post('/clients', { name: { first_name: 'Persisted', last_name: 'Person' }, email: 'persisted@example.com' })
    expect(created.status).toBe(201)
    const patched = await api.patch('/team', { telephone: '+44 20 7946 0999' })
    expect(patched.status).toBe(200)
    const read = await readBack()
    const acme = read?.teams.find((team) => team.team.identifier === 'acme-recruitment')
    expect(acme?.clients.find((row) => row.id === created.body.id)).toMatchObject({ email: 'persisted@example.com' })
    expect(acme?.team.telephone).toBe('+44 20 7946 0999')
    expect(withJobsInOrder(read)).toEqual(withJobsInOrder(mock.world.store.data))
  })

  it('keeps registered OAuth clients and issued tokens: they work after a restart', async () => {
    mock = await mockOn()
    const control = new ApiClient(mock.app, undefined, '/_mock')
    const registered = await control.post('/oauth/clients', { name: 'Kept', redirect_uris: ['https://kept.example/cb'] })
    const { client_id, client_secret } = registered.body
    const code = (await control.post('/oauth/authorize', { client_id, redirect_uri: 'https://kept.example/cb', token: 'ivs_acme_member' })).body.code
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id, client_secret, code, redirect_uri: 'https://kept.example/cb' })
    const tokens = await new ApiClient(mock.app, undefined, '').request('POST', '/oauth/token', {
      raw: form.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(tokens.status, tokens.text).toBe(200)
    await mock.close()

    mock = await mockOn()
    expect(mock.world.origin).toBe('loaded')
    const me = await new ApiClient(mock.app, tokens.body.access_token).get('/me')
    expect([me.status, me.body.email]).toEqual([200, 'hannah.okafor@acme-recruitment.example'])
    expect((await new ApiClient(mock.app, undefined, '/_mock').get('/oauth/clients')).body.data.map((client: { name: string }) => client.name)).toContain('Kept')
  })

  it('writes what a request changed, not the world: a POST to a team of 20,000 clients appends a few KB', async () => {
    mock = await mockOn({ compactAfterBytes: Number.MAX_SAFE_INTEGER })
    const control = new ApiClient(mock.app, undefined, '/_mock')
    const made = await control.post('/teams', { generate: { clients: 20_000 } })
    expect(made.status).toBe(201)
    const dataFile = await stat(file)
    const owner = new ApiClient(mock.app, made.body.tokens.owner)
    const before = (await stat(`${file}.log`)).size
    const created = await owner.post('/clients', { name: { first_name: 'One', last_name: 'More' }, email: 'one.more@example.com' })
    expect(created.status).toBe(201)
    const appended = (await stat(`${file}.log`)).size - before
    expect(appended).toBeGreaterThan(0)
    expect(appended).toBeLessThan(4_000)
    // The data file itself is not touched by a write.
    expect((await stat(file)).mtimeMs).toBe(dataFile.mtimeMs)
  })

  it('logs a team put back as its state without rows, then its rows in lines of at most 4 MB, and reads it back the same', async () => {
    mock = await mockOn({ compactAfterBytes: Number.MAX_SAFE_INTEGER })
    const control = new ApiClient(mock.app, undefined, '/_mock')
    const made = await control.post('/teams', { generate: { clients: 20_000 } })
    expect(made.status).toBe(201)
    const team = made.body.team.id as number
    const snapshot = await control.post(`/teams/${team}/snapshots`, {})
    expect(snapshot.status).toBe(201)
    const before = (await stat(`${file}.log`)).size
    expect((await control.post(`/teams/${team}/restore`, { snapshot: snapshot.body.id })).status).toBe(200)
    const lines = (await readFile(`${file}.log`)).subarray(before).toString('utf8').trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) expect(line.length).toBeLessThan(LINE_CHARACTERS + 10_000)
    const commit = lines.map((line) => JSON.parse(line) as { n: number; c: Array<[string, ...unknown[]]> })
    const [state] = commit[0]!.c.filter((change) => change[0] === 't').map((change) => change[1] as { clients: unknown[] })
    expect(state!.clients).toEqual([])
    const clients = commit.flatMap((line) => line.c.filter((change) => change[0] === 'a' && change[1] === `${team}/clients`).flatMap((change) => change[2] as unknown[]))
    expect(clients).toHaveLength(20_000)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
  })

  it('says on the console when it reads a large world and writes a large change, and how long each took', async () => {
    const lines: string[] = []
    const announceFrom = { bytes: 100_000, changes: 1_000 }
    const open = () => openMock({ ...serveDefaults(), data: file, clock: new Date(TEST_NOW), freezeClock: true, progress: { report: (line) => lines.push(line) } }, { announceFrom })
    mock = await open()
    // The seeded world (640 KB) is written, not read: nothing to say.
    expect(lines).toEqual([])
    const made = await new ApiClient(mock.app, undefined, '/_mock').post('/teams', { generate: { clients: 2_000 } })
    expect(made.status).toBe(201)
    const log = `${file}.log`
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^ivs-mock: writing \\d{1,3}(,\\d{3})* changes to ${log}$`)),
      expect.stringMatching(new RegExp(`^ivs-mock: \\d+ MB of changes made ready for ${log} in \\d+\\.\\d s$`)),
    ])
    await mock.close()
    lines.length = 0
    mock = await open()
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^ivs-mock: reading ${file} and its change log \\(\\d+ MB\\)$`)),
      expect.stringMatching(new RegExp(`^ivs-mock: read ${file} and its change log in \\d+\\.\\d s$`)),
    ])
  })

  it('writes a world too large for one JSON text in lines (the world without rows, then its rows), and reads it back the same', async () => {
    const world = build()
    const bytes = writeWorld(dataFilesOf(file), world, 3, { wholeTextLimit: 50_000, lineCharacters: 100_000 })
    const text = await readFile(file, 'utf8')
    expect(Buffer.byteLength(text)).toBe(bytes)
    const [head, ...rest] = text.trimEnd().split('\n')
    const withoutRows = JSON.parse(head!) as WorldData & { rows_follow: boolean; log: number }
    expect(withoutRows).toMatchObject({ format: WORLD_FORMAT, log: 3, rows_follow: true, users: [], jobs: [] })
    expect(withoutRows.teams.map((state) => [state.team.id, state.clients])).toEqual(world.teams.map((state) => [state.team.id, []]))
    expect(rest.length).toBeGreaterThan(1)
    expect(readWorld(dataFilesOf(file), { check: checkWorld, activeLog: true })?.data).toEqual(world)
    // A mock starts on it, and its compaction writes it back as one JSON text (it fits).
    mock = await mockOn({ compactAfterBytes: Number.MAX_SAFE_INTEGER })
    expect(mock.world.origin).toBe('loaded')
    expect((await new ApiClient(mock.app, 'ivs_acme_owner').get('/clients', { limit: '1' })).status).toBe(200)
    await mock.world.compact()
    expect((await readFile(file, 'utf8')).includes('\n')).toBe(false)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
  })

  it('folds the change log into the data file when compacted, and reads the same world back', async () => {
    mock = await mockOn({ compactAfterBytes: Number.MAX_SAFE_INTEGER })
    const api = new ApiClient(mock.app, 'ivs_acme_owner')
    for (let i = 0; i < 5; i++) expect((await api.post('/clients', { name: { first_name: `C${i}`, last_name: 'Compacted' }, email: `c${i}@example.com` })).status).toBe(201)
    expect((await stat(`${file}.log`)).size).toBeGreaterThan(0)
    await mock.world.compact()
    expect((await stat(`${file}.log`)).size).toBe(0)
    expect(existsSync(`${file}.log.compacting`)).toBe(false)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
  })
})

describe('a save that fails (fault 2)', () => {
  let mock: RunningMock
  let failing = false
  /** Writes half of what it is given, then fails as a full disk does. */
  const writeLog = (fd: number, bytes: Uint8Array) => {
    if (!failing) {
      writeSync(fd, bytes)
      return
    }
    writeSync(fd, bytes.subarray(0, bytes.length >> 1))
    throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
  }
  let errors: ReturnType<typeof vi.spyOn>

  beforeEach(async () => {
    failing = false
    mock = await mockOn({ writeLog })
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  })

  afterEach(async () => {
    errors.mockRestore()
    await mock.close()
  })

  it('answers 500 and leaves no change behind; the next write works', async () => {
    const api = new ApiClient(mock.app, 'ivs_acme_owner')
    const before = (await api.get('/clients', { limit: 100 })).body.total as number
    failing = true
    // Straight to the app: no operation documents a 500, so the contract-checking client would refuse it.
    const failed = await mock.app.request('/api/v2/clients', {
      method: 'POST',
      headers: { Authorization: 'Bearer ivs_acme_owner', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: { first_name: 'Lost', last_name: 'Write' }, email: 'lost@example.com' }),
    })
    expect([failed.status, await failed.json()]).toEqual([500, { message: 'Server Error' }])
    expect(errors.mock.calls).toEqual([[`ivs-mock: could not write the change log ${file}.log (ENOSPC); the change was undone`]])
    expect((await api.get('/clients', { limit: 100 })).body.total).toBe(before)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))

    failing = false
    const retried = await api.post('/clients', { name: { first_name: 'Lost', last_name: 'Write' }, email: 'lost@example.com' })
    expect(retried.status).toBe(201)
    expect((await api.get('/clients', { limit: 100 })).body.total).toBe(before + 1)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
  })

  it('catches a failed save of due jobs outside a request: one line, undone, the process goes on', async () => {
    const jobs = mock.services.scheduler.pending().length
    failing = true
    // What the tick does when jobs fall due (a year on: reminders, expiry, deletion dates).
    expect(() => mock.services.scheduler.advance(365 * 86_400_000)).not.toThrow()
    await settled()
    expect(errors.mock.calls).toEqual([[`ivs-mock: could not write the change log ${file}.log (ENOSPC); the change was undone`]])
    expect(mock.services.scheduler.pending().length).toBe(jobs)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
    failing = false
    expect((await new ApiClient(mock.app, 'ivs_acme_owner').post('/clients', { name: { first_name: 'After', last_name: 'Failure' }, email: 'after@example.com' })).status).toBe(201)
    expect(withJobsInOrder(await readBack())).toEqual(withJobsInOrder(mock.world.store.data))
  })
})
