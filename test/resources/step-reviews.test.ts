// Reviews of a record's steps (docs/specification-notes.md "Step reviews and record documents",
// docs/specification-notes.md "Status codes and bodies"): GET and POST /records/{recordId}/steps/{stepId}/reviews.
import { describe, expect, it } from 'vitest'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import type { RecordRow } from '../../src/resources/records/index.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { assign } from '../support/requests.ts'
import { giveRecord } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'

const MINUTE = 60_000
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const RECORD_NOT_FOUND = { error: 'Record not found' }
const STEP_NOT_FOUND = { error: 'Record step not found' }
const MESSAGE_REQUIRED = { message: ['The message field is required when status is rejected.'] }

type NewTeam = ReturnType<TestMock['newTeam']>

/** A fresh mock and team, a client, and a record with a check step and a document request step. */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const record = await newRecord(mock, team, api)
  return { mock, team, api, record, check: record.steps[0]!.id, document: record.steps[1]!.id }
}

async function newRecord(mock: TestMock, team: NewTeam, api: ApiClient): Promise<RecordRow> {
  const res = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
  expect(res.status, res.text).toBe(201)
  return giveRecord(mock, team.team, res.body.id, {
    steps: [
      { type: 'check.identity', check: { status: 'submitted' } },
      { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip' } },
    ],
  })
}

const reviews = (record: RecordRow, step: number) => `/records/${record.id}/steps/${step}/reviews`

/** The review id the next review gets (one sequence for the whole service). */
const nextReviewId = (mock: TestMock) => (mock.store.data.sequences.step_review ?? 0) + 1

function review(id: number, reviewedBy: unknown, status: string, fromStatus: string, message: string | null, time = NOW) {
  return { object: 'step_review', id, reviewed_by: reviewedBy, status, from_status: fromStatus, message, created_at: time, updated_at: time }
}

/** The wire team member of a role of the team. */
const teamMember = (team: NewTeam, role: Role, shownRole: Role | null = role) => ({
  object: 'team_member',
  id: team.users[role].id,
  name: team.users[role].name,
  email: team.users[role].email,
  role: shownRole,
})

function snapshot(mock: TestMock) {
  return { data: structuredClone(mock.store.data), events: mock.events.length }
}

function expectUnchanged(mock: TestMock, before: ReturnType<typeof snapshot>) {
  expect(mock.store.data).toEqual(before.data)
  expect(mock.events).toHaveLength(before.events)
}

/** Creates a review through the API and answers its body. */
async function post(api: ApiClient, path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body)
  expect(res.status, res.text).toBe(201)
  return res.body
}

