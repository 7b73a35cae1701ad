// Seeded cases (src/seed/cases.ts): on the teams that have cases, in every status, some archived,
// each holding some of its client's records, with assignees and the reviews that explain its
// status; none on the legacy team. Also through POST /_mock/teams and the case-status aggregate.
import { describe, expect, it } from 'vitest'
import type { CaseStatusJson } from '../../src/contracts/generated.ts'
import { createRandom } from '../../src/kernel/random.ts'
import { seesOnlyAssigned } from '../../src/kernel/roles.ts'
import { addTeam, seedWorld } from '../../src/seed/index.ts'
import { Store, type TeamState } from '../../src/store/world.ts'
import { fixture } from '../support/contracts.ts'
import { createTestMock, TEST_NOW } from '../support/mock.ts'
import { TABLES } from '../../src/tables.ts'

const ORDER: CaseStatusJson[] = ['pending', 'awaiting_response', 'action_required', 'reviewed_pending_decision', 'approved', 'rejected', 'on_hold']

const world = seedWorld(fixture)

function teamOf(key: string): TeamState {
  const entry = fixture.teams.find((team) => team.key === key)
  const state = world.teams.find((team) => team.team.identifier === entry?.identifier)
  if (!state || !entry) throw new Error(`no seeded team ${key}`)
  return state
}

const generated = (key: string) => fixture.teams.find((team) => team.key === key)?.generate.cases
const duplicates = (values: number[]) => values.filter((value, index) => values.indexOf(value) !== index)

/** Every rule a team's seeded cases keep, asserted case by case. */
function expectConsistent(state: TeamState, epoch: string) {
  const member = (user: number) => state.members.find((row) => row.user === user)
  for (const row of state.cases) {
    const where = `case ${row.id}`
    const client = state.clients.find((candidate) => candidate.id === row.client)
    expect(client, where).toBeDefined()
    // Items: records of the case's client, each once, added after the case and the record were made.
    expect(duplicates(row.items.map((item) => item.record)), where).toEqual([])
    for (const item of row.items) {
      const record = state.records.find((candidate) => candidate.id === item.record)
      expect(record?.client, `${where} item ${item.id}`).toBe(row.client)
      expect(item.created_at >= row.created_at && item.created_at >= (record?.created_at ?? '') && item.created_at <= epoch, `${where} item ${item.id}`).toBe(true)
    }
    // Reviews: a chain from the status the case started with to the one it has now.
    const reviews = state.case_reviews.filter((review) => review.case === row.id)
    expect(reviews.map((review) => review.created_at), where).toEqual(reviews.map((review) => review.created_at).sort())
    let status: CaseStatusJson = row.status === 'pending' ? 'pending' : 'action_required'
    for (const review of reviews) {
      expect(review.from_status, where).toBe(status)
      expect(review.status, where).not.toBe(review.from_status)
      expect(review.status, where).not.toBe('pending')
      expect(['owner', 'member'], where).toContain(member(review.reviewed_by)?.role)
      expect(review.created_at >= row.created_at && review.updated_at === review.created_at, where).toBe(true)
      status = review.status
    }
    expect(status, where).toBe(row.status)
    expect(row.status_changed_at, where).toBe(reviews.at(-1)?.created_at ?? row.created_at)
    if (row.status === 'pending') expect(reviews, where).toEqual([])
    // Times: created, then the status, archive and last update, all before the epoch.
    expect(row.created_at <= row.status_changed_at && row.status_changed_at <= row.updated_at && row.updated_at <= epoch, where).toBe(true)
    if (row.archived_at !== null) expect(row.archived_at >= row.status_changed_at && row.archived_at === row.updated_at, where).toBe(true)
    // Assignees: people who are in the team (not support), each once.
    expect(duplicates(row.assignees.map((assignee) => assignee.user)), where).toEqual([])
    for (const assignee of row.assignees) expect(member(assignee.user)?.role, where).not.toBe('assumed')
    expect(row.assignees.every((assignee) => member(assignee.user) !== undefined), where).toBe(true)
    expect(row.created_by !== null && member(row.created_by) !== undefined, where).toBe(true)
  }
}

