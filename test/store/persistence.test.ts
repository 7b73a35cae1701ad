// openWorld: the world in memory (default) or in a JSON data file (--data), and the app saving
// after every request that may have changed state.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app.ts'
import { createServices } from '../../src/services.ts'
import { createClock } from '../../src/kernel/clock.ts'
import { createEventBus } from '../../src/kernel/events.ts'
import { createRandom } from '../../src/kernel/random.ts'
import { seedWorld } from '../../src/seed/index.ts'
import { DataFileError, openWorld, type OpenedWorld } from '../../src/store/persistence.ts'
import { WORLD_FORMAT, type WorldData } from '../../src/store/world.ts'
import { ApiClient } from '../support/api.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { TEST_NOW } from '../support/mock.ts'
import { TABLES } from '../../src/tables.ts'

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

const readDataFile = async () => JSON.parse(await readFile(file, 'utf8')) as WorldData

/** Expects a promise to reject with a DataFileError and returns it. */
async function dataFileError(promise: Promise<unknown>): Promise<DataFileError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(DataFileError)
  return error as DataFileError
}

describe('openWorld in memory (the default)', () => {
  it('seeds the world and keeps it in memory', async () => {
    const builder = vi.fn(build)
    const world = await openWorld({ tables: TABLES, build: builder })
    expect(world.origin).toBe('seeded')
    expect(builder).toHaveBeenCalledTimes(1)
    expect(world.store.data).toEqual(seedWorld(fixture))
    expect(world.store.team(1)?.row.name).toBe('Acme Recruitment')
    await expect(world.save()).resolves.toBeUndefined()
    expect(existsSync(file)).toBe(false)
  })

  it('seeds again on every open: nothing is shared between two in-memory worlds', async () => {
    const one = await openWorld({ tables: TABLES, build })
    one.store.data.teams[0]!.team.name = 'Changed'
    await one.save()
    const two = await openWorld({ tables: TABLES, build })
    expect(two.origin).toBe('seeded')
    expect(two.store.data.teams[0]?.team.name).toBe('Acme Recruitment')
  })

  it('also treats an undefined file as in memory', async () => {
    const world = await openWorld({ tables: TABLES, file: undefined, build })
    expect(world.origin).toBe('seeded')
  })
})

describe('openWorld with a data file', () => {
  it('seeds the world on first open and writes it to the file at once', async () => {
    const world = await openWorld({ tables: TABLES, file, build })
    expect(world.origin).toBe('seeded')
    expect(await readDataFile()).toEqual(world.store.data)
    expect((await readDataFile()).format).toBe(WORLD_FORMAT)
  })

  it('reads back, on a second open, what was saved', async () => {
    const first = await openWorld({ tables: TABLES, file, build })
    const acme = first.store.data.teams[0]!
    acme.team.name = 'Acme Recruitment (renamed)'
    acme.clients.pop()
    first.store.nextId('client')
    await first.save()

    const builder = vi.fn(build)
    const second = await openWorld({ tables: TABLES, file, build: builder })
    expect(second.origin).toBe('loaded')
    expect(builder).not.toHaveBeenCalled()
    expect(second.store.data).toEqual(first.store.data)
    expect(second.store.team(acme.team.id)?.row.name).toBe('Acme Recruitment (renamed)')
    expect(second.store.data.sequences.client).toBe((template?.sequences.client ?? 0) + 1)
  })

  it('rebuilds the store indexes from a loaded file (tokens resolve)', async () => {
    await openWorld({ tables: TABLES, file, build })
    const loaded = await openWorld({ tables: TABLES, file, build })
    const identity = loaded.store.resolveToken('ivs_acme_owner', () => '2026-07-01T12:00:00Z')
    expect(identity?.user.email).toBe('olivia.bennett@acme-recruitment.example')
    expect(identity?.team.row.name).toBe('Acme Recruitment')
    expect(loaded.store.resolveToken('ivs_revoked', () => '2026-07-01T12:00:00Z')).toBeUndefined()
  })

  it('refuses a file of another format, telling to delete it, and leaves the file alone', async () => {
    const data = { ...build(), format: WORLD_FORMAT + 1 }
    const text = JSON.stringify(data)
    await writeFile(file, text)
    const builder = vi.fn(build)
    const error = await dataFileError(openWorld({ tables: TABLES, file, build: builder }))
    expect(error.message).toBe(
      `data file ${file} has format ${WORLD_FORMAT + 1}, this version reads format ${WORLD_FORMAT}; delete it to start from the seeded world`,
    )
    expect(builder).not.toHaveBeenCalled()
    expect(await readFile(file, 'utf8')).toBe(text)
  })

  it('refuses a file without a format', async () => {
    const { format: _format, ...data } = build()
    await writeFile(file, JSON.stringify(data))
    const error = await dataFileError(openWorld({ tables: TABLES, file, build }))
    expect(error.message).toContain(`has format undefined, this version reads format ${WORLD_FORMAT}; delete it`)
  })

  it('refuses a corrupt file, naming it, and leaves it alone', async () => {
    await writeFile(file, '{"format": 1, "teams": [')
    const builder = vi.fn(build)
    const error = await dataFileError(openWorld({ tables: TABLES, file, build: builder }))
    expect(error.message).toContain(`cannot read data file ${file}`)
    expect(builder).not.toHaveBeenCalled()
    expect(await readFile(file, 'utf8')).toBe('{"format": 1, "teams": [')
  })
})

