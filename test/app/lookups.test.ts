// One sweep over every served API operation with a path id, instead of the same lookups copied per
// resource: an unknown id is a 404 with the body docs/specification-notes.md
// "Status codes and bodies" gives for what the path names, and so is
// another team's id (ids are unique across teams); a non-numeric id matches no route (404 Not
// Found.); without a token every one is a 401 before anything is looked up. The test client checks
// each answer against its contract too.
import { beforeAll, describe, expect, it } from 'vitest'
import type { OperationContract } from '../../src/contracts/load.ts'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import { contracts } from '../support/contracts.ts'
import type { Team } from '../../src/store/world.ts'
import { createTestMock } from '../support/mock.ts'
import { servedOperations } from '../support/served.ts'

const UNKNOWN_ID = 987_654_321

/** The body of an unknown id, by the path's first segment: "<Resource> not found" (docs/specification-notes.md "Status codes and bodies"). */
const NOT_FOUND_BY_SEGMENT: Record<string, object> = {
  attachments: { error: 'Attachment not found' },
  cases: { error: 'Case not found' },
  checks: { error: 'Check not found' },
  clients: { error: 'Client not found' },
  'form-templates': { error: 'Form template not found' },
  organisations: { error: 'Organisation not found' },
  records: { error: 'Record not found' },
  webhooks: { error: 'Webhook not found' },
}

/** Where docs/specification-notes.md "Wire details" gives another answer than the segment's. */
const NOT_FOUND_EXCEPTIONS: Record<string, { status: number; body: object }> = {
  // The case's reviews and items say it with a full stop (docs/specification-notes.md "Wire details").
  'cases.reviews.list': { status: 404, body: { error: 'Case not found.' } },
  'cases.reviews.create': { status: 404, body: { error: 'Case not found.' } },
  'cases.items.list': { status: 404, body: { error: 'Case not found.' } },
  'cases.items.update': { status: 404, body: { error: 'Case not found.' } },
  'cases.items.delete': { status: 404, body: { error: 'Case not found.' } },
  // A correction's update answers with a message body (docs/specification-notes.md "Wire details").
  'clients.corrections.update': { status: 404, body: { message: 'Client not found' } },
  // The download is a file route: an unknown record is no route at all.
  'records.download': { status: 404, body: { error: 'Not Found.' } },
  // A token is scoped to one team: naming another team id is forbidden before any lookup.
  'teams.members.list': { status: 403, body: { message: 'This action is unauthorized.' } },
  'teams.members.get': { status: 403, body: { message: 'This action is unauthorized.' } },
}

const mock = createTestMock()
const withPathIds = servedOperations(mock.app).filter((op) => op.surface === 'api' && op.pathParams.length > 0)
const integerParams = (op: OperationContract) => op.pathParams.filter((name) => contracts.parameters[name]?.type === 'integer')

/** Roles refused before any lookup, by segment: an assigned-only member manages no webhook (webhooks/service.ts). */
const REFUSED_FIRST: Record<string, readonly Role[]> = { webhooks: ['assigned-only'] }
const FORBIDDEN = { status: 403, body: { message: 'This action is unauthorized.' } }

/** A row of the seeded team (not the caller's) named by the path's first segment. */
const FOREIGN_BY_SEGMENT: Record<string, (team: Team) => string | undefined> = {
  attachments: (team) => team.attachments.all()[0]?.id.toString(),
  cases: (team) => team.cases.all()[0]?.id.toString(),
  checks: (team) => team.checks.all()[0]?.id.toString(),
  clients: (team) => team.clients.all()[0]?.id.toString(),
  'form-templates': (team) => team.formTemplates.all()[0]?.reference,
  organisations: (team) => team.organisations.all()[0]?.id.toString(),
  records: (team) => team.records.all()[0]?.id.toString(),
  webhooks: (team) => team.webhooks.all()[0]?.id.toString(),
  teams: (team) => team.id.toString(),
}

/** The operation's path with every parameter filled: integers by `id`, strings by an unknown reference. */
function pathOf(op: OperationContract, id: string): string {
  return op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => (contracts.parameters[name]?.type === 'integer' ? id : 'unknown-reference'))
}

