// Snapshots, restore and reset of a team (contracts/control/teams.json): a team goes back to a known
// state, byte for byte as the API shows it, without touching another team.
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { startReceiver, type Receiver } from '../support/receiver.ts'
import { createClient } from '../support/requests.ts'
import { upload } from '../support/uploads.ts'
import { webhookMock } from '../support/webhooks.ts'
import { captureTeam } from '../../src/store/snapshots.ts'
import type { Team } from '../../src/store/world.ts'

const IDENTITY = { type: 'check.identity' }
const TEAM_NOT_FOUND = { error: 'Team not found' }
const SNAPSHOT_NOT_FOUND = { error: 'Snapshot not found' }

let receivers: Receiver[] = []
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()))
  receivers = []
})

/** A team made through the control API, with an API client per role. */
async function controlTeam(mock: TestMock, body: unknown = {}) {
  const res = await mock.control.post('/teams', body)
  expect(res.status, res.text).toBe(201)
  return { id: res.body.team.id as number, tokens: res.body.tokens as Record<string, string>, api: (role = 'owner') => mock.api(res.body.tokens[role]) }
}

/** The raw text of each GET, keyed by path: what "byte-identical" compares. */
async function view(api: ApiClient, paths: string[]): Promise<Record<string, string>> {
  const texts: Record<string, string> = {}
  for (const path of paths) {
    const [pathname, search] = path.split('?')
    const res = await api.get(pathname as string, search ? Object.fromEntries(new URLSearchParams(search)) : undefined)
    expect(res.status, `${path} ${res.text}`).toBe(200)
    texts[path] = res.text
  }
  return texts
}

async function snapshot(mock: TestMock, team: number, name?: string) {
  const res = await mock.control.post(`/teams/${team}/snapshots`, name === undefined ? {} : { name })
  expect(res.status, res.text).toBe(201)
  return res.body
}

async function restore(mock: TestMock, team: number, id: number) {
  const res = await mock.control.post(`/teams/${team}/restore`, { snapshot: id })
  expect(res.status, res.text).toBe(200)
  return res.body
}

const TEAM_PATHS = ['/team', '/team/members?limit=100', '/clients?limit=100', '/organisations?limit=100', '/records?limit=100', '/cases?limit=100', '/credits?limit=100', '/webhooks']