describe('the app with a data file', () => {
  let world: OpenedWorld
  let afterWrite: ReturnType<typeof vi.fn<() => Promise<void>>>
  let api: ApiClient

  /** The app over a world, saving it after every write. */
  const appOn = (opened: OpenedWorld, save: () => Promise<void>) =>
    createApp({
      ...createServices({
        store: opened.store,
        clock: createClock({ start: TEST_NOW, frozen: true }),
        random: createRandom(42),
        events: createEventBus((error) => {
          throw error
        }),
        behaviour: { recordExpiryDays: 30, checkDelaySeconds: 60 },
      }),
      contracts,
      rateLimit: { limit: 10_000, windowSeconds: 60 },
      afterWrite: save,
    })

  beforeEach(async () => {
    world = await openWorld({ tables: TABLES, file, build })
    afterWrite = vi.fn(() => world.save())
    api = new ApiClient(appOn(world, afterWrite), 'ivs_acme_owner')
  })

  it('keeps registered OAuth clients and issued tokens: they work after a restart', async () => {
    const app = appOn(world, afterWrite)
    const control = new ApiClient(app, undefined, '/_mock')
    const registered = await control.post('/oauth/clients', { name: 'Kept', redirect_uris: ['https://kept.example/cb'] })
    const { client_id, client_secret } = registered.body
    const code = (await control.post('/oauth/authorize', { client_id, redirect_uri: 'https://kept.example/cb', token: 'ivs_acme_member' })).body.code
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id, client_secret, code, redirect_uri: 'https://kept.example/cb' })
    const tokens = await new ApiClient(app, undefined, '').request('POST', '/oauth/token', {
      raw: form.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(tokens.status, tokens.text).toBe(200)

    const reopened = await openWorld({ tables: TABLES, file, build })
    expect(reopened.origin).toBe('loaded')
    const restarted = appOn(reopened, () => reopened.save())
    const me = await new ApiClient(restarted, tokens.body.access_token).get('/me')
    expect([me.status, me.body.email]).toEqual([200, 'hannah.okafor@acme-recruitment.example'])
    expect((await new ApiClient(restarted, undefined, '/_mock').get('/oauth/clients')).body.data.map((client: { name: string }) => client.name)).toContain('Kept')
  })

  it('has the client created by a POST in the file once the response is out', async () => {
    const res = await api.post('/clients', { name: { first_name: 'Persisted', last_name: 'Person' }, email: 'persisted@example.com' })
    expect(res.status).toBe(201)
    expect(afterWrite).toHaveBeenCalledTimes(1)

    const saved = await readDataFile()
    const acme = saved.teams.find((team) => team.team.identifier === 'acme-recruitment')
    const client = acme?.clients.find((row) => row.id === res.body.id)
    expect(client).toMatchObject({ email: 'persisted@example.com', name: { first_name: 'Persisted', last_name: 'Person' } })
    expect(saved.sequences.client).toBe(res.body.id)

    const reopened = await openWorld({ tables: TABLES, file, build })
    expect(reopened.origin).toBe('loaded')
    expect(reopened.store.data).toEqual(world.store.data)
  })

  it('has a PATCH in the file once the response is out', async () => {
    const res = await api.patch('/team', { telephone: '+44 20 7946 0999' })
    expect(res.status).toBe(200)
    const saved = await readDataFile()
    expect(saved.teams.find((team) => team.team.identifier === 'acme-recruitment')?.team.telephone).toBe('+44 20 7946 0999')
  })

  it('does not rewrite the file for a GET', async () => {
    const before = await readFile(file, 'utf8')
    const mtime = (await stat(file)).mtimeMs
    for (const path of ['/clients', '/team', '/me', '/status']) {
      const res = await api.get(path)
      expect(res.status, path).toBeLessThan(300)
    }
    expect(afterWrite).not.toHaveBeenCalled()
    expect(await readFile(file, 'utf8')).toBe(before)
    expect((await stat(file)).mtimeMs).toBe(mtime)
  })
})
