// MSW in front of the mock: the app's own fetch calls to http://api.example are intercepted by MSW
// (as in a browser-like test of a frontend), and the catch-all handler forwards each request to the
// mock running in this process. The app gets the stateful mock's real answers: what it creates is
// there on the next call, and its mistakes get the real service's errors.
import { startMock, type Mock, type MockTeam } from 'ivs-mock'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addClient, ApiError, recentClients } from './clients-api.ts'

let mock: Mock
let team: MockTeam

const server = setupServer(http.all('http://api.example/api/v2/*', ({ request }) => mock.fetch(request)))

beforeAll(async () => {
  mock = await startMock({ clock: '2026-06-01T09:00:00Z', freezeClock: true })
  team = await mock.newTeam({ generate: { clients: 8 } })
  server.listen({ onUnhandledRequest: 'error' })
})

beforeEach(async () => {
  await team.reset()
})

afterAll(async () => {
  server.close()
  await mock.close()
})

describe('the clients screen', () => {
  it('shows the newest clients of the team', async () => {
    const clients = await recentClients(team.tokens.owner)
    expect(clients).toHaveLength(5)
    expect(clients[0]).toEqual({ id: expect.any(Number), name: expect.any(String), email: expect.stringContaining('@') })
  })

  it('shows a client just added first', async () => {
    const { id } = await addClient(team.tokens.owner, 'Grace', 'Hopper', 'grace@example.com')
    const [newest] = await recentClients(team.tokens.owner)
    expect(newest).toEqual({ id, name: 'Grace Hopper', email: 'grace@example.com' })
  })

  it("shows the service's validation message for a bad email", async () => {
    const error = await addClient(team.tokens.owner, 'Grace', 'Hopper', 'not-an-email').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 422, body: { email: ['The email field must be a valid email address.'] } })
  })

  it('tells a read-only member they may not add clients', async () => {
    const error = await addClient(team.tokens['read-only'], 'Grace', 'Hopper', 'grace@example.com').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ status: 403, body: { message: 'This action is unauthorized.' } })
  })
})
