// stripe-mock's idea: nothing may be served that the contracts do not describe, and we always
// know how much of the contract is served.
import { describe, expect, it } from 'vitest'
import { API_BASE } from '../../src/app.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

/** Routes the app serves outside the API, each for a stated reason. */
const NON_API_ROUTES = ['GET /openapi.json']

function servedRoutes(): string[] {
  const { app } = createTestMock()
  const routes = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, '{$1}')}`)
  return [...new Set(routes)]
}

describe('operation coverage', () => {
  const served = servedRoutes()
  const contractRoutes = new Set([...contracts.operations.values()].map((op) => `${op.method} ${API_BASE}${op.path}`))

  it('serves nothing under /api/v2 that is not a contract operation, and nothing else but the listed extras', () => {
    const undocumented = served.filter((route) => !contractRoutes.has(route) && !NON_API_ROUTES.includes(route))
    expect(undocumented).toEqual([])
  })

  it('reports which contract operations are not served yet', () => {
    const servedSet = new Set(served)
    const missing = [...contracts.operations.values()].filter((op) => !servedSet.has(`${op.method} ${API_BASE}${op.path}`))
    const servedCount = contracts.operations.size - missing.length
    console.log(
      `contract operations served: ${servedCount} of ${contracts.operations.size}; not served yet (${missing.length}): ${missing.map((op) => op.id).join(', ')}`,
    )
    expect(servedCount).toBeGreaterThan(0)
    expect(servedCount + missing.length).toBe(contracts.operations.size)
  })
})
