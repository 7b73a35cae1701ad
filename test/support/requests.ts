// Test data made through the API, as a user would: each helper checks that its request worked.
import { expect } from 'vitest'
import type { ApiClient } from './api.ts'

/** Creates an organisation and puts the given clients in it; answers the created organisation. */
export async function createOrganisation(api: ApiClient, body: Record<string, unknown>, clientIds: readonly number[] = []): Promise<any> {
  const res = await api.post('/organisations', body)
  expect(res.status, res.text).toBe(201)
  for (const clientId of clientIds) {
    const joined = await api.post(`/clients/${clientId}/organisations`, [res.body.id])
    expect(joined.status, joined.text).toBe(201)
  }
  return res.body
}

/** Assigns team members (by user id) to a client, organisation or record through its assignees collection. */
export async function assign(api: ApiClient, collection: string, users: readonly number[]): Promise<void> {
  const res = await api.post(collection, users.map((user) => ({ type: 'team_member', team_member: user })))
  expect(res.status, res.text).toBe(201)
}

let clients = 0

/** Creates a client with a name (Ann Lee by default) and an email of its own; answers the created client. */
export async function createClient(api: ApiClient, first = 'Ann', last = 'Lee'): Promise<any> {
  clients += 1
  const res = await api.post('/clients', { name: { first_name: first, last_name: last }, email: `client${clients}@example.com` })
  expect(res.status, res.text).toBe(201)
  return res.body
}
