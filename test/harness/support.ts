// A target for the runner's tests: the in-process test mock on a real socket on 127.0.0.1,
// optionally behind a wrapper that changes requests or answers (a small wrong server).
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createTestMock, type TestMock } from '../support/mock.ts'

/** Every seeded role of Acme, and the owners of a second team and of a team without cases. */
export const SEEDED_TOKENS = {
  owner: 'ivs_acme_owner',
  member: 'ivs_acme_member',
  'read-only': 'ivs_acme_readonly',
  'assigned-only': 'ivs_acme_assigned',
  assumed: 'ivs_acme_support',
  'other-team': 'ivs_globex_owner',
  legacy: 'ivs_initech_owner',
}

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url))

export interface Target {
  mock: TestMock
  /** http://127.0.0.1:<port>/api/v2 */
  base: string
  close(): Promise<void>
}

/** Rewrites one exchange: gets the request and the mock's fetch, answers what the target answers. */
export type Wrapper = (request: Request, mockFetch: (request: Request) => Promise<Response>) => Promise<Response>

export async function startTarget(wrapper?: Wrapper): Promise<Target> {
  const mock = createTestMock()
  const mockFetch = async (request: Request) => mock.app.fetch(request)
  const server = serve({ fetch: (request: Request) => (wrapper ? wrapper(request, mockFetch) : mockFetch(request)), port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    mock,
    base: `http://127.0.0.1:${port}/api/v2`,
    // Its uploads folder goes with it: the tests leave nothing in the temp dir.
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => mock.services.blobs.dispose()),
  }
}

/** A copy of an answer with another status, headers or JSON body. */
export async function reanswer(response: Response, change: { status?: number; headers?: Record<string, string>; body?: (body: any) => unknown }): Promise<Response> {
  const headers = new Headers(response.headers)
  for (const [name, value] of Object.entries(change.headers ?? {})) headers.set(name, value)
  const text = await response.text()
  const body = change.body ? JSON.stringify(change.body(JSON.parse(text))) : text
  headers.delete('content-length')
  return new Response(change.status === 204 ? null : body, { status: change.status ?? response.status, headers })
}