describe('POST /_mock/teams/{id}/snapshots and /restore', () => {
  it('puts the team back byte for byte after writes, its pending check results included, and they come as before', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 12, organisations: 3, records: 8, cases: 2 } })
    const api = team.api()
    const client = await createClient(api, 'Pending', 'Result')
    const record = await api.post('/records', { client: client.id, steps: [IDENTITY], notification: false })
    expect(record.status, record.text).toBe(201)
    expect((await mock.control.post(`/records/${record.body.id}/complete`, {})).status).toBe(200)
    const paths = [...TEAM_PATHS, `/clients/${client.id}`, `/records/${record.body.id}`]
    const before = await view(api, paths)
    expect((await mock.control.get(`/records/${record.body.id}`)).body.jobs).toContainEqual(expect.objectContaining({ kind: 'check.result' }))

    const taken = await snapshot(mock, team.id, 'with a pending check')
    expect(taken).toEqual({
      object: 'mock_snapshot',
      id: expect.any(Number),
      team: team.id,
      name: 'with a pending check',
      created_at: NOW,
      rows: expect.objectContaining({ members: 5, clients: 13, records: 9, cases: 2 }),
      jobs: expect.any(Number),
    })

    // Writes of every kind: new rows, changed rows, deleted rows, and the check's result arriving.
    const added = await createClient(api, 'Added', 'Later')
    expect((await api.patch(`/clients/${client.id}`, { email: 'changed@example.com' })).status).toBe(200)
    expect((await api.delete(`/clients/${added.id}`)).status).toBe(204)
    expect((await api.post('/webhooks', { url: 'https://example.com/hooks', events: ['*'] })).status).toBe(201)
    expect((await mock.control.post('/clock/advance', { seconds: 120 })).status).toBe(200)
    const resulted = await view(api, paths)
    expect(resulted[`/records/${record.body.id}`]).not.toBe(before[`/records/${record.body.id}`])
    expect((await mock.control.get(`/records/${record.body.id}`)).body.jobs).not.toContainEqual(expect.objectContaining({ kind: 'check.result' }))

    const restored = await restore(mock, team.id, taken.id)
    expect(restored).toEqual({ object: 'mock_team_state', team: team.id, from: 'snapshot', snapshot: taken.id, rows: taken.rows, jobs: taken.jobs })
    // The clock stays where it is: the restored check result, due 60 s after the snapshot, comes at
    // the next request, with the clock at its own moment, as it came the first time. The writes are gone.
    const recordPath = `/records/${record.body.id}`
    expect(await view(api, paths)).toEqual({ ...before, [recordPath]: resulted[recordPath], '/records?limit=100': resulted['/records?limit=100'] })
  })

  it('answers every GET as at the snapshot when the clock has not moved', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 20, organisations: 4, records: 10, cases: 3, members: 2 } })
    const api = team.api()
    const client = await createClient(api, 'Pending', 'Result')
    const record = await api.post('/records', { client: client.id, steps: [IDENTITY], notification: false })
    await mock.control.post(`/records/${record.body.id}/complete`, {})
    const paths = [...TEAM_PATHS, `/clients/${client.id}`, `/records/${record.body.id}`, `/records/${record.body.id}/steps`]
    const before = await view(api, paths)
    const jobsBefore = (await mock.control.get(`/records/${record.body.id}`)).text
    const taken = await snapshot(mock, team.id)

    await createClient(api, 'New', 'Client')
    expect((await api.patch(`/clients/${client.id}`, { email: 'new@example.com' })).status).toBe(200)
    expect((await api.post('/webhooks', { url: 'https://example.com/hooks', events: ['client.*'] })).status).toBe(201)
    expect((await api.patch('/team', { name: 'Renamed' })).status).toBe(200)
    expect(await view(api, paths)).not.toEqual(before)

    await restore(mock, team.id, taken.id)
    expect(await view(api, paths)).toEqual(before)
    expect((await mock.control.get(`/records/${record.body.id}`)).text).toBe(jobsBefore)

    // The same check result as the first time, once the clock reaches it.
    await mock.control.post('/clock/advance', { seconds: 60 })
    const resulted = await view(api, paths)
    await restore(mock, team.id, taken.id)
    expect(await view(api, paths)).toEqual(resulted)
  })

  it('keeps ids growing across the world: rows made after a restore get new ids, restored rows keep theirs', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const api = team.api()
    const kept = await createClient(api, 'Kept', 'Client')
    const taken = await snapshot(mock, team.id)
    const dropped = await createClient(api, 'Dropped', 'Client')
    await restore(mock, team.id, taken.id)
    expect((await api.get(`/clients/${dropped.id}`)).body).toEqual({ error: 'Client not found' })
    expect((await api.get(`/clients/${kept.id}`)).body.id).toBe(kept.id)
    const after = await createClient(api, 'After', 'Restore')
    expect(after.id).toBeGreaterThan(dropped.id)
  })

  it('restores the team only: another team keeps its writes', async () => {
    const mock = createTestMock()
    const first = await controlTeam(mock)
    const second = await controlTeam(mock)
    const taken = await snapshot(mock, first.id)
    await createClient(first.api(), 'First', 'Team')
    await createClient(second.api(), 'Second', 'Team')
    const secondBefore = await view(second.api(), TEAM_PATHS)
    const acmeBefore = await view(mock.api(), TEAM_PATHS)
    await restore(mock, first.id, taken.id)
    expect((await first.api().get('/clients')).body.total).toBe(0)
    expect(await view(second.api(), TEAM_PATHS)).toEqual(secondBefore)
    expect(await view(mock.api(), TEAM_PATHS)).toEqual(acmeBefore)
  })

  it("keeps an attachment's bytes while a snapshot holds it, and forgets them when nothing does", async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const api = team.api()
    const bytes = new TextEncoder().encode('kept by a snapshot\n')
    const uploaded = await upload(api, 'kept.txt', bytes, 'text/plain')
    expect(uploaded.status, uploaded.text).toBe(201)
    const blob = mock.store.team(team.id)?.attachments.get(uploaded.body.id)?.blob as string
    const taken = await snapshot(mock, team.id)
    expect((await api.delete(`/attachments/${uploaded.body.id}`)).status).toBe(204)
    expect(existsSync(mock.services.blobs.path(blob))).toBe(true)

    await restore(mock, team.id, taken.id)
    expect(new Uint8Array(mock.services.blobs.read(blob))).toEqual(bytes)

    // The team's rows point at it again: deleting the snapshot keeps the bytes.
    expect((await mock.control.delete(`/teams/${team.id}/snapshots/${taken.id}`)).status).toBe(204)
    expect(existsSync(mock.services.blobs.path(blob))).toBe(true)
    // The restored attachment is the team's again; nothing holds its bytes once it is deleted again.
    expect((await api.delete(`/attachments/${uploaded.body.id}`)).status).toBe(204)
    expect(existsSync(mock.services.blobs.path(blob))).toBe(false)
  })

  it('forgets the bytes only a deleted snapshot held', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const uploaded = await upload(team.api(), 'gone.txt', new TextEncoder().encode('gone\n'), 'text/plain')
    const blob = mock.store.team(team.id)?.attachments.get(uploaded.body.id)?.blob as string
    const taken = await snapshot(mock, team.id)
    expect((await team.api().delete(`/attachments/${uploaded.body.id}`)).status).toBe(204)
    expect(existsSync(mock.services.blobs.path(blob))).toBe(true)
    expect((await mock.control.delete(`/teams/${team.id}/snapshots/${taken.id}`)).status).toBe(204)
    expect(existsSync(mock.services.blobs.path(blob))).toBe(false)
  })

  it("puts the webhook log back, and delivery goes on for the restored team's webhooks", async () => {
    const mock = webhookMock()
    const team = await controlTeam(mock)
    const api = team.api()
    const hooks = await startReceiver()
    receivers.push(hooks)
    const webhook = await api.post('/webhooks', { url: hooks.url, events: ['client.*'] })
    expect(webhook.status).toBe(201)
    await createClient(api, 'First', 'Event')
    await mock.services.webhooks.idle()
    const log = await api.get(`/webhooks/${webhook.body.id}/deliveries`)
    const taken = await snapshot(mock, team.id)

    await createClient(api, 'Second', 'Event')
    await mock.services.webhooks.idle()
    expect((await api.get(`/webhooks/${webhook.body.id}/deliveries`)).body.total).toBe(3)

    await restore(mock, team.id, taken.id)
    expect((await api.get(`/webhooks/${webhook.body.id}/deliveries`)).text).toBe(log.text)
    await createClient(api, 'Third', 'Event')
    await mock.services.webhooks.idle()
    await hooks.waitFor(4)
    expect(hooks.received.map((request) => request.body.event)).toEqual(['ping', 'client.created', 'client.created', 'client.created'])
    expect((await api.get(`/webhooks/${webhook.body.id}/deliveries`)).body.total).toBe(3)
  })
})

