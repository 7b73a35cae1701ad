// The control API's organisation archive and unarchive (POST /_mock/organisations/{id}/archive and
// /unarchive): the real API has no archive operation (docs/specification-notes.md "Organisations"), and archiving
// removes every client from the organisation (rule 9 of docs/specification-notes.md "Rules of the service").
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW } from '../support/mock.ts'
import { assign, createOrganisation } from '../support/requests.ts'

const MINUTE = 60_000

let emails = 0

async function createClient(api: ApiClient, first: string): Promise<any> {
  emails += 1
  const res = await api.post('/clients', { name: { first_name: first, last_name: 'Lee' }, email: `archive${emails}@example.com` })
  expect(res.status, res.text).toBe(201)
  return res.body
}

async function getOrganisation(api: ApiClient, id: number): Promise<any> {
  const res = await api.get(`/organisations/${id}`)
  expect(res.status, res.text).toBe(200)
  return res.body
}

async function memberships(api: ApiClient, clientId: number): Promise<number[]> {
  const res = await api.get(`/clients/${clientId}/organisations`)
  expect(res.status, res.text).toBe(200)
  return res.body.data.map((organisation: { id: number }) => organisation.id)
}

const membershipEvent = (teamId: number, client: number, occurredAt: string) => ({ type: 'client.organisations', teamId, occurredAt, subjects: { client } })

/** A fresh team with an organisation holding three clients (joined in the order c2, c1, c3), and another organisation holding c1. */
async function world() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const c1 = await createClient(api, 'One')
  const c2 = await createClient(api, 'Two')
  const c3 = await createClient(api, 'Three')
  const organisation = await createOrganisation(api, { name: 'Lee Holdings Ltd', reference: 'ORG-1' }, [c2.id, c1.id, c3.id])
  const other = await createOrganisation(api, { name: 'Other Ltd' }, [c1.id])
  await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id])
  return { mock, team, api, c1: c1.id, c2: c2.id, c3: c3.id, organisation, other }
}

