// stripe-mock's idea: nothing may be served that the contracts do not describe, and we always
// know how much of the contract is served.
import { describe, expect, it } from 'vitest'
import { SURFACES } from '../../src/contracts/load.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

/** Routes the app serves that are no contract operation: the generated OpenAPI documents of the API and the control API. */
const NON_API_ROUTES = ['GET /openapi.json', 'GET /_mock/openapi.json']

function servedRoutes(): string[] {
  const { app } = createTestMock()
  const routes = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, '{$1}')}`)
  return [...new Set(routes)]
}

describe('operation coverage', () => {
  const served = servedRoutes()
  const routeOf = (op: { method: string; path: string; surface: keyof typeof SURFACES }) => `${op.method} ${SURFACES[op.surface].base}${op.path}`
  const contractRoutes = new Set([...contracts.operations.values()].map(routeOf))
  const apiOperations = [...contracts.operations.values()].filter((op) => op.surface === 'api')

  it('serves nothing under /api/v2 or /_mock that is not a contract operation, and nothing else but the listed extras', () => {
    const undocumented = served.filter((route) => !contractRoutes.has(route) && !NON_API_ROUTES.includes(route))
    expect(undocumented).toEqual([])
  })

  it('reports which contract operations are not served yet', () => {
    const servedSet = new Set(served)
    const missing = apiOperations.filter((op) => !servedSet.has(routeOf(op)))
    const servedCount = apiOperations.length - missing.length
    console.log(
      `contract operations served: ${servedCount} of ${apiOperations.length}; not served yet (${missing.length}): ${missing.map((op) => op.id).join(', ')}`,
    )
    expect(servedCount).toBeGreaterThan(0)
  })

  it('serves every operation of the control API', () => {
    const servedSet = new Set(served)
    const control = [...contracts.operations.values()].filter((op) => op.surface === 'control')
    expect(control.filter((op) => !servedSet.has(routeOf(op))).map((op) => op.id)).toEqual([])
  })
})