describe('restoring a team with deliveries under way', () => {
  it('sends again a delivery that was queued when the snapshot was taken, with the same uuid', async () => {
    const mock = webhookMock({ timeoutMs: 5_000 })
    const team = await controlTeam(mock)
    const api = team.api()
    const hooks = await startReceiver((index) => (index === 0 ? 'hang' : { status: 204 }))
    receivers.push(hooks)
    const webhook = await api.post('/webhooks', { url: hooks.url, events: ['client.*'] })
    expect(webhook.status).toBe(201)
    // The ping is in flight (held by the receiver): the snapshot has it queued.
    await hooks.waitFor(1)
    const taken = await snapshot(mock, team.id)
    hooks.release(204)
    await mock.services.webhooks.idle()
    const delivered = await api.get(`/webhooks/${webhook.body.id}/deliveries`)
    expect(delivered.body.data).toEqual([expect.objectContaining({ event: 'ping', attempts: 1 })])

    await restore(mock, team.id, taken.id)
    await mock.services.webhooks.idle()
    const [first, again] = await hooks.waitFor(2)
    expect(again?.body).toEqual(first?.body)
    // Logged as the first time (the receiver's Date header aside).
    const { response: _response, ...logged } = delivered.body.data[0]
    expect((await api.get(`/webhooks/${webhook.body.id}/deliveries`)).body.data).toEqual([{ ...logged, response: expect.objectContaining({ status_code: '204' }) }])
  })
})

