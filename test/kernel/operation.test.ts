// The operation gate as handlers see it: the answer a handler returns is sent with its contract's
// success status, a Binary as its bytes, nothing as the contract's 204; an answer the contract does
// not allow is a programming error, never a silent wrong status. Exercised over app.request() on a
// bare app with a fixed caller, so no resource is needed for the cases no resource serves yet.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { KernelEnv } from '../../src/kernel/env.ts'
import { HttpError } from '../../src/kernel/errors.ts'
import { Routes } from '../../src/kernel/operation.ts'
import { json } from '../../src/kernel/respond.ts'
import { contracts } from '../support/contracts.ts'

interface Caller {
  name: string
}

/** A mini app: every request comes from one caller, errors are rendered as the real app does. */
function appWith(register: (routes: Routes<Caller>) => void) {
  const routes = new Routes<Caller>(contracts, { base: '/api/v2' })
  register(routes)
  const app = new Hono<KernelEnv<Caller>>()
  const failures: string[] = []
  app.use('*', async (c, next) => {
    c.set('principal', { name: 'tester' })
    await next()
  })
  app.route('/api/v2', routes.app)
  app.onError((error, c) => {
    if (error instanceof HttpError) return json(c, error.body, error.status)
    failures.push(error.message)
    return json(c, { message: 'Server Error' }, 500)
  })
  return { app, failures }
}

describe('the answer of a handler', () => {
  it('is sent as bytes with its media type and file name when it is a Binary', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 a record')
    const { app } = appWith((routes) =>
      routes.handle('records.download', ({ params }) => ({ kind: 'binary', type: 'application/pdf', bytes, filename: `record-${params.id}.pdf` })),
    )
    const res = await app.request('/api/v2/records/7/download')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="record-7.pdf"')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  it('takes the success status of its contract: 201 for a create, 204 for nothing', async () => {
    const { app } = appWith((routes) => {
      routes.handle('organisations.create', ({ body }) => ({ object: 'organisation', name: body.name }) as never)
      routes.handle('clients.assignees.add', () => undefined)
    })
    const created = await app.request('/api/v2/organisations', { method: 'POST', body: JSON.stringify({ name: 'Acme Ltd' }) })
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ object: 'organisation', name: 'Acme Ltd' })
    const nothing = await app.request('/api/v2/clients/1/assignees', { method: 'POST', body: JSON.stringify([{ type: 'team_member', team_member: 1 }]) })
    expect(nothing.status).toBe(204)
    expect(await nothing.text()).toBe('')
  })

  it('may be a promise', async () => {
    const { app } = appWith((routes) => routes.handle('status.get', () => Promise.resolve(undefined)))
    expect((await app.request('/api/v2/status')).status).toBe(204)
  })

  it('is a programming error when its contract has no such answer', async () => {
    const { app, failures } = appWith((routes) => {
      routes.handle('me.get', () => undefined as never)
      routes.handle('status.get', () => ({ object: 'unexpected' }) as never)
    })
    expect((await app.request('/api/v2/me')).status).toBe(500)
    expect((await app.request('/api/v2/status')).status).toBe(500)
    expect(failures).toEqual([
      'me.get: the handler answered nothing, but the contract has no 204',
      'status.get: the handler answered a body, but the contract has only a 204',
    ])
  })
})

describe('the input of a handler', () => {
  it('has integer path ids as numbers, the validated query with its defaults, and the base URL the caller used', async () => {
    let seen: unknown
    const { app } = appWith((routes) =>
      routes.handle('organisations.clients.list', ({ params, query, baseUrl, url }) => {
        seen = { params, query, baseUrl, url }
        return { object: 'paginated_list', data: [], total: 0, count: 0, limit: query.limit, current_page: query.page, total_pages: 1, links: null }
      }),
    )
    const res = await app.request('http://127.0.0.1:4010/api/v2/organisations/12/clients?limit=5')
    expect(res.status).toBe(200)
    expect(seen).toEqual({
      params: { id: 12 },
      query: { limit: 5, page: 1 },
      baseUrl: 'http://127.0.0.1:4010/api/v2',
      url: 'http://127.0.0.1:4010/api/v2/organisations/12/clients?limit=5',
    })
  })
})
