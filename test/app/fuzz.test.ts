// Bad input never breaks the mock: seeded random bodies, queries and path ids sent to every served
// operation (API, control API and OAuth endpoints) answer a status their contract lists, with its body (the test
// client checks every response against the contract), and never a 5xx. Seeded and bounded.
import { Faker, en } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import { SURFACES, type OperationContract } from '../../src/contracts/load.ts'
import { ApiClient } from '../support/api.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'
import { servedOperations } from '../support/served.ts'

const REQUESTS_PER_OPERATION = 25

/** A JSON value of any kind, nested at most `depth` deep, with values near the edges validation cares about. */
function anyValue(faker: Faker, depth = 2): unknown {
  const kind = faker.number.int({ min: 0, max: depth > 0 ? 9 : 7 })
  switch (kind) {
    case 0:
      return null
    case 1:
      return faker.datatype.boolean()
    case 2:
      return faker.helpers.arrayElement([0, -1, 1, 2 ** 53, -(2 ** 63), 1.5, 100, 101, 255, 256])
    case 3:
      return faker.helpers.arrayElement(['', ' ', '\u00a0', '\u200b', 'x'.repeat(256), '0@com', 'not-an-email', '2026-02-30', 'GB', 'team_member'])
    case 4:
      return faker.lorem.word()
    case 5:
      return faker.number.int({ min: 1, max: 400 })
    case 6:
      return faker.internet.email()
    case 7:
      return faker.date.anytime().toISOString()
    case 8:
      return Array.from({ length: faker.number.int({ min: 0, max: 3 }) }, () => anyValue(faker, depth - 1))
    default:
      return Object.fromEntries(Array.from({ length: faker.number.int({ min: 0, max: 4 }) }, () => [faker.lorem.word(), anyValue(faker, depth - 1)]))
  }
}

/** A body near the operation's own shape: its properties, or items like {type, team_member}, with random values. */
function bodyFor(faker: Faker, op: OperationContract): unknown {
  if (faker.datatype.boolean(0.2)) return anyValue(faker)
  const schema = JSON.stringify(op.body ?? {})
  const names = [...new Set([...schema.matchAll(/"([a-z_]+)":\s*\{/g)].map((match) => match[1] as string))].filter((name) => !['properties', 'items', 'errorMessage', 'then', 'if'].includes(name))
  const object = Object.fromEntries(faker.helpers.arrayElements(names, { min: 0, max: names.length }).map((name) => [name, anyValue(faker, 1)]))
  return faker.datatype.boolean(0.2) ? [object, anyValue(faker, 1)] : object
}

/** A form-encoded body of random values for some of the fields of the operation's form schema. */
function formFor(faker: Faker, op: OperationContract): string {
  const schemaName = /([\w-]+)\.json$/.exec(String(op.form?.$ref))?.[1] ?? ''
  const properties = contracts.schemas.get(schemaName)?.properties
  const names = typeof properties === 'object' && properties !== null ? Object.keys(properties) : []
  const fields = faker.helpers.arrayElements(names, { min: 0, max: names.length }).map((name) => [name, String(anyValue(faker, 0))])
  return new URLSearchParams(Object.fromEntries(fields) as Record<string, string>).toString()
}

function queryFor(faker: Faker, op: OperationContract): Record<string, string> {
  const names = ['page', 'limit', 'sort_by', 'order_by', 'expand', ...Object.keys(op.query)]
  return Object.fromEntries(faker.helpers.arrayElements(names, { min: 0, max: 3 }).map((name) => [name, String(anyValue(faker, 0))]))
}

/** The path with each id a seeded team's real id, an unknown id, or another team's. */
function pathFor(faker: Faker, op: OperationContract, ids: number[]): string {
  return op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
    contracts.parameters[name]?.type === 'integer' ? String(faker.helpers.arrayElement([...ids, 987_654, 0])) : faker.string.uuid(),
  )
}

describe('seeded random input to every served operation', () => {
  const mock = createTestMock()
  const operations = servedOperations(mock.app).filter((op) => op.id !== 'control.teams.delete')

  it.each(operations.map((op) => [op.id, op] as const))('%s answers its contract, never a 5xx', async (id, op) => {
    const faker = new Faker({ locale: [en], seed: [...id].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) % 2 ** 31 })
    const fresh = createTestMock()
    const team = fresh.newTeam({ generate: { clients: 3, organisations: 2 } })
    const ids = [...team.team.clients.all().map((row) => row.id), ...team.team.organisations.all().map((row) => row.id), team.team.id]
    const client =
      op.surface === 'api'
        ? team.api(faker.helpers.arrayElement(['owner', 'read-only', 'assigned-only'] as const))
        : op.surface === 'control'
          ? fresh.control
          : new ApiClient(fresh.app, undefined, SURFACES.oauth.base)
    for (let sent = 0; sent < REQUESTS_PER_OPERATION; sent++) {
      const hasBody = op.body !== undefined
      const res = await client.request(op.method, pathFor(faker, op, ids), {
        query: queryFor(faker, op),
        ...(hasBody ? { body: bodyFor(faker, op) } : {}),
        ...(op.form ? { raw: formFor(faker, op), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}),
      })
      expect(res.status, `${op.method} ${op.path}: ${res.text}`).toBeLessThan(500)
    }
  })
})