describe('seeded cases', () => {
  it.each([['acme'], ['globex']])('%s has the generated number of cases, consistent with their clients, records and reviews', (key) => {
    const state = teamOf(key)
    expect(state.cases).toHaveLength(generated(key) as number)
    expectConsistent(state, fixture.epoch)
  })

  it('has every case status on Acme, pending only once (deprecated), and some archived and some active', () => {
    const state = teamOf('acme')
    const statuses = state.cases.map((row) => row.status)
    expect(new Set(statuses)).toEqual(new Set(ORDER))
    expect(statuses.filter((status) => status === 'pending')).toHaveLength(1)
    expect(state.cases.some((row) => row.archived_at !== null)).toBe(true)
    expect(state.cases.some((row) => row.archived_at === null)).toBe(true)
  })

  it('has cases with items, reviews and assignees, and some without assignees', () => {
    for (const key of ['acme', 'globex']) {
      const state = teamOf(key)
      expect(state.cases.every((row) => row.items.length > 0 || row.status === 'action_required'), key).toBe(true)
      expect(state.case_reviews.length, key).toBeGreaterThan(state.cases.length / 2)
      expect(state.cases.some((row) => row.assignees.length > 0), key).toBe(true)
      expect(state.cases.some((row) => row.assignees.length === 0), key).toBe(true)
    }
  })

  it('assigns every assigned-only member to some active cases', () => {
    for (const key of ['acme', 'globex']) {
      const state = teamOf(key)
      const assignedOnly = state.members.filter((member) => member.role !== null && seesOnlyAssigned(member.role))
      expect(assignedOnly.length, key).toBeGreaterThan(0)
      for (const member of assignedOnly) {
        const theirs = state.cases.filter((row) => row.assignees.some((assignee) => assignee.user === member.user))
        expect(theirs.filter((row) => row.archived_at === null).length, key).toBeGreaterThanOrEqual(2)
        expect(theirs.length, key).toBeLessThan(state.cases.length)
      }
    }
  })

  it('gives the legacy team no cases', () => {
    const state = teamOf('initech')
    expect(state.team.cases_enabled).toBe(false)
    expect(state.cases).toEqual([])
    expect(state.case_reviews).toEqual([])
  })

  it('gives unique ids across teams, with the sequences ahead of them', () => {
    const cases = world.teams.flatMap((team) => team.cases)
    const max = (values: number[]) => Math.max(0, ...values)
    expect(duplicates(cases.map((row) => row.id))).toEqual([])
    expect(duplicates(cases.flatMap((row) => row.items.map((item) => item.id)))).toEqual([])
    expect(duplicates(world.teams.flatMap((team) => team.case_reviews.map((review) => review.id)))).toEqual([])
    const assignees = world.teams.flatMap((team) => [...team.clients, ...team.organisations, ...team.records, ...team.cases].flatMap((row) => row.assignees.map((a) => a.id)))
    expect(duplicates(assignees)).toEqual([])
    // Ids follow creation time, as in a real database.
    for (const team of world.teams) expect(team.cases.map((row) => row.created_at)).toEqual(team.cases.map((row) => row.created_at).sort())
    expect(world.sequences.case).toBe(max(cases.map((row) => row.id)))
    expect(world.sequences.case_item).toBe(max(cases.flatMap((row) => row.items.map((item) => item.id))))
    expect(world.sequences.case_review).toBe(max(world.teams.flatMap((team) => team.case_reviews.map((review) => review.id))))
    expect(world.sequences.assignee).toBe(max(assignees))
  })

  it('counts the seeded cases through GET /aggregates/case-status, for the owner and for the assigned-only member', async () => {
    const mock = createTestMock()
    const acme = [...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')
    const rows = acme?.cases.all() ?? []
    const counts = (selected: readonly { status: CaseStatusJson }[]) => ORDER.map((status) => ({ status, count: selected.filter((row) => row.status === status).length }))
    const owner = await mock.api('ivs_acme_owner').get('/aggregates/case-status')
    expect(owner.status).toBe(200)
    expect(owner.body).toEqual({ object: 'case_status_aggregate', aggregates: counts(rows) })
    const aisha = mock.store.userByEmail('aisha.rahman@acme-recruitment.example')
    const hers = rows.filter((row) => row.assignees.some((assignee) => assignee.user === aisha?.id))
    const assigned = await mock.api('ivs_acme_assigned').get('/aggregates/case-status')
    expect(assigned.body).toEqual({ object: 'case_status_aggregate', aggregates: counts(hers) })
    expect(hers.length).toBeGreaterThan(0)
  })
})

describe('generated cases on a new team', () => {
  const fresh = () => new Store(structuredClone(world), TABLES)

  it('generates the cases it is asked for, consistent like the seeded ones', () => {
    const added = addTeam(fresh(), createRandom(7), TEST_NOW, { generate: { clients: 20, members: 2, records: 15, cases: 12 } })
    expect(added.team.cases.size).toBe(12)
    expectConsistent(added.team.state, new Date(TEST_NOW).toISOString().replace('.000Z', 'Z'))
    expect(added.team.cases.all().some((row) => row.assignees.some((assignee) => assignee.user === added.users['assigned-only'].id))).toBe(true)
  })

  it('generates no cases on a team without them, nor without records to hold', () => {
    expect(addTeam(fresh(), createRandom(7), TEST_NOW, { casesEnabled: false, generate: { clients: 10, records: 10, cases: 5 } }).team.cases.size).toBe(0)
    expect(addTeam(fresh(), createRandom(7), TEST_NOW, { generate: { clients: 10, cases: 5 } }).team.cases.size).toBe(0)
  })

  it('takes generate.cases on POST /_mock/teams', async () => {
    const mock = createTestMock()
    const res = await mock.control.post('/teams', { generate: { clients: 10, records: 8, cases: 6 } })
    expect(res.status, res.text).toBe(201)
    const team = mock.store.team(res.body.team.id)
    expect(team?.cases.size).toBe(6)
    const aggregate = await mock.api(res.body.tokens.owner).get('/aggregates/case-status')
    expect(aggregate.body.aggregates.reduce((sum: number, entry: { count: number }) => sum + entry.count, 0)).toBe(6)
  })
})
