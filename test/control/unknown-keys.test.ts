// Every control-API body names a key it does not take, at the top level as under it: the 422 is
// keyed by the key, as Laravel keys a failing field, never the body-wide "The request body is
// invalid.". The operations come from contracts/control/, so a new control body is covered too.
import { describe, expect, it } from 'vitest'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

const BOGUS = { bogus: ['The bogus field is not allowed.'] }
const ACME = 1

describe('an unknown top-level key in a control-API body', () => {
  it.each([
    ['/clock/advance', { seconds: 60, bogus: 1 }],
    ['/teams', { name: 'Bogus', bogus: 1 }],
    [`/teams/${ACME}/faults`, { operationId: 'clients.get', status: 503, bogus: 1 }],
    [`/teams/${ACME}/snapshots`, { name: 'before', bogus: 1 }],
    ['/oauth/clients', { name: 'ATS', redirect_uris: ['https://ats.example/callback'], bogus: 1 }],
  ])('POST %s names it, and only it, in an otherwise valid body', async (path, body) => {
    const mock = createTestMock()
    const res = await mock.control.post(path, body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(BOGUS)
  })

  const withBodies = [...contracts.operations.values()].filter((op) => op.surface === 'control' && op.body !== undefined)

  it('is covered for every control operation that takes a JSON body', () => {
    expect(withBodies.map((op) => op.id).length).toBeGreaterThanOrEqual(13)
  })

  it.each(withBodies.map((op) => [op.id, op] as const))('%s names it beside what else is wrong', async (_id, op) => {
    const mock = createTestMock()
    const res = await mock.control.request(op.method, op.path.replace(/\{\w+\}/g, String(ACME)), { body: { bogus: 1 } })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject(BOGUS)
    expect(res.body).not.toHaveProperty('errors')
  })
})
