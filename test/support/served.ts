// What a mock serves, read from its router: the routes as "METHOD /full/path/{param}", and the
// contract operations among them (the coverage, roles, fuzz and docs tests all ask).
import { SURFACES, type OperationContract } from '../../src/contracts/load.ts'
import { contracts } from './contracts.ts'
import { createTestMock } from './mock.ts'

type App = ReturnType<typeof createTestMock>['app']

/** The route a contract operation is served at: "METHOD /api/v2/clients/{id}". */
export const routeOf = (op: Pick<OperationContract, 'method' | 'path' | 'surface'>): string => `${op.method} ${SURFACES[op.surface].base}${op.path}`

/** Every route the app serves (hono's :name{pattern} written back as {name}, a pattern's own braces included), middleware left out. */
export function servedRoutes(app: App = createTestMock().app): Set<string> {
  return new Set(app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)(\{(?:[^{}]|\{[^{}]*\})*\})?/g, '{$1}')}`))
}

/** The contract operations the app serves, in the contracts' order. */
export function servedOperations(app?: App): OperationContract[] {
  const routes = servedRoutes(app)
  return [...contracts.operations.values()].filter((op) => routes.has(routeOf(op)))
}
