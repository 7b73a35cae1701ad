// stripe-mock's idea: nothing may be served that the contracts do not describe, and we always
// know how much of the contract is served.
import { describe, expect, it } from 'vitest'
import { contracts } from '../support/contracts.ts'
import { routeOf, servedRoutes } from '../support/served.ts'

/** Routes the app serves that are no contract operation: the generated OpenAPI documents of the API and the control API. */
const NON_API_ROUTES = ['GET /openapi.json', 'GET /_mock/openapi.json']

/** The pages for people (src/ui/, docs/demo.md "How the pages are built"), HTML and their assets rather than operations: the perform page, the dashboard, the API reference. */
const PAGE_PREFIXES = ['/perform', '/_mock/ui', '/docs']
const isPage = (route: string) => {
  const path = route.slice(route.indexOf(' ') + 1)
  return PAGE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}

describe('operation coverage', () => {
  const served = servedRoutes()
  const contractRoutes = new Set([...contracts.operations.values()].map(routeOf))
  const apiOperations = [...contracts.operations.values()].filter((op) => op.surface === 'api')

  it('serves nothing under /api/v2 or /_mock that is not a contract operation, and nothing else but the listed extras and the pages', () => {
    const undocumented = [...served].filter((route) => !contractRoutes.has(route) && !NON_API_ROUTES.includes(route) && !isPage(route))
    expect(undocumented).toEqual([])
  })

  it('serves every operation of the API', () => {
    expect(apiOperations.filter((op) => !served.has(routeOf(op))).map((op) => op.id)).toEqual([])
  })

  it('serves every operation of the control API', () => {
    const control = [...contracts.operations.values()].filter((op) => op.surface === 'control')
    expect(control.filter((op) => !served.has(routeOf(op))).map((op) => op.id)).toEqual([])
  })
})