describe('POST /records/{recordId}/steps/{stepId}/reviews', () => {
  it('answers 201 with the review: the caller as reviewed_by, from_status pending on a first review, message null when none is given', async () => {
    const { mock, team, api, record, check } = await setup()
    const id = nextReviewId(mock)
    const res = await api.post(reviews(record, check), { status: 'approved' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(review(id, team.users.owner.id, 'approved', 'pending', null))
  })

  it("makes it the step's review, moves the record's updated_at and publishes record.updated", async () => {
    const { mock, team, api, record, check } = await setup()
    mock.clock.advance(5 * MINUTE)
    const before = mock.events.length
    const body = await post(api, reviews(record, check), { status: 'rejected', message: 'The photo is blurred' })
    expect(body).toEqual(review(body.id, team.users.owner.id, 'rejected', 'pending', 'The photo is blurred', at(5)))
    const stored = team.team.records.get(record.id) as RecordRow
    expect(stored.steps.map((step) => step.review)).toEqual([body.id, null])
    expect(stored.updated_at).toBe(at(5))
    expect(mock.events.slice(before)).toEqual([{ type: 'record.updated', teamId: team.team.id, occurredAt: at(5), subjects: { record: record.id, client: record.client } }])
    expect(team.team.stepReviews.get(body.id)).toEqual({
      id: body.id,
      record: record.id,
      step: check,
      reviewed_by: team.users.owner.id,
      status: 'rejected',
      from_status: 'pending',
      message: 'The photo is blurred',
      created_at: at(5),
      updated_at: at(5),
    })
  })

  it('stores the previous review status as from_status: any status may follow any other, the same one included', async () => {
    const { mock, team, api, record, check } = await setup()
    const owner = team.users.owner.id
    const steps: Array<[string, string, string?]> = [
      ['approved', 'pending'],
      ['rejected', 'approved', 'Wrong person'],
      ['rejected', 'rejected', 'Still wrong'],
      ['pending', 'rejected'],
      ['approved', 'pending', 'Fine now'],
    ]
    for (const [index, [status, from, message]] of steps.entries()) {
      mock.clock.advance(MINUTE)
      const body = await post(api, reviews(record, check), { status, ...(message !== undefined && { message }) })
      expect(body, `review ${index}`).toEqual(review(body.id, owner, status, from, message ?? null, at(index + 1)))
      expect(team.team.records.get(record.id)?.steps[0]?.review).toBe(body.id)
    }
    expect(mock.events.filter((event) => event.type === 'record.updated')).toHaveLength(5)
  })

  it("reviews a step whatever its check's state, and a document step, each step on its own", async () => {
    const { mock, team, api } = await setup()
    const res = await api.post('/clients', { name: { first_name: 'Bo', last_name: 'Chan' }, email: 'bo@example.com' })
    const record = giveRecord(mock, team.team, res.body.id, {
      steps: [
        { type: 'check.identity', check: { status: 'pending' } },
        { type: 'check.watchlist', check: { status: 'paused' } },
        { type: 'check.photo_id', completed_at: NOW, check: { status: 'rejected' } },
        { type: 'document.transfer', preferences: { name: 'Contract', require_return: true } },
        { type: 'form', completed_at: NOW },
      ],
    })
    for (const step of record.steps) {
      const body = await post(api, reviews(record, step.id), { status: 'approved' })
      expect(body.from_status).toBe('pending')
    }
    const second = await post(api, reviews(record, record.steps[2]!.id), { status: 'pending' })
    expect(second.from_status).toBe('approved')
  })

  it('shows the reviewer as a team member with expand=reviewed_by', async () => {
    const { mock, team, record, check } = await setup()
    const id = nextReviewId(mock)
    const res = await team.api('member').post(`${reviews(record, check)}?expand=reviewed_by`, { status: 'approved', message: 'Looks right' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(review(id, teamMember(team, 'member'), 'approved', 'pending', 'Looks right'))
  })

  it('trims the message and takes up to 1000 characters; a blank message is no message', async () => {
    const { api, record, check } = await setup()
    expect((await post(api, reviews(record, check), { status: 'approved', message: '  Fine  ' })).message).toBe('Fine')
    expect((await post(api, reviews(record, check), { status: 'approved', message: '   ' })).message).toBeNull()
    expect((await post(api, reviews(record, check), { status: 'pending', message: null })).message).toBeNull()
    expect((await post(api, reviews(record, check), { status: 'rejected', message: 'x'.repeat(1000) })).message).toBe('x'.repeat(1000))
  })

  describe('422', () => {
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['a rejection without message', { status: 'rejected' }, MESSAGE_REQUIRED],
      ['a rejection with a null message', { status: 'rejected', message: null }, MESSAGE_REQUIRED],
      ['a rejection with a blank message', { status: 'rejected', message: ' \u00a0 ' }, MESSAGE_REQUIRED],
      ['a rejection with an empty message', { status: 'rejected', message: '' }, MESSAGE_REQUIRED],
      ['no status', { message: 'Hello' }, { status: ['The status field is required.'] }],
      ['an empty body', {}, { status: ['The status field is required.'] }],
      ['a null status', { status: null }, { status: ['The selected status is invalid.'] }],
      ['an unknown status', { status: 'accepted' }, { status: ['The selected status is invalid.'] }],
      ['a message of 1001 characters', { status: 'approved', message: 'x'.repeat(1001) }, { message: ['The message field must not be greater than 1000 characters.'] }],
      ['a message that is not a string', { status: 'approved', message: 5 }, { message: ['The message field must be a string.'] }],
      ['an array', [{ status: 'approved' }], { errors: ['The request body must be a JSON object.'] }],
    ]

    it.each(cases)('answers 422 for %s and changes nothing', async (_, body, errors) => {
      const { mock, api, record, check } = await setup()
      const before = snapshot(mock)
      const res = await api.post(reviews(record, check), body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expectUnchanged(mock, before)
    })

    it('answers 422 for malformed JSON and for an expand outside reviewed_by', async () => {
      const { api, record, check } = await setup()
      const malformed = await api.request('POST', reviews(record, check), { raw: '{"status":', headers: { 'Content-Type': 'application/json' } })
      expect(malformed.status).toBe(422)
      expect(malformed.body).toEqual({ errors: ['The request body must be valid JSON.'] })
      const expand = await api.post(`${reviews(record, check)}?expand=check`, { status: 'approved' })
      expect(expand.status).toBe(422)
      expect(expand.body).toEqual({ expand: ['The expand parameter must be one of: reviewed_by'] })
    })
  })

  describe('404', () => {
    it('answers Record not found for an unknown record and for another team’s record, whatever the body', async () => {
      const { mock, record, check } = await setup()
      const other = mock.newTeam()
      const before = snapshot(mock)
      for (const [api, path] of [
        [other.api(), reviews(record, check)],
        [other.api(), `/records/987654321/steps/${check}/reviews`],
      ] as const) {
        for (const body of [{ status: 'approved' }, { status: 'rejected' }]) {
          const res = await api.post(path, body)
          expect(res.status, path).toBe(404)
          expect(res.body).toEqual(RECORD_NOT_FOUND)
        }
      }
      expectUnchanged(mock, before)
    })

    it('answers Record step not found for an unknown step and for a step of another record, before the body', async () => {
      const { mock, team, api, record } = await setup()
      const second = await newRecord(mock, team, api)
      const before = snapshot(mock)
      for (const step of [987_654_321, second.steps[0]!.id]) {
        for (const body of [{ status: 'approved' }, { status: 'rejected' }]) {
          const res = await api.post(reviews(record, step), body)
          expect(res.status).toBe(404)
          expect(res.body).toEqual(STEP_NOT_FOUND)
        }
      }
      expectUnchanged(mock, before)
    })

    it('answers Not Found. for a non-numeric step id', async () => {
      const { api, record } = await setup()
      const res = await api.post(`/records/${record.id}/steps/abc/reviews`, { status: 'approved' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Not Found.' })
    })
  })

  describe('roles', () => {
    it('forbids a read-only member (after the 404s, before the body) and changes nothing', async () => {
      const { mock, team, record, check } = await setup()
      const readOnly = team.api('read-only')
      const before = snapshot(mock)
      for (const body of [{ status: 'approved' }, { status: 'rejected' }, { status: 'bogus' }]) {
        const res = await readOnly.post(reviews(record, check), body)
        expect(res.status).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      expect((await readOnly.post(reviews(record, 987_654_321), { status: 'approved' })).body).toEqual(STEP_NOT_FOUND)
      expect((await readOnly.post(`/records/987654321/steps/${check}/reviews`, { status: 'approved' })).body).toEqual(RECORD_NOT_FOUND)
      expectUnchanged(mock, before)
    })

    it.each(['owner', 'member', 'assumed'] as const)('lets the %s review', async (role) => {
      const { mock, team, record, check } = await setup()
      const id = nextReviewId(mock)
      const res = await team.api(role).post(reviews(record, check), { status: 'approved' })
      expect(res.status).toBe(201)
      expect(res.body).toEqual(review(id, team.users[role].id, 'approved', 'pending', null))
    })

    it('lets an assigned-only member review the steps of a record assigned to them, and forbids the others', async () => {
      const { mock, team, api, record, check } = await setup()
      const mine = team.api('assigned-only')
      const before = snapshot(mock)
      for (const [method, body] of [['GET'], ['POST', { status: 'approved' }]] as const) {
        const res = await mine.request(method, reviews(record, check), { body })
        expect(res.status, method).toBe(403)
        expect(res.body).toEqual(FORBIDDEN)
      }
      const unknown = await mine.get(`/records/987654321/steps/${check}/reviews`)
      expect(unknown.status).toBe(404)
      expect(unknown.body).toEqual(RECORD_NOT_FOUND)
      expectUnchanged(mock, before)
      // Being assigned to the client is not being assigned to the record.
      await assign(api, `/clients/${record.client}/assignees`, [team.users['assigned-only'].id])
      expect((await mine.get(reviews(record, check))).status).toBe(403)
      await assign(api, `/records/${record.id}/assignees`, [team.users['assigned-only'].id])
      const id = nextReviewId(mock)
      const res = await mine.post(reviews(record, check), { status: 'rejected', message: 'No' })
      expect(res.status).toBe(201)
      expect(res.body).toEqual(review(id, team.users['assigned-only'].id, 'rejected', 'pending', 'No'))
      const list = await mine.get(reviews(record, check))
      expect(list.body).toEqual(singlePage([res.body]))
    })

    it('answers 404 to every role of another team', async () => {
      const { mock, record, check } = await setup()
      const other = mock.newTeam()
      for (const role of ROLES) {
        for (const method of ['GET', 'POST']) {
          const res = await other.api(role).request(method, reviews(record, check), { body: method === 'POST' ? { status: 'approved' } : undefined })
          expect(res.status, `${role} ${method}`).toBe(404)
          expect(res.body).toEqual(RECORD_NOT_FOUND)
        }
      }
    })

    it('answers 401 without a token', async () => {
      const { api, record, check } = await setup()
      const res = await api.as(undefined).post(reviews(record, check), { status: 'approved' })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    })
  })
})

describe('GET /records/{recordId}/steps/{stepId}/reviews', () => {
  it('is an empty page for a step never reviewed', async () => {
    const { api, record, check } = await setup()
    const res = await api.get(reviews(record, check))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([]))
  })

  it("lists only this step's reviews, oldest first, to every role of the team", async () => {
    const { mock, team, api, record, check, document } = await setup()
    const first = await post(api, reviews(record, check), { status: 'approved' })
    mock.clock.advance(MINUTE)
    await post(api, reviews(record, document), { status: 'approved' })
    mock.clock.advance(MINUTE)
    const second = await post(team.api('member'), reviews(record, check), { status: 'rejected', message: 'Expired document' })
    const expected = singlePage([first, second])
    expect(second).toEqual(review(second.id, team.users.member.id, 'rejected', 'approved', 'Expired document', at(2)))
    for (const role of ROLES.filter((r) => r !== 'assigned-only')) {
      const res = await team.api(role).get(reviews(record, check))
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(expected)
    }
  })

  it('sorts by created_at or updated_at, ascending by default, ties by id', async () => {
    const { mock, api, record, check } = await setup()
    const a = await post(api, reviews(record, check), { status: 'approved' })
    const b = await post(api, reviews(record, check), { status: 'pending' })
    mock.clock.advance(MINUTE)
    const c = await post(api, reviews(record, check), { status: 'approved' })
    for (const sort_by of ['created_at', 'updated_at']) {
      expect((await api.get(reviews(record, check), { sort_by })).body.data, sort_by).toEqual([a, b, c])
      expect((await api.get(reviews(record, check), { sort_by, order_by: 'desc' })).body.data, sort_by).toEqual([c, b, a])
    }
    expect((await api.get(reviews(record, check), { order_by: 'desc' })).body.data).toEqual([c, b, a])
    const bad = await api.get(reviews(record, check), { sort_by: 'status', order_by: 'up' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ sort_by: ['The selected sort by is invalid.'], order_by: ['The selected order by is invalid.'] })
  })

  it('pages with links that keep the query', async () => {
    const { mock, api, record, check } = await setup()
    const made = []
    for (let index = 0; index < 5; index++) {
      made.push(await post(api, reviews(record, check), { status: index % 2 === 0 ? 'approved' : 'pending' }))
      mock.clock.advance(MINUTE)
    }
    const url = `${ORIGIN}${reviews(record, check)}`
    const res = await api.get(reviews(record, check), { limit: 2, page: 2, expand: 'reviewed_by' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'paginated_list',
      data: made.slice(2, 4).map((row) => ({ ...row, reviewed_by: expect.objectContaining({ object: 'team_member', id: row.reviewed_by }) })),
      total: 5,
      count: 2,
      limit: 2,
      current_page: 2,
      total_pages: 3,
      links: { next: `${url}?limit=2&page=3&expand=reviewed_by`, previous: `${url}?limit=2&page=1&expand=reviewed_by` },
    })
    const past = await api.get(reviews(record, check), { limit: 2, page: 4 })
    expect(past.body).toMatchObject({ data: [], count: 0, current_page: 4, links: { next: null, previous: `${url}?limit=2&page=3` } })
    const bad = await api.get(reviews(record, check), { limit: 101, page: 0 })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ limit: ['The limit field must not be greater than 100.'], page: ['The page field must be at least 1.'] })
  })

  it('expands reviewed_by to team members; a reviewer who has left still shows, with role null', async () => {
    const { team, api, record, check } = await setup()
    const byMember = await post(team.api('member'), reviews(record, check), { status: 'approved' })
    const byOwner = await post(api, reviews(record, check), { status: 'rejected', message: 'No' })
    team.team.updateMember(team.members.member, { role: null })
    const res = await api.get(reviews(record, check), { expand: 'reviewed_by' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      singlePage([
        { ...byMember, reviewed_by: teamMember(team, 'member', null) },
        { ...byOwner, reviewed_by: teamMember(team, 'owner') },
      ]),
    )
    expect((await api.get(reviews(record, check))).body.data.map((row: { reviewed_by: number }) => row.reviewed_by)).toEqual([
      team.users.member.id,
      team.users.owner.id,
    ])
    const bad = await api.get(reviews(record, check), { expand: 'record' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ expand: ['The expand parameter must be one of: reviewed_by'] })
  })

  it('answers the 404s: unknown record, another team’s record, unknown step, a step of another record', async () => {
    const { mock, team, api, record, check } = await setup()
    const second = await newRecord(mock, team, api)
    const other = mock.newTeam()
    const cases: Array<[ApiClient, string, unknown]> = [
      [api, `/records/987654321/steps/${check}/reviews`, RECORD_NOT_FOUND],
      [other.api(), reviews(record, check), RECORD_NOT_FOUND],
      [api, reviews(record, 987_654_321), STEP_NOT_FOUND],
      [api, reviews(record, second.steps[0]!.id), STEP_NOT_FOUND],
      [api, reviews(second, check), STEP_NOT_FOUND],
    ]
    for (const [client, path, body] of cases) {
      const res = await client.get(path)
      expect(res.status, path).toBe(404)
      expect(res.body, path).toEqual(body)
    }
  })
})
