// startMock().close() ends everything the mock owns: a request a fault's delay holds (in process,
// and over the socket after its client gave up) is let go at once, so the process exits as soon as
// close() resolves; and a closed mock refuses every further use with an error that says so,
// writing nothing, in memory and with a data file.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { MockClosedError, startMock } from '../../src/index.ts'
import { childrenKilledAfterEach, runCommand } from '../support/process.ts'

const running = childrenKilledAfterEach()
const folders: string[] = []
/** Where temporary folders go for the other test files (os.tmpdir() reads TMPDIR each time). */
const sharedTmpdir = process.env.TMPDIR
afterEach(async () => {
  if (sharedTmpdir === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = sharedTmpdir
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** The package as users import it: the built files. */
const PACKAGE = fileURLToPath(new URL('../../dist/index.js', import.meta.url))

const HELD_AT_CLOSE = `
import { request } from 'node:http'
const { startMock } = await import(${JSON.stringify(PACKAGE)})
const mock = await startMock({ listen: true })
const team = await mock.newTeam()
const faults = \`/_mock/teams/\${team.team.id}/faults\`
// Every GET /status is held for ten minutes (the longest delay a fault takes).
const made = await mock.fetch(faults, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ operationId: 'status.get', delay_ms: 600000, times: null }) })
if (made.status !== 201) throw new Error(await made.text())
const inProcess = team.fetch('/api/v2/status').then((res) => \`answered \${res.status}\`, (error) => \`\${error.name}: \${error.message}\`)
const overSocket = request(\`\${mock.url}/api/v2/status\`, { headers: { Authorization: \`Bearer \${team.tokens.owner}\` } })
overSocket.on('error', () => undefined)
overSocket.end()
for (let round = 0; ; round++) {
  const [fault] = (await (await mock.fetch(faults)).json()).data
  if (fault.applied === 2) break
  if (round === 1000) throw new Error('the requests were not held')
  await new Promise((resolve) => setTimeout(resolve, 10))
}
// The socket's client gives up.
overSocket.destroy()
await mock.close()
console.log(\`closed; the request held in process: \${await inProcess}\`)
`

const CLOSED = /the mock is closed \(close\(\) was called\)/

describe('close()', () => {
  it("lets go of the requests a fault's delay holds: the process exits once close() resolves", { timeout: 60_000 }, async () => {
    const run = await runCommand(process.execPath, ['--input-type=module', '-e', HELD_AT_CLOSE], { limitMs: 30_000, started: (child) => running.add(child) })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^closed; the request held in process: MockClosedError: ivs-mock: GET \/api\/v2\/status: the mock is closed \(close\(\) was called\)/)
  })

  it('leaves a closed mock unusable: every helper rejects with MockClosedError, and nothing is made (in memory)', async () => {
    // A temporary folder of its own for the mock's uploads folder: other test files make and remove
    // theirs in the shared one while this runs, so listing that would judge their folders too.
    const own = await mkdtemp(join(tmpdir(), 'ivs-in-process-'))
    folders.push(own)
    process.env.TMPDIR = own
    const uploadFolders = () => readdirSync(own).filter((name) => name.startsWith('ivs-mock-files-'))
    const mock = await startMock({ clock: '2026-07-01T12:00:00Z', freezeClock: true })
    const team = await mock.newTeam()
    const snapshot = await team.snapshot()
    // The first upload makes the uploads folder, there; close() removes it.
    const uploaded = new FormData()
    uploaded.append('attachment', new File(['notes'], 'notes.txt', { type: 'text/plain' }))
    expect((await team.fetch('/api/v2/attachments', { method: 'POST', body: uploaded })).status).toBe(201)
    expect(uploadFolders()).toHaveLength(1)
    await mock.close()
    expect(uploadFolders()).toEqual([])

    const upload = new FormData()
    upload.append('file', new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], 'a.pdf', { type: 'application/pdf' }))
    const uses: Array<[string, () => Promise<unknown>]> = [
      ['fetch', () => mock.fetch('/api/v2/status', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })],
      ['fetch of a Request', () => mock.fetch(new Request('http://api.example/api/v2/clients', { method: 'POST', headers: { Authorization: `Bearer ${team.tokens.owner}`, 'Content-Type': 'application/json' }, body: '{}' }))],
      ['team.fetch', () => team.fetch('/api/v2/attachments', { method: 'POST', body: upload })],
      ['newTeam', () => mock.newTeam()],
      ['team.snapshot', () => team.snapshot()],
      ['team.restore', () => team.restore(snapshot)],
      ['team.reset', () => team.reset()],
      ['clock.advance', () => mock.clock.advance(60)],
      ['clock.freeze', () => mock.clock.freeze()],
      ['clock.unfreeze', () => mock.clock.unfreeze()],
      ['journal.entries', () => mock.journal.entries(team)],
      ['journal.report', () => mock.journal.report(team)],
      ['journal.clear', () => mock.journal.clear(team)],
    ]
    for (const [name, use] of uses) {
      const refused = await use().then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused, name).toBeInstanceOf(MockClosedError)
      expect((refused as Error).message, name).toMatch(CLOSED)
    }
    expect(() => mock.clock.now()).toThrow(CLOSED)
    // No uploads folder made afresh for the upload.
    expect(uploadFolders()).toEqual([])
    // A second close() is no error.
    await expect(mock.close()).resolves.toBeUndefined()
  })

  it('writes nothing to a data file once closed: the writes reject, and the file is as close() left it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-in-process-'))
    folders.push(dir)
    const data = join(dir, 'state.json')
    const mock = await startMock({ data, clock: '2026-07-01T12:00:00Z', freezeClock: true })
    const team = await mock.newTeam()
    await mock.close()
    const files = () => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]))
    const before = files()

    const created = team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' }) })
    await expect(created).rejects.toThrow(CLOSED)
    await expect(mock.newTeam()).rejects.toThrow(CLOSED)
    await expect(mock.clock.advance(3600)).rejects.toThrow(CLOSED)
    expect(files()).toEqual(before)

    const reopened = await startMock({ data })
    try {
      const clients = await reopened.fetch('/api/v2/clients', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })
      expect(((await clients.json()) as { total: number }).total).toBe(0)
    } finally {
      await reopened.close()
    }
  })
})
