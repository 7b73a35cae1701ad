// startMock(), the package's in-process API (src/index.ts): the mock in the test's own process,
// answering fetch() with no socket, or on 127.0.0.1 when asked; teams, the clock, the journal,
// snapshots, and close(). Answers are checked against their contracts.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MockControlError, startMock, type Mock } from '../../src/index.ts'
import { startReceiver, type Receiver } from '../support/receiver.ts'

const START = '2026-07-01T12:00:00Z'
const NEW_CLIENT = { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' }

const opened: Mock[] = []
const receivers: Receiver[] = []
const folders: string[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((mock) => mock.close()))
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function mockFor(options: Parameters<typeof startMock>[0] = {}): Promise<Mock> {
  const mock = await startMock({ clock: START, freezeClock: true, ...options })
  opened.push(mock)
  return mock
}

async function json(res: Response): Promise<{ status: number; body: any }> {
  return { status: res.status, body: await res.json() }
}

describe('startMock()', () => {
  it('answers fetch with a path, a full URL or a Request, in-process, as the API does', async () => {
    const mock = await mockFor()
    expect(mock.url).toBeUndefined()
    const auth = { Authorization: 'Bearer ivs_acme_owner' }

    const byPath = await json(await mock.fetch('/api/v2/clients?limit=2', { headers: auth }))
    expect(byPath.status).toBe(200)
    expect(byPath).toMatchContract('clients.list')
    expect(byPath.body.total).toBe(50)
    expect(byPath.body.links.next).toBe('http://localhost/api/v2/clients?limit=2&page=2')

    const byUrl = await json(await mock.fetch(byPath.body.links.next, { headers: auth }))
    expect(byUrl.body.current_page).toBe(2)

    // A Request keeps its own origin: behind MSW, links point where the app sent it.
    const byRequest = await json(await mock.fetch(new Request('http://api.example/api/v2/clients?limit=2', { headers: auth })))
    expect(byRequest.body.links.next).toBe('http://api.example/api/v2/clients?limit=2&page=2')

    const unauthenticated = await json(await mock.fetch('/api/v2/me'))
    expect(unauthenticated).toEqual({ status: 401, body: { error: 'Unauthenticated.' } })
  })

  it("makes a fresh team with newTeam(), as POST /_mock/teams does, and fetches as any of its roles", async () => {
    const mock = await mockFor()
    const team = await mock.newTeam({ name: 'In-process team', generate: { clients: 3 } })
    // The team is the body of POST /_mock/teams, with helpers (functions, not JSON).
    const body = JSON.parse(JSON.stringify(team)) as typeof team
    expect({ status: 201, body }).toMatchContract('control.teams.create')
    expect(body.team.name).toBe('In-process team')

    const clients = await json(await team.fetch('/api/v2/clients'))
    expect(clients.body.total).toBe(3)
    const created = await json(await team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(NEW_CLIENT) }))
    expect(created.status).toBe(201)
    expect(created).toMatchContract('clients.create')
    const refused = await team.fetch('/api/v2/clients', { role: 'read-only', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(NEW_CLIENT) })
    expect(refused.status).toBe(403)
    const me = await json(await team.fetch('/api/v2/me', { role: 'member' }))
    expect(me.body.email).toBe(body.users.member.email)
  })

  it('says what the control API answered when newTeam() is refused', async () => {
    const mock = await mockFor()
    const refused = await mock.newTeam({ generate: { clients: -1 } }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MockControlError)
    expect((refused as MockControlError).status).toBe(422)
    expect((refused as MockControlError).body).toEqual({ 'generate.clients': ['The clients field must be at least 0.'] })
  })

  it('reads, advances, freezes and unfreezes the clock', async () => {
    const mock = await mockFor()
    expect(mock.clock.now()).toEqual(new Date(START))
    const team = await mock.newTeam()
    const client = await json(await team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(NEW_CLIENT) }))
    expect(client.body.created_at).toBe(START)

    const advanced = await mock.clock.advance(90)
    expect(advanced).toMatchObject({ object: 'mock_clock', now: '2026-07-01T12:01:30Z', frozen: true })
    expect(mock.clock.now()).toEqual(new Date('2026-07-01T12:01:30Z'))
    expect(await mock.clock.unfreeze()).toMatchObject({ frozen: false })
    expect(await mock.clock.freeze()).toMatchObject({ frozen: true })
  })

  it("reads and clears a team's journal", async () => {
    const mock = await mockFor()
    const team = await mock.newTeam()
    await team.fetch('/api/v2/clients?limit=5')
    await team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'no-name@example.com' }) })
    const entries = await mock.journal.entries(team)
    expect(entries.map((entry) => [entry.method, entry.operation, entry.status])).toEqual([
      ['POST', 'clients.create', 422],
      ['GET', 'clients.list', 200],
    ])
    expect(await mock.journal.entries(team.team.id, { status: 422 })).toHaveLength(1)
    const report = await mock.journal.report(team)
    expect(report).toMatchObject({ object: 'mock_journal_report', team: team.team.id, total: 2 })
    await mock.journal.clear(team)
    expect(await mock.journal.entries(team)).toEqual([])
  })

  it("snapshots, restores and resets a team through the team's helpers", async () => {
    const mock = await mockFor()
    const team = await mock.newTeam({ generate: { clients: 2 } })
    const post = () => team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(NEW_CLIENT) })
    await post()
    const snapshot = await team.snapshot('three clients')
    expect(snapshot).toMatchObject({ object: 'mock_snapshot', team: team.team.id, name: 'three clients', rows: expect.objectContaining({ clients: 3 }) })
    await post()
    expect((await json(await team.fetch('/api/v2/clients'))).body.total).toBe(4)
    expect(await team.restore(snapshot)).toMatchObject({ from: 'snapshot', snapshot: snapshot.id })
    expect((await json(await team.fetch('/api/v2/clients'))).body.total).toBe(3)
    expect(await team.reset()).toMatchObject({ from: 'creation', snapshot: null })
    expect((await json(await team.fetch('/api/v2/clients'))).body.total).toBe(2)
  })

  it('listens on a free port of 127.0.0.1 with listen: true, and links point there', async () => {
    const mock = await mockFor({ listen: true })
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const team = await mock.newTeam({ generate: { clients: 3 } })
    const overSocket = await json(await fetch(`${mock.url}/api/v2/clients?limit=1`, { headers: { Authorization: `Bearer ${team.tokens.owner}` } }))
    expect(overSocket).toMatchContract('clients.list')
    expect(overSocket.body.links.next).toBe(`${mock.url}/api/v2/clients?limit=1&page=2`)
    // In-process fetch answers as the socket does.
    expect((await json(await team.fetch('/api/v2/clients?limit=1'))).body).toEqual(overSocket.body)

    await mock.close()
    opened.splice(opened.indexOf(mock), 1)
    await expect(fetch(`${mock.url}/api/v2/status`)).rejects.toThrow()
  })

  it("refuses options serve would refuse, with serve's reason", async () => {
    await expect(startMock({ rateLimit: 0 })).rejects.toThrow('startMock: rateLimit: the rate limit must be a whole number from 1 to 1000000000.')
    await expect(startMock({ clock: 'yesterday' })).rejects.toThrow('startMock: clock: expected an ISO 8601 date or date-time')
    await expect(startMock({ port: 4010 } as never)).rejects.toThrow('startMock: unknown option port')
  })

  it('applies the options: the rate limit and the journal size', async () => {
    const mock = await mockFor({ rateLimit: 2, journalSize: 0 })
    const team = await mock.newTeam()
    expect((await team.fetch('/api/v2/status')).status).toBe(204)
    expect((await team.fetch('/api/v2/status')).status).toBe(204)
    const limited = await team.fetch('/api/v2/status')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('60')
    expect(await mock.journal.entries(team)).toEqual([])
  })

  it('keeps teams and snapshots in a data file across close() and a new start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-in-process-'))
    folders.push(dir)
    const data = join(dir, 'state.json')
    const first = await startMock({ data, clock: START, freezeClock: true })
    const team = await first.newTeam()
    const snapshot = await team.snapshot()
    await team.fetch('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(NEW_CLIENT) })
    await first.close()

    const second = await mockFor({ data })
    const clients = () => second.fetch('/api/v2/clients', { headers: { Authorization: `Bearer ${team.tokens.owner}` } }).then(json)
    expect((await clients()).body.total).toBe(1)
    const restored = await json(await second.fetch(`/_mock/teams/${team.team.id}/restore`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ snapshot: snapshot.id }) }))
    expect(restored.status).toBe(200)
    expect((await clients()).body.total).toBe(0)
  })

  it('stops webhook delivery on close(): an attempt cut short goes out again on the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-in-process-'))
    folders.push(dir)
    const data = join(dir, 'state.json')
    const hanging = await startReceiver(() => 'hang')
    receivers.push(hanging)
    const first = await startMock({ data, clock: START, freezeClock: true })
    const team = await first.newTeam()
    const hook = await json(await team.fetch('/api/v2/webhooks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: hanging.url, events: ['client.*'] }) }))
    expect(hook.status).toBe(201)
    await hanging.waitFor(1)
    await first.close()

    const second = await mockFor({ data })
    await hanging.waitFor(2)
    expect(second.url).toBeUndefined()
    const [cut, again] = hanging.received
    expect(again?.body).toEqual(cut?.body)
    expect(again?.headers['x-svc-delivery-attempt']).toBe('1')
  })
})
