// A test suite as an app's developers would write it, with the whole mock in the test's own process:
// no server to start, no port. Each test starts from the team as newTeam() made it, and the mock's
// clock stands still unless the test moves it, so answers are the same on every run.
import { startMock, type Mock, type MockTeam } from 'ivs-mock'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

let mock: Mock
let team: MockTeam

beforeAll(async () => {
  mock = await startMock({ clock: '2026-06-01T09:00:00Z', freezeClock: true })
  team = await mock.newTeam({ name: 'Onboarding tests', generate: { clients: 20 } })
})

beforeEach(async () => {
  await team.reset()
})

afterAll(async () => {
  await mock.close()
})

/** The code under test: what the app does to onboard a client with an identity check. */
async function onboard(api: (path: string, init?: RequestInit) => Promise<Response>, email: string): Promise<{ client: number; record: number }> {
  const post = async (path: string, body: unknown) => {
    const res = await api(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`)
    return (await res.json()) as { id: number }
  }
  const client = await post('/api/v2/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email })
  const record = await post('/api/v2/records', { client: client.id, steps: [{ type: 'check.identity' }], notification: 'email' })
  return { client: client.id, record: record.id }
}

const api = (path: string, init?: RequestInit) => team.fetch(path, init)

describe('onboarding a client', () => {
  it('creates the client and a record with an identity check', async () => {
    const { client, record } = await onboard(api, 'ada@example.com')
    const res = await api(`/api/v2/records/${record}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ client, status: 'pending', created_at: '2026-06-01T09:00:00Z' })
  })

  it('sees the check result a minute after the client completes the record, on the mock clock', async () => {
    const { record } = await onboard(api, 'ada@example.com')
    // What the client would do in the browser: complete every step (the control API stands in).
    await mock.fetch(`/_mock/records/${record}/complete`, { method: 'POST' })
    expect(await (await api(`/api/v2/records/${record}`)).json()).toMatchObject({ status: 'waiting' })
    await mock.clock.advance(60)
    expect(await (await api(`/api/v2/records/${record}`)).json()).toMatchObject({ status: 'complete', updated_at: '2026-06-01T09:01:00Z' })
  })

  it('starts each test from the team as it was made', async () => {
    const res = await api('/api/v2/clients?limit=1')
    expect((await res.json()) as { total: number }).toMatchObject({ total: 20 })
  })

  it('answers as the real service does when the app gets it wrong', async () => {
    const res = await api('/api/v2/clients', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'no-name@example.com' }) })
    expect(res.status).toBe(422)
    // The journal says which requests broke the contract, and why.
    const [latest] = await mock.journal.entries(team)
    expect(latest).toMatchObject({ method: 'POST', operation: 'clients.create', status: 422 })
  })
})