describe('GET and DELETE /_mock/teams/{id}/snapshots', () => {
  it('lists a team\'s snapshots oldest first, and deletes one', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const first = await snapshot(mock, team.id, 'first')
    const second = await snapshot(mock, team.id)
    const list = await mock.control.get(`/teams/${team.id}/snapshots`)
    expect(list.status).toBe(200)
    expect(list.body).toEqual({ object: 'list', data: [first, second], limit: 10 })
    expect(second.name).toBeNull()

    expect((await mock.control.delete(`/teams/${team.id}/snapshots/${first.id}`)).status).toBe(204)
    expect((await mock.control.get(`/teams/${team.id}/snapshots`)).body.data).toEqual([second])
    // Another team sees none of them.
    expect((await mock.control.get('/teams/1/snapshots')).body.data).toEqual([])
  })

  it('keeps at most 10 snapshots a team: the 11th is a 422 until one is deleted', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const taken = []
    for (let index = 0; index < 10; index++) taken.push(await snapshot(mock, team.id))
    const refused = await mock.control.post(`/teams/${team.id}/snapshots`, {})
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ snapshots: ['A team keeps at most 10 snapshots; delete one first.'] })
    // Another team's budget is its own.
    expect((await mock.control.post('/teams/1/snapshots', {})).status).toBe(201)
    await mock.control.delete(`/teams/${team.id}/snapshots/${(taken[0] as { id: number }).id}`)
    expect((await mock.control.post(`/teams/${team.id}/snapshots`, {})).status).toBe(201)
  })

  it('refuses with a 422 a team whose rows are more JSON than a string holds (it was a 500), and takes it once they are less', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 2 } })
    const { clients } = mock.store.team(team.id) as Team
    const [first, second] = clients.all()
    // One flat string of 300 million characters, held by two rows: the team's JSON would be twice that.
    const huge = 'x'.repeat(300_000_000)
    clients.update(first!, { reference: huge })
    clients.update(second!, { reference: huge })
    const refused = await mock.control.post(`/teams/${team.id}/snapshots`, {})
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ snapshots: ['The team is too large to snapshot: its rows are more JSON than one string can hold (about 512 MB). Snapshot a smaller team.'] })
    expect((await mock.control.get(`/teams/${team.id}/snapshots`)).body.data).toEqual([])
    clients.update(first!, { reference: null })
    clients.update(second!, { reference: null })
    expect((await mock.control.post(`/teams/${team.id}/snapshots`, {})).status).toBe(201)
  })

  it('answers 404 for an unknown team or snapshot, and for a snapshot of another team', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    const other = await controlTeam(mock)
    const theirs = await snapshot(mock, other.id)
    const expectations: Array<[Promise<{ status: number; body: unknown }>, unknown]> = [
      [mock.control.post('/teams/9999/snapshots', {}), TEAM_NOT_FOUND],
      [mock.control.get('/teams/9999/snapshots'), TEAM_NOT_FOUND],
      [mock.control.delete(`/teams/9999/snapshots/${theirs.id}`), TEAM_NOT_FOUND],
      [mock.control.post('/teams/9999/restore', { snapshot: theirs.id }), TEAM_NOT_FOUND],
      [mock.control.post('/teams/9999/reset'), TEAM_NOT_FOUND],
      [mock.control.delete(`/teams/${team.id}/snapshots/9999`), SNAPSHOT_NOT_FOUND],
      [mock.control.post(`/teams/${team.id}/restore`, { snapshot: 9999 }), SNAPSHOT_NOT_FOUND],
      [mock.control.delete(`/teams/${team.id}/snapshots/${theirs.id}`), SNAPSHOT_NOT_FOUND],
      [mock.control.post(`/teams/${team.id}/restore`, { snapshot: theirs.id }), SNAPSHOT_NOT_FOUND],
    ]
    for (const [request, body] of expectations) {
      const res = await request
      expect(res.status).toBe(404)
      expect(res.body).toEqual(body)
    }
    const invalid = await mock.control.post(`/teams/${team.id}/restore`, {})
    expect(invalid.status).toBe(422)
    expect(invalid.body).toEqual({ snapshot: ['The snapshot field is required.'] })
  })

  it('drops the snapshots of a team that is dropped', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock)
    await snapshot(mock, team.id)
    expect((await mock.control.delete(`/teams/${team.id}`)).status).toBe(204)
    expect(mock.store.data.snapshots.filter((row) => row.team === team.id)).toEqual([])
  })
})

