// The code under test: a frontend's module that talks to the IVS API with the global fetch, at the
// address it is configured with. It knows nothing of the mock.
export const API_BASE = 'http://api.example/api/v2'

export interface ClientSummary {
  id: number
  name: string
  email: string
}

/** An answer the app shows as an error message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the API answered ${status}`)
  }
}

async function call<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${API_BASE}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers } })
  const body: unknown = res.status === 204 ? undefined : await res.json()
  if (!res.ok) throw new ApiError(res.status, body)
  return body as T
}

/** The first page of the team's clients, newest first, for the clients screen. */
export async function recentClients(token: string): Promise<ClientSummary[]> {
  const page = await call<{ data: Array<{ id: number; name: { full_name: string }; email: string }> }>(token, '/clients?sort_by=created_at&order_by=desc&limit=5')
  return page.data.map((client) => ({ id: client.id, name: client.name.full_name, email: client.email }))
}

/** The new-client form's submit. */
export function addClient(token: string, firstName: string, lastName: string, email: string): Promise<{ id: number }> {
  return call(token, '/clients', { method: 'POST', body: JSON.stringify({ name: { first_name: firstName, last_name: lastName }, email }) })
}