/** What an unknown id answers: the exception, or the segment's not-found body. */
function unknownIdAnswer(op: OperationContract): { status: number; body: object } {
  const exception = NOT_FOUND_EXCEPTIONS[op.id]
  if (exception) return exception
  const segment = op.path.split('/')[1] as string
  const body = NOT_FOUND_BY_SEGMENT[segment]
  if (!body) throw new Error(`lookups: no not-found body for ${op.id} (add its segment to NOT_FOUND_BY_SEGMENT)`)
  return { status: 404, body }
}

describe('path ids of every served API operation', () => {
  const seeded = mock.store.allTeams().next().value as Team

  beforeAll(async () => {
    // The seeded world has no webhook: the seeded team gets one (disabled, so nothing is sent), so there is a row to name.
    const created = await mock.api().post('/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['client.*'], is_enabled: false })
    expect(created.status).toBe(201)
  })

  it('covers operations of every resource with a path id', () => {
    expect(withPathIds.length).toBeGreaterThan(50)
    expect(new Set(withPathIds.map((op) => op.path.split('/')[1])).size).toBe(Object.keys(NOT_FOUND_BY_SEGMENT).length + 1)
  })

  it.each(withPathIds.map((op) => [op.id, op] as const))('%s: an unknown id answers its not-found body', async (_, op) => {
    const expected = unknownIdAnswer(op)
    for (const id of [0, UNKNOWN_ID]) {
      const res = await mock.api().request(op.method, pathOf(op, String(id)), op.body ? { body: {} } : {})
      expect(res.status, `${id}: ${res.text}`).toBe(expected.status)
      expect(res.body).toEqual(expected.body)
    }
  })

  it.each(withPathIds.map((op) => [op.id, op] as const))("%s: another team's id answers as an unknown one", async (_, op) => {
    const segment = op.path.split('/')[1] as string
    const foreign = FOREIGN_BY_SEGMENT[segment]?.(seeded)
    if (foreign === undefined) throw new Error(`lookups: no row of the seeded team for ${op.id}`)
    const first = op.pathParams[0] as string
    const path = pathOf(op, String(UNKNOWN_ID)).replace(pathOf({ ...op, path: `/${segment}/{${first}}` }, String(UNKNOWN_ID)), `/${segment}/${foreign}`)
    const expected = unknownIdAnswer(op)
    const mark = mock.events.length
    const other = mock.newTeam()
    // Every role of a fresh team, and the owner of another seeded team.
    const callers = [...ROLES.map((role) => ({ role, api: other.api(role) })), { role: 'owner' as const, api: mock.api('ivs_globex_owner') }]
    for (const { role, api } of callers) {
      const answer = REFUSED_FIRST[segment]?.includes(role) ? FORBIDDEN : expected
      const res = await api.request(op.method, path, op.body ? { body: {} } : {})
      expect(res.status, `${role} ${path}: ${res.text}`).toBe(answer.status)
      expect(res.body).toEqual(answer.body)
    }
    expect(mock.events.slice(mark)).toEqual([])
  })

  it.each(withPathIds.filter((op) => integerParams(op).length > 0).map((op) => [op.id, op] as const))(
    '%s: a non-numeric id matches no route (404 Not Found.)',
    async (_, op) => {
      for (const id of ['abc', '1.5', '-1']) {
        const res = await mock.api().request(op.method, pathOf(op, id), op.body ? { body: {} } : {})
        expect(res.status, `${id}: ${res.text}`).toBe(404)
        expect(res.body).toEqual({ error: 'Not Found.' })
        expect(res.operation).toBeUndefined()
      }
    },
  )

  it.each(withPathIds.map((op) => [op.id, op] as const))('%s: without a token or with an unknown one, 401 before any lookup', async (_, op) => {
    for (const token of [undefined, 'ivs_not_a_token']) {
      const res = await mock.api().as(token).request(op.method, pathOf(op, String(UNKNOWN_ID)), op.body ? { body: {} } : {})
      expect(res.status, res.text).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    }
  })
})