describe('POST /_mock/teams/{id}/reset', () => {
  it('puts a seeded team back as the seed made it', async () => {
    const pristine = createTestMock()
    const seeded = await view(pristine.api(), TEAM_PATHS)

    const mock = createTestMock()
    const api = mock.api()
    await createClient(api, 'Written', 'Later')
    expect((await api.patch('/team', { name: 'Renamed' })).status).toBe(200)
    expect((await api.post('/webhooks', { url: 'https://example.com/hooks', events: ['*'] })).status).toBe(201)
    expect(await view(api, TEAM_PATHS)).not.toEqual(seeded)

    const reset = await mock.control.post('/teams/1/reset')
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ object: 'mock_team_state', team: 1, from: 'seed', snapshot: null, rows: expect.objectContaining({ clients: 50 }), jobs: expect.any(Number) })
    expect(await view(api, TEAM_PATHS)).toEqual(seeded)
  })

  it('puts a team made with POST /_mock/teams back as it was made, and keeps its snapshots', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 15, records: 5, organisations: 2 } })
    const api = team.api()
    const made = await view(api, TEAM_PATHS)
    await createClient(api, 'Written', 'Later')
    const taken = await snapshot(mock, team.id)
    expect((await api.get('/clients')).body.total).toBe(16)

    const reset = await mock.control.post(`/teams/${team.id}/reset`)
    expect(reset.status).toBe(200)
    expect(reset.body).toMatchObject({ object: 'mock_team_state', team: team.id, from: 'creation', snapshot: null })
    expect(await view(api, TEAM_PATHS)).toEqual(made)
    await restore(mock, team.id, taken.id)
    expect((await api.get('/clients')).body.total).toBe(16)
  })
  it('makes a generated team again from how it was made, with the same ids and jobs, while other teams took ids since', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 40, records: 12, organisations: 3, cases: 2 } })
    const made = structuredClone(mock.store.team(team.id)?.state)
    const madeJobs = structuredClone(mock.store.data.jobs.filter((job) => job.team === team.id))
    // What a reset keeps is how the team was made, not a copy of it.
    expect(mock.store.data.baselines.find((baseline) => baseline.team === team.id)).not.toHaveProperty('state')
    await controlTeam(mock, { generate: { clients: 5, records: 2 } })
    await createClient(team.api(), 'Written', 'Later')
    expect((await mock.control.post('/clock/advance', { seconds: 86_400 })).status).toBe(200)

    const reset = await mock.control.post(`/teams/${team.id}/reset`)
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ object: 'mock_team_state', team: team.id, from: 'creation', snapshot: null, rows: expect.objectContaining({ clients: 40 }), jobs: madeJobs.length })
    expect(mock.store.team(team.id)?.state).toEqual(made)
    expect(mock.store.data.jobs.filter((job) => job.team === team.id)).toEqual(madeJobs)
  })

  it('puts a team back from a whole image of it, as data files written before recipes keep it', async () => {
    const mock = createTestMock()
    const team = await controlTeam(mock, { generate: { clients: 10, records: 3 } })
    const api = team.api()
    const made = await view(api, TEAM_PATHS)
    const index = mock.store.data.baselines.findIndex((baseline) => baseline.team === team.id)
    mock.store.data.baselines[index] = captureTeam(mock.store, mock.store.team(team.id) as Team)
    await createClient(api, 'Written', 'Later')

    const reset = await mock.control.post(`/teams/${team.id}/reset`)
    expect(reset.status).toBe(200)
    expect(reset.body).toMatchObject({ object: 'mock_team_state', team: team.id, from: 'creation', rows: expect.objectContaining({ clients: 10 }) })
    expect(await view(api, TEAM_PATHS)).toEqual(made)
  })
})