describe('POST /_mock/organisations/{id}/archive', () => {
  it('answers 204 without a token, stamps archived_at and updated_at, and removes every client (rule 9 of docs/specification-notes.md "Rules of the service")', async () => {
    const w = await world()
    w.mock.clock.advance(5 * MINUTE)
    const mark = w.mock.events.length
    expect(w.mock.control.token).toBeUndefined()
    const res = await w.mock.control.post(`/organisations/${w.organisation.id}/archive`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(await getOrganisation(w.api, w.organisation.id)).toEqual({
      ...w.organisation,
      assignees: [w.team.users.member.id],
      clients: null,
      updated_at: at(5),
      archived_at: at(5),
    })
    const clients = await w.api.get(`/organisations/${w.organisation.id}/clients`)
    expect(clients.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
    expect(await memberships(w.api, w.c1)).toEqual([w.other.id])
    expect(await memberships(w.api, w.c2)).toEqual([])
    expect(await memberships(w.api, w.c3)).toEqual([])
    // The other organisation keeps its client.
    expect((await getOrganisation(w.api, w.other.id)).clients).toEqual([w.c1])
    // One client.organisations per client that left, in the order they joined.
    expect(w.mock.events.slice(mark)).toEqual([
      membershipEvent(w.team.team.id, w.c2, at(5)),
      membershipEvent(w.team.team.id, w.c1, at(5)),
      membershipEvent(w.team.team.id, w.c3, at(5)),
    ])
  })

  it('emits nothing when the organisation has no clients', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const organisation = await createOrganisation(team.api(), { name: 'Empty Ltd' })
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await mock.control.post(`/organisations/${organisation.id}/archive`)
    expect(res.status).toBe(204)
    expect(await getOrganisation(team.api(), organisation.id)).toEqual({ ...organisation, updated_at: at(1), archived_at: at(1) })
    expect(mock.events.slice(mark)).toEqual([])
  })

  it('changes nothing when the organisation is archived already', async () => {
    const w = await world()
    w.mock.clock.advance(MINUTE)
    expect((await w.mock.control.post(`/organisations/${w.organisation.id}/archive`)).status).toBe(204)
    const archived = await getOrganisation(w.api, w.organisation.id)
    w.mock.clock.advance(MINUTE)
    const mark = w.mock.events.length
    const again = await w.mock.control.post(`/organisations/${w.organisation.id}/archive`)
    expect(again.status).toBe(204)
    expect(again.text).toBe('')
    expect(await getOrganisation(w.api, w.organisation.id)).toEqual(archived)
    expect(archived.archived_at).toBe(at(1))
    expect(w.mock.events.slice(mark)).toEqual([])
  })

  it('shows the organisation under visibility=archived only, and it can no longer be joined', async () => {
    const w = await world()
    await w.mock.control.post(`/organisations/${w.organisation.id}/archive`)
    const ids = async (visibility: string) =>
      (await w.api.get('/organisations', { visibility })).body.data.map((organisation: { id: number }) => organisation.id)
    expect(await ids('archived')).toEqual([w.organisation.id])
    expect(await ids('active')).toEqual([w.other.id])
    const mark = w.mock.events.length
    for (const method of ['POST', 'PUT']) {
      const res = await w.api.request(method, `/clients/${w.c2}/organisations`, { body: [w.other.id, w.organisation.id] })
      expect(res.status, method).toBe(422)
      expect(res.body).toEqual({ '1': ['The selected 1 is invalid.'] })
    }
    expect(await memberships(w.api, w.c2)).toEqual([])
    const remove = await w.api.delete(`/clients/${w.c2}/organisations/${w.organisation.id}`)
    expect(remove.status).toBe(404)
    expect(remove.body).toEqual({ error: 'Organisation not found' })
    expect(w.mock.events.slice(mark)).toEqual([])
  })

  it("works for a seeded team's organisation", async () => {
    const mock = createTestMock()
    const api = mock.api('ivs_acme_owner')
    const acmeId = (await api.get('/team')).body.id
    const withClients = ((await api.get('/organisations', { limit: 100 })).body.data as any[]).find((organisation) => organisation.clients !== null)
    expect(withClients).toBeDefined()
    const clients = (await api.get(`/organisations/${withClients.id}/clients`, { limit: 100 })).body.data.map((client: { id: number }) => client.id) as number[]
    expect(clients.length).toBeGreaterThan(0)
    mock.clock.advance(MINUTE)
    const res = await mock.control.post(`/organisations/${withClients.id}/archive`)
    expect(res.status).toBe(204)
    expect(await getOrganisation(api, withClients.id)).toEqual({ ...withClients, clients: null, updated_at: at(1), archived_at: at(1) })
    // One client.organisations per client that left (compared in id order: the seeded joining order is not visible).
    const byClient = [...mock.events].sort((a, b) => (a.subjects.client as number) - (b.subjects.client as number))
    expect(byClient).toEqual([...clients].sort((a, b) => a - b).map((client) => membershipEvent(acmeId, client, at(1))))
    for (const client of clients) expect(await memberships(api, client)).not.toContain(withClients.id)
    const archived = await api.get('/organisations', { visibility: 'archived', limit: 100 })
    expect(archived.body.data.map((organisation: { id: number }) => organisation.id)).toContain(withClients.id)
  })

  it("acts on the organisation's own team, whichever team it belongs to", async () => {
    const mock = createTestMock()
    const first = mock.newTeam()
    const second = mock.newTeam()
    const client = await createClient(second.api(), 'Second')
    const mine = await createOrganisation(first.api(), { name: 'First Ltd' })
    const theirs = await createOrganisation(second.api(), { name: 'Second Ltd' }, [client.id])
    const mark = mock.events.length
    expect((await mock.control.post(`/organisations/${theirs.id}/archive`)).status).toBe(204)
    expect(mock.events.slice(mark)).toEqual([membershipEvent(second.team.id, client.id, NOW)])
    expect((await getOrganisation(second.api(), theirs.id)).archived_at).toBe(NOW)
    expect((await getOrganisation(first.api(), mine.id)).archived_at).toBeNull()
  })

  it('answers 404 Organisation not found for an unknown id, and Not Found. for a non-numeric one', async () => {
    const mock = createTestMock()
    const res = await mock.control.post('/organisations/987654321/archive')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Organisation not found' })
    const route = await mock.control.post('/organisations/abc/archive')
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    expect(mock.events).toEqual([])
  })
})

describe('POST /_mock/organisations/{id}/unarchive', () => {
  it('answers 204, clears archived_at and stamps updated_at; the clients it lost do not come back', async () => {
    const w = await world()
    w.mock.clock.advance(MINUTE)
    expect((await w.mock.control.post(`/organisations/${w.organisation.id}/archive`)).status).toBe(204)
    w.mock.clock.advance(MINUTE)
    const mark = w.mock.events.length
    const res = await w.mock.control.post(`/organisations/${w.organisation.id}/unarchive`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(await getOrganisation(w.api, w.organisation.id)).toEqual({
      ...w.organisation,
      assignees: [w.team.users.member.id],
      clients: null,
      updated_at: at(2),
      archived_at: null,
    })
    expect(await memberships(w.api, w.c2)).toEqual([])
    expect(w.mock.events.slice(mark)).toEqual([])
    const ids = (await w.api.get('/organisations', { visibility: 'active' })).body.data.map((organisation: { id: number }) => organisation.id)
    expect(ids).toEqual([w.organisation.id, w.other.id])
    // Active again, it can be joined.
    const join = await w.api.post(`/clients/${w.c2}/organisations`, [w.organisation.id])
    expect(join.status).toBe(201)
    expect(join.body.data).toEqual([{ ...w.organisation, assignees: [w.team.users.member.id], clients: [w.c2], updated_at: at(2) }])
  })

  it('changes nothing when the organisation is not archived', async () => {
    const w = await world()
    w.mock.clock.advance(MINUTE)
    const before = await getOrganisation(w.api, w.organisation.id)
    const mark = w.mock.events.length
    const res = await w.mock.control.post(`/organisations/${w.organisation.id}/unarchive`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(await getOrganisation(w.api, w.organisation.id)).toEqual(before)
    expect(before.updated_at).toBe(NOW)
    expect(w.mock.events.slice(mark)).toEqual([])
  })

  it("works for a seeded team's archived organisation", async () => {
    const mock = createTestMock()
    const api = mock.api('ivs_globex_owner')
    const archived = (await api.get('/organisations', { visibility: 'archived' })).body.data[0]
    expect(archived.archived_at).not.toBeNull()
    const res = await mock.control.post(`/organisations/${archived.id}/unarchive`)
    expect(res.status).toBe(204)
    expect(await getOrganisation(api, archived.id)).toEqual({ ...archived, updated_at: NOW, archived_at: null })
    expect(mock.events).toEqual([])
  })

  it('answers 404 Organisation not found for an unknown id', async () => {
    const mock = createTestMock()
    const res = await mock.control.post('/organisations/987654321/unarchive')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Organisation not found' })
  })
})
