// Records (rules 3, 4 and 7 of docs/specification-notes.md "Rules of the service"; docs/specification-notes.md "Records and steps") and the
// lifecycle engine that moves them on the mock's clock.
import { describe, expect, it } from 'vitest'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { singlePage } from '../support/wire.ts'
import { updateStep } from '../../src/resources/records/index.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const IDENTITY = { type: 'check.identity' }
const WATCHLIST = { type: 'check.watchlist' }
const PERFORM_URL = /^http:\/\/localhost\/perform\/[0-9a-f]{40}$/

type NewTeam = ReturnType<TestMock['newTeam']>

async function teamWithClient(mock: TestMock = createTestMock(), email = 'ann.lee@example.com') {
  const team = mock.newTeam()
  const api = team.api()
  const client = await api.post('/clients', { name: { title: 'ms', first_name: 'Ann', last_name: 'Lee' }, email, reference: 'CL-1' })
  expect(client.status).toBe(201)
  mock.events.length = 0
  return { mock, team, api, client: client.body }
}

async function createRecord(team: NewTeam, body: Record<string, unknown>) {
  const res = await team.api().post('/records', body)
  expect(res.status, res.text).toBe(201)
  return res.body
}

const eventNames = (mock: TestMock) => mock.events.map((event) => event.type)

describe('POST /records', () => {
  it('issues a request to the client with its steps and checks, snapshots of the client, and the default expiry', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const res = await api.post('/records', { client: client.id, steps: [IDENTITY, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip.' } }], notification: 'email', message: 'Hello Ann' })
    expect(res.status, res.text).toBe(201)
    const record = team.team.records.get(res.body.id)
    const [identity, document] = record?.steps ?? []
    expect(res.body).toEqual({
      object: 'record',
      id: record?.id,
      status: 'pending',
      perform_url: expect.stringMatching(PERFORM_URL),
      email: 'ann.lee@example.com',
      client: client.id,
      name: client.name,
      reference: 'CL-1',
      steps: [
        expect.objectContaining({ object: 'step', id: identity?.id, type: 'check.identity', check: identity?.check, completed_at: null, review: null }),
        expect.objectContaining({ object: 'step', id: document?.id, type: 'document.request', completed_at: null, review: null }),
      ],
      has_reminders: false,
      is_declaration_required: false,
      created_at: NOW,
      updated_at: NOW,
      expired_at: at(30 * 24 * 60),
      archived_at: null,
      declaration_confirmed_at: null,
    })
    expect(record?.emails).toEqual([{ kind: 'new_request', sent_at: NOW }])
    expect(eventNames(mock)).toEqual(['record.created', 'client.record'])
    expect(mock.events[1]?.subjects).toEqual({ client: client.id, record: record?.id })
    expect((await api.get(`/records/${res.body.id}`)).body).toEqual(res.body)
  })

  it('keeps the snapshots when the client changes later (docs/specification-notes.md "Records and steps")', async () => {
    const { team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    expect((await api.patch(`/clients/${client.id}`, { email: 'new@example.com', name: { first_name: 'Anne' } })).status).toBe(200)
    const again = (await api.get(`/records/${record.id}`)).body
    expect([again.email, again.name.first_name]).toEqual(['ann.lee@example.com', 'Ann'])
    expect(team.team.records.get(record.id)?.emails).toEqual([])
  })

  it('debits each paid step with a credit entry caused by its check, and refuses a team without enough credits', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const balance = () => team.team.credits.all().reduce((sum, entry) => sum + entry.credits, 0)
    const record = await createRecord(team, { client: client.id, steps: [{ type: 'check.dummy', preferences: { credit_cost: 7 } }, IDENTITY], notification: false })
    const paid = team.team.records.get(record.id)?.steps.filter((step) => step.cost > 0) ?? []
    const debits = team.team.credits.all().filter((entry) => entry.credits < 0)
    expect(debits.map((entry) => ({ credits: entry.credits, causer: entry.causer }))).toEqual(paid.map((step) => ({ credits: -step.cost, causer: { id: step.check, type: 'check' } })))
    expect(debits.map((entry) => entry.credits)).toContain(-7)

    const left = balance()
    const steps = Array.from({ length: Math.floor(left / 100) + 1 }, () => ({ type: 'check.dummy', preferences: { credit_cost: 100 } }))
    const before = { records: team.team.records.size, credits: team.team.credits.size, checks: team.team.checks.size, events: mock.events.length }
    const res = await api.post('/records', { client: client.id, steps, notification: false })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: [`Not enough credits: these steps cost ${steps.length * 100} and the team has ${left}.`] })
    expect({ records: team.team.records.size, credits: team.team.credits.size, checks: team.team.checks.size, events: mock.events.length }).toEqual(before)
  })

  it('creates from a record template: its steps, notification, settings and assignees', async () => {
    const { team, api, client } = await teamWithClient()
    const templates = await api.get('/templates/records')
    expect(templates.status).toBe(200)
    const template = templates.body.data.find((row: { presets: { assignees?: number[] } }) => row.presets.assignees)
    expect(template).toBeDefined()
    const record = await createRecord(team, { client: client.id, template: template.id })
    const row = team.team.records.get(record.id)
    expect(record.steps.map((step: { type: string }) => step.type)).toEqual(template.presets.steps.map((step: { type: string }) => step.type))
    expect(record.has_reminders).toBe(template.presets.reminder)
    expect(row?.notification).toBe(template.presets.notification)
    expect(row?.message).toBe(template.presets.message)
    expect(row?.assignees.map((assignee) => assignee.user)).toEqual(template.presets.assignees)

    const withoutAssignees = await createRecord(team, { client: client.id, template: template.id, assignees: false, reminder: false })
    expect(team.team.records.get(withoutAssignees.id)?.assignees).toEqual([])
    expect(withoutAssignees.has_reminders).toBe(false)
  })

  it.each([
    ['notification with a template', (c: number, t: number) => ({ client: c, template: t, notification: 'email' }), { notification: ['The notification field is prohibited when template is present.'] }],
    ['an unknown template', (c: number) => ({ client: c, template: 987_654 }), { template: ['The selected template is invalid.'] }],
    ['an unknown client', () => ({ client: 987_654, steps: [IDENTITY], notification: false }), { client: ['The selected client is invalid.'] }],
    ['no steps and no template', (c: number) => ({ client: c, notification: false }), { steps: ['The steps field is required.'] }],
    ['steps without notification', (c: number) => ({ client: c, steps: [IDENTITY] }), { notification: ['The notification field is required.'] }],
    ['a message over 5000 characters', (c: number) => ({ client: c, steps: [IDENTITY], notification: false, message: 'x'.repeat(5001) }), { message: ['The message field must not be greater than 5000 characters.'] }],
    [
      'a declaration on a team without the feature',
      (c: number) => ({ client: c, steps: [IDENTITY], notification: false, is_declaration_required: true }),
      { is_declaration_required: ['The custom declaration feature is not enabled for your team.'] },
    ],
  ])('answers 422 for %s, and creates nothing', async (_, body, errors) => {
    const { mock, team, api, client } = await teamWithClient()
    const template = team.team.recordTemplates.all()[0]
    const res = await api.post('/records', body(client.id, template?.id ?? 0))
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect(team.team.records.size).toBe(0)
    expect(mock.events).toEqual([])
  })

  it('requires a declaration only where the team has the feature', async () => {
    const mock = createTestMock()
    const team = mock.newTeam({ declarationEnabled: true })
    const client = await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
    const record = await createRecord(team, { client: client.body.id, steps: [IDENTITY], notification: false, is_declaration_required: true })
    expect(record.is_declaration_required).toBe(true)
  })

  it("does not let another team's client be used", async () => {
    const { api } = await teamWithClient()
    const res = await api.post('/records', { client: 1, steps: [IDENTITY], notification: false })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ client: ['The selected client is invalid.'] })
  })

  it('never deduplicates (rule 7 of docs/specification-notes.md "Rules of the service") and never puts the record in a case (rules 4 and 5)', async () => {
    const { team, client } = await teamWithClient()
    const body = { client: client.id, steps: [IDENTITY], notification: false }
    const [first, second] = [await createRecord(team, body), await createRecord(team, body)]
    expect(first.id).not.toBe(second.id)
    expect(Object.keys(first)).not.toContain('case')
  })
})

describe('POST /records reads JSON as Laravel does (docs/behaviour-notes.md "Validation (422)")', () => {
  it.each(['string', 'string with spaces'])('takes the client id as a %s of digits and stores and returns the integer', async (kind) => {
    const { team, api, client } = await teamWithClient()
    const res = await api.post('/records', { client: kind === 'string' ? String(client.id) : ` ${client.id} `, steps: [IDENTITY], notification: false })
    expect(res.status, res.text).toBe(201)
    expect(res.body.client).toBe(client.id)
    expect(team.team.records.get(res.body.id)?.client).toBe(client.id)
    expect((await api.get(`/records/${res.body.id}`)).body.client).toBe(client.id)
  })

  it.each([
    [1.5, 'The client field must be an integer.'],
    ['1.5', 'The client field must be an integer.'],
    ['1e3', 'The client field must be an integer.'],
    [true, 'The client field must be an integer.'],
    ['', 'The client field is required.'],
  ])('refuses the client id %j: %s', async (value, message) => {
    const { team, api } = await teamWithClient()
    const res = await api.post('/records', { client: value, steps: [IDENTITY], notification: false })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ client: [message] })
    expect(team.team.records.size).toBe(0)
  })

  it.each([
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
  ])('takes the boolean reminder %j and stores it as %j', async (reminder, expected) => {
    const { team, api, client } = await teamWithClient()
    const res = await api.post('/records', { client: client.id, steps: [IDENTITY], notification: false, reminder })
    expect(res.status, res.text).toBe(201)
    expect(res.body.has_reminders).toBe(expected)
    expect(team.team.records.get(res.body.id)?.has_reminders).toBe(expected)
  })

  it('refuses "true" for a boolean', async () => {
    const { api, client } = await teamWithClient()
    const res = await api.post('/records', { client: client.id, steps: [IDENTITY], notification: false, reminder: 'true' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ reminder: ['The reminder field must be true or false.'] })
  })

  it('stores an optional string sent as "" as null', async () => {
    const { team, api, client } = await teamWithClient()
    const res = await api.post('/records', { client: client.id, steps: [IDENTITY], notification: false, message: '' })
    expect(res.status, res.text).toBe(201)
    expect(team.team.records.get(res.body.id)?.message).toBeNull()
  })

  it('answers every failing key in one 422, the unknown client with the invalid step, in the order of the rules', async () => {
    const { team, api } = await teamWithClient()
    const res = await api.post('/records', {
      client: 987_654_321,
      steps: [IDENTITY, { type: 'check.photo_id', preferences: { report_type: 'standard', docs: [] } }, { type: 'document.request', preferences: { template: 987_654_321 } }],
      notification: false,
      reminder: 'yes',
    })
    expect(res.status).toBe(422)
    expect(Object.entries(res.body)).toEqual([
      ['client', ['The selected client is invalid.']],
      ['steps.1.preferences.docs', ['The docs field is required.']],
      ['steps.2.preferences.template', ['The selected template is invalid.']],
      ['reminder', ['The reminder field must be true or false.']],
    ])
    expect(team.team.records.size).toBe(0)
  })

  it('says nothing of the client when its id is not an integer: the exists rule is skipped for a key that failed', async () => {
    const { api } = await teamWithClient()
    const res = await api.post('/records', { client: 'abc', steps: [{ type: 'document.request', preferences: { template: 987_654_321 } }], notification: false })
    expect(res.body).toEqual({ client: ['The client field must be an integer.'], 'steps.0.preferences.template': ['The selected template is invalid.'] })
  })

  it('creates a record from the body a Django client sends: every id and flag a string', async () => {
    const { team, api, client } = await teamWithClient()
    const [documentTemplate] = team.team.documentTemplates.filter((row) => row.is_enabled)
    const res = await api.post('/records', {
      client: String(client.id),
      steps: [
        { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'], face: '1', liveness: '0' } },
        { type: 'document.request', preferences: { template: String(documentTemplate?.id) } },
        { type: 'check.reference', preferences: { years: '3' } },
      ],
      notification: 'email',
      message: '',
      reminder: '1',
    })
    expect(res.status, res.text).toBe(201)
    const record = team.team.records.get(res.body.id)
    expect(res.body).toMatchObject({ client: client.id, has_reminders: true, is_declaration_required: false })
    expect(record?.message).toBeNull()
    expect(record?.steps.map((step) => [step.type, step.preferences])).toEqual([
      ['check.photo_id', expect.objectContaining({ face: true, liveness: false, docs: ['passport'] })],
      ['document.request', { title: documentTemplate?.name, instructions: documentTemplate?.content }],
      ['check.reference', { years: 3 }],
    ])
    const steps = await api.get(`/records/${res.body.id}/steps`)
    expect(steps.status).toBe(200)
    expect(steps.body.data[2].preferences).toEqual({ years: 3 })
  })
})

describe('GET /records and GET /clients/{id}/records', () => {
  it('lists the seeded records of every status', async () => {
    const mock = createTestMock()
    const api = mock.api()
    const all = await api.get('/records', { limit: 100 })
    expect(all.status).toBe(200)
    const statuses = new Set(all.body.data.map((record: { status: string }) => record.status))
    for (const status of ['pending', 'started', 'waiting', 'paused', 'complete', 'incomplete', 'empty', 'reviewed']) expect(statuses, status).toContain(status)
    for (const status of statuses) {
      const filtered = await api.get('/records', { status: status as string, limit: 100 })
      expect(filtered.body.data.length).toBeGreaterThan(0)
      expect(filtered.body.data.every((record: { status: string }) => record.status === status)).toBe(true)
    }
  })

  it('filters by visibility, creator, assignee and client visibility, and sorts', async () => {
    const { team, api, client } = await teamWithClient()
    const other = await api.post('/clients', { name: { first_name: 'Bea', last_name: 'Adams' }, email: 'bea@example.com' })
    const a = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const b = await team.api('member').post('/records', { client: other.body.id, steps: [IDENTITY], notification: false })
    expect(b.status).toBe(201)
    expect((await api.patch(`/records/${a.id}`, { is_archived: true })).status).toBe(200)
    const assigned = team.team.records.get(b.body.id)!
    team.team.records.update(assigned, { assignees: [...assigned.assignees, { id: 1_000_001, user: team.users.member.id, created_at: NOW }] })

    const ids = async (query: Record<string, string | number | boolean>) => (await api.get('/records', query)).body.data.map((record: { id: number }) => record.id)
    expect(await ids({ visibility: 'archived' })).toEqual([a.id])
    expect(await ids({ visibility: 'active' })).toEqual([b.body.id])
    expect(await ids({ created_by: team.users.member.id })).toEqual([b.body.id])
    expect(await ids({ creator: team.users.owner.id })).toEqual([a.id])
    expect(await ids({ assignee: team.users.member.id })).toEqual([b.body.id])
    expect(await ids({ assignee: true })).toEqual([b.body.id])
    expect(await ids({ assignee: false })).toEqual([a.id])
    expect(await ids({ client_visibility: 'active' })).toEqual([a.id, b.body.id])
    expect(await ids({ client_visibility: 'archived' })).toEqual([])
    expect(await ids({ sort_by: 'client.name.first_name' })).toEqual([a.id, b.body.id])
    expect(await ids({ sort_by: 'client.name.last_name' })).toEqual([b.body.id, a.id])
    expect(await ids({ sort_by: 'archived_at', order_by: 'desc' })).toEqual([a.id, b.body.id])
    expect(await ids({ order_by: 'desc' })).toEqual([b.body.id, a.id])

    const expanded = await api.get('/records', { expand: 'client', visibility: 'archived' })
    expect(expanded.body.data[0].client).toEqual((await api.get(`/clients/${client.id}`)).body)
    const bad = await api.get('/records', { status: 'bogus' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ status: ['The selected status is invalid.'] })
  })

  it("lists one client's records, and 404s another team's client", async () => {
    const { team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const res = await api.get(`/clients/${client.id}/records`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([(await api.get(`/records/${record.id}`)).body]))
    const other = await api.get('/clients/1/records')
    expect(other.status).toBe(404)
    expect(other.body).toEqual({ error: 'Client not found' })
  })

  it("answers 404 for another team's record, and 403 to an assigned-only member not assigned to it", async () => {
    const { team, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const res = await createTestMock().api('ivs_globex_owner').get(`/records/${record.id}`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Record not found' })
    const hidden = await team.api('assigned-only').get(`/records/${record.id}`)
    expect(hidden.status).toBe(403)
    expect(hidden.body).toEqual(FORBIDDEN)
    expect((await team.api('assigned-only').get('/records')).body.total).toBe(0)
  })
})

describe('PATCH /records/{id}, archive and expire', () => {
  it('archives and unarchives, with record.updated each time; perform_url is false while archived', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    mock.clock.advance(60_000)
    mock.events.length = 0
    const archived = await api.patch(`/records/${record.id}`, { is_archived: true })
    expect(archived.body).toMatchObject({ archived_at: at(1), updated_at: at(1), perform_url: false, status: 'pending' })
    expect((await api.post(`/records/${record.id}/archive`)).body).toEqual(archived.body)
    const active = await api.patch(`/records/${record.id}`, { is_archived: false })
    expect(active.body).toMatchObject({ archived_at: null, perform_url: expect.stringMatching(PERFORM_URL) })
    expect(eventNames(mock)).toEqual(['record.updated', 'record.updated'])
  })

  it('marks reviewed and unreviewed with record.reviewed / record.unreviewed', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    mock.events.length = 0
    expect((await api.patch(`/records/${record.id}`, { is_reviewed: true })).body.status).toBe('reviewed')
    expect((await api.patch(`/records/${record.id}`, { is_reviewed: true })).body.status).toBe('reviewed')
    expect((await api.patch(`/records/${record.id}`, { is_reviewed: false })).body.status).toBe('pending')
    expect(eventNames(mock)).toEqual(['record.updated', 'record.reviewed', 'record.updated', 'record.unreviewed'])
  })

  it('sets expired_at within 10 days, expires with true, and lifts an expiry with false', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const tooLate = await api.patch(`/records/${record.id}`, { expired_at: at(10 * 24 * 60 + 1) })
    expect(tooLate.status).toBe(422)
    expect(tooLate.body).toEqual({ expired_at: [`The expired at field must be a date before or equal to ${at(10 * 24 * 60)}.`] })
    const past = await api.patch(`/records/${record.id}`, { expired_at: at(-1) })
    expect(past.body).toEqual({ expired_at: [`The expired at field must be a date after or equal to ${NOW}.`] })
    expect((await api.patch(`/records/${record.id}`, { expired_at: at(60) })).body.expired_at).toBe(at(60))
    mock.events.length = 0
    const expired = await api.patch(`/records/${record.id}`, { expired_at: true })
    expect(expired.body).toMatchObject({ expired_at: NOW, status: 'empty', perform_url: false })
    expect(eventNames(mock)).toEqual(['record.updated', 'record.finished'])
    const lifted = await api.patch(`/records/${record.id}`, { expired_at: false })
    expect(lifted.body).toMatchObject({ expired_at: at(30 * 24 * 60), status: 'pending' })
    const empty = await api.patch(`/records/${record.id}`, {})
    expect(empty.status).toBe(422)
    expect(empty.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('answers a bad flag and an expiry out of the window in one 422, and changes nothing', async () => {
    const { team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const res = await api.patch(`/records/${record.id}`, { is_archived: 'yes', expired_at: at(-1), has_reminders: '1' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ is_archived: ['The is archived field must be true or false.'], expired_at: [`The expired at field must be a date after or equal to ${NOW}.`] })
    expect(team.team.records.get(record.id)).toMatchObject({ archived_at: null, has_reminders: false })
  })

  it('expires a record once: a second expire is a 422', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    mock.events.length = 0
    const res = await api.post(`/records/${record.id}/expire`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ expired_at: NOW, status: 'empty', perform_url: false })
    expect(eventNames(mock)).toEqual(['record.updated', 'record.finished'])
    const again = await api.post(`/records/${record.id}/expire`)
    expect(again.status).toBe(422)
    expect(again.body).toEqual({ errors: ['The record has already expired.'] })
  })

  it('refuses read-only members every change', async () => {
    const { team, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const readOnly = team.api('read-only')
    for (const res of [
      await readOnly.patch(`/records/${record.id}`, { is_archived: true }),
      await readOnly.post(`/records/${record.id}/archive`),
      await readOnly.post(`/records/${record.id}/expire`),
      await readOnly.post('/records', { client: client.id, steps: [IDENTITY], notification: false }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
  })
})

describe('the lifecycle on the clock', () => {
  it('goes pending -> waiting -> complete: checks submitted, results after the delay, events in order', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: 'email' })
    mock.events.length = 0
    const completed = await mock.control.post(`/records/${record.id}/complete`, {})
    expect(completed.status, completed.text).toBe(200)
    expect(completed.body).toMatchObject({ id: record.id, status: 'waiting', perform_url: false })
    expect(completed.body.steps.map((step: { completed_at: string }) => step.completed_at)).toEqual([NOW, NOW])
    const checks = record.steps.map((step: { check: number }) => team.team.checks.get(step.check))
    expect(checks.map((check: { status: string }) => check.status)).toEqual(['submitted', 'submitted'])

    const jobs = await mock.control.get(`/records/${record.id}`)
    expect(jobs.body).toEqual({
      object: 'mock_record',
      record: record.id,
      team: team.team.id,
      status: 'waiting',
      emails: [{ kind: 'new_request', to: 'ann.lee@example.com', sent_at: NOW }],
      jobs: [
        { kind: 'check.result', due_at: at(1), check: checks[0].id },
        { kind: 'check.result', due_at: at(1), check: checks[1].id },
        { kind: 'record.expiry', due_at: at(30 * 24 * 60), check: null },
      ],
    })

    const early = await mock.control.post('/clock/advance', { seconds: 59 })
    expect(early.body).toMatchObject({ object: 'mock_clock', jobs_run: 0, now: '2026-07-01T12:00:59Z', frozen: true })
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('waiting')
    const due = await mock.control.post('/clock/advance', { seconds: 1 })
    expect(due.body).toMatchObject({ jobs_run: 2, now: at(1) })
    const done = await api.get(`/records/${record.id}`)
    expect(done.body).toMatchObject({ status: 'complete', updated_at: at(1), perform_url: false })
    expect(checks.map((check: { status: string }) => check.status)).toEqual(['accepted', 'accepted'])
    expect(eventNames(mock)).toEqual(['record.updated', 'record.updated', 'record.updated', 'record.finished'])
  })

  it.each([
    ['consider', 'accepted'],
    ['rejected', 'rejected'],
    ['refer', 'refer'],
    ['failed', 'failed'],
  ] as const)('forces the outcome %s through the control API: the check ends %s', async (outcome, status) => {
    const { mock, team, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: false })
    const [identity, watchlist] = record.steps
    await mock.control.post(`/records/${record.id}/complete`, { outcomes: { [identity.id]: outcome } })
    await mock.control.post('/clock/advance', { seconds: 60 })
    expect(team.team.checks.get(identity.check)?.status).toBe(status)
    expect(team.team.checks.get(watchlist.check)?.status).toBe('accepted')
    expect(team.team.checks.get(identity.check)?.response === null).toBe(outcome === 'failed')
  })

  it('pauses a record when a check is paused', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    await mock.control.post(`/records/${record.id}/complete`, { outcome: 'paused', delay_seconds: 0 })
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('paused')
  })

  it.each([
    ['ann+consider@example.com', ['accepted', 'accepted'], ['consider', 'consider']],
    ['ann+watchlist-rejected@example.com', ['accepted', 'rejected'], ['clear', 'rejected']],
    ['ann+identity-refer+failed@example.com', ['refer', 'failed'], ['refer', 'failed']],
  ])('reads magic outcomes from the client email %s', async (email, statuses, outcomes) => {
    const { mock, team, client } = await teamWithClient(createTestMock(), email)
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: false })
    await mock.control.post(`/records/${record.id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 60 })
    const checks = record.steps.map((step: { check: number }) => team.team.checks.get(step.check))
    expect(checks.map((check: { status: string }) => check.status)).toEqual(statuses)
    expect(checks.map((check: { outcome: string }) => check.outcome)).toEqual(outcomes)
  })

  it('follows a dummy step state, and never returns one in state pending', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [{ type: 'check.dummy', preferences: { state: 'refer' } }, { type: 'check.dummy' }], notification: false })
    await mock.control.post(`/records/${record.id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 3600 })
    const checks = record.steps.map((step: { check: number }) => team.team.checks.get(step.check)?.status)
    expect(checks).toEqual(['refer', 'submitted'])
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('waiting')
  })

  it('records a reminder every 2 days while the record is open, and stops when it completes', async () => {
    const { mock, team, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: 'email', reminder: true })
    await mock.control.post('/clock/advance', { seconds: 5 * 86_400 })
    const row = team.team.records.get(record.id)
    expect(row?.emails).toEqual([
      { kind: 'new_request', sent_at: NOW },
      { kind: 'reminder', sent_at: at(2 * 24 * 60) },
      { kind: 'reminder', sent_at: at(4 * 24 * 60) },
    ])
    await mock.control.post(`/records/${record.id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 10 * 86_400 })
    expect(row?.emails).toHaveLength(3)
  })

  it('turns a record with steps left incomplete or empty at expiry, with record.finished', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const started = await createRecord(team, { client: client.id, steps: [IDENTITY, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Latest.' } }], notification: false })
    const untouched = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const row = team.team.records.get(started.id)
    if (row?.steps[0]) updateStep(mock.teamContext(team.team), row, row.steps[0], { completed_at: NOW })
    mock.events.length = 0
    await mock.control.post('/clock/advance', { seconds: 30 * 86_400 })
    expect((await api.get(`/records/${started.id}`)).body).toMatchObject({ status: 'incomplete', perform_url: false })
    expect((await api.get(`/records/${untouched.id}`)).body).toMatchObject({ status: 'empty', perform_url: false })
    expect(mock.events.map((event) => [event.type, event.subjects.record])).toEqual([
      ['record.finished', started.id],
      ['record.finished', untouched.id],
    ])
  })

  it('refuses to complete a record that is archived, expired or done', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    await api.patch(`/records/${record.id}`, { is_archived: true })
    const archived = await mock.control.post(`/records/${record.id}/complete`, {})
    expect(archived.status).toBe(422)
    expect(archived.body).toEqual({ errors: ['The record is archived: its client can no longer complete steps.'] })
    await api.patch(`/records/${record.id}`, { is_archived: false })
    expect((await mock.control.post(`/records/${record.id}/complete`, {})).status).toBe(200)
    const done = await mock.control.post(`/records/${record.id}/complete`, {})
    expect(done.body).toEqual({ errors: ['Every step of the record is already complete.'] })
    const missing = await mock.control.post('/records/987654/complete', {})
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'Record not found' })
    const stranger = await mock.control.post(`/records/${record.id}/complete`, { outcomes: { 987654: 'consider' } })
    expect(stranger.status).toBe(422)
    expect(stranger.body).toEqual({ 'outcomes.987654': [`Step 987654 is not a step of record ${record.id}.`] })
    const bad = await mock.control.post(`/records/${record.id}/complete`, { outcome: 'maybe' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ outcome: ['The selected outcome is invalid.'] })
  })
})

describe('POST /_mock/records/{id}/steps/{stepId}/complete', () => {
  it('completes one step: its check is submitted with the outcome and delay asked for, the other steps wait', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: false })
    const [identity, watchlist] = record.steps
    mock.events.length = 0
    const res = await mock.control.post(`/records/${record.id}/steps/${identity.id}/complete`, { outcome: 'consider', delay_seconds: 30 })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual((await api.get(`/records/${record.id}`)).body)
    expect(res.body).toMatchObject({ id: record.id, status: 'waiting', updated_at: NOW, perform_url: expect.stringMatching(PERFORM_URL) })
    expect(res.body.steps.map((step: { completed_at: string | null }) => step.completed_at)).toEqual([NOW, null])
    expect(team.team.checks.get(identity.check)).toMatchObject({ status: 'submitted', outcome: 'consider', submitted_at: NOW })
    expect(team.team.checks.get(watchlist.check)).toMatchObject({ status: 'pending', submitted_at: null })
    expect((await mock.control.get(`/records/${record.id}`)).body.jobs).toEqual([
      { kind: 'check.result', due_at: at(0.5), check: identity.check },
      { kind: 'record.expiry', due_at: at(30 * 24 * 60), check: null },
    ])
    expect(mock.events.map((event) => [event.type, event.subjects.record])).toEqual([['record.updated', record.id]])

    await mock.control.post('/clock/advance', { seconds: 30 })
    expect(team.team.checks.get(identity.check)?.status).toBe('accepted')
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('started')

    const last = await mock.control.post(`/records/${record.id}/steps/${watchlist.id}/complete`)
    expect(last.status, last.text).toBe(200)
    expect(last.body).toMatchObject({ status: 'waiting', perform_url: false })
    await mock.control.post('/clock/advance', { seconds: 60 })
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('complete')
    expect(eventNames(mock)).toEqual(['record.updated', 'record.updated', 'record.updated', 'record.updated', 'record.finished'])
  })

  it('answers and publishes as the whole complete does when the step is the last one', async () => {
    const single = async (complete: (mock: TestMock, record: { id: number; steps: Array<{ id: number }> }) => Promise<{ status: number; body: unknown }>) => {
      const { mock, team, api, client } = await teamWithClient()
      const record = await createRecord(team, { client: client.id, steps: [{ type: 'document.request', preferences: { title: 'Payslip', instructions: 'Latest.' } }], notification: false })
      mock.events.length = 0
      const res = await complete(mock, record)
      return { status: res.status, body: res.body, events: mock.events.map((event) => ({ type: event.type, subjects: event.subjects })), after: (await api.get(`/records/${record.id}`)).body }
    }
    const oneStep = await single((mock, record) => mock.control.post(`/records/${record.id}/steps/${record.steps[0]?.id}/complete`, {}))
    const everyStep = await single((mock, record) => mock.control.post(`/records/${record.id}/complete`, {}))
    expect(oneStep.status).toBe(200)
    expect(oneStep.body).toMatchObject({ status: 'complete', perform_url: false })
    expect(oneStep.events.map((event) => event.type)).toEqual(['record.updated', 'record.finished'])
    expect(oneStep).toEqual(everyStep)
  })

  it('keeps the reminders while steps are left and stops them with the last one', async () => {
    const { mock, team, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: 'email', reminder: true })
    const row = team.team.records.get(record.id)
    await mock.control.post(`/records/${record.id}/steps/${record.steps[0].id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 3 * 86_400 })
    expect(row?.emails).toEqual([
      { kind: 'new_request', sent_at: NOW },
      { kind: 'reminder', sent_at: at(2 * 24 * 60) },
    ])
    await mock.control.post(`/records/${record.id}/steps/${record.steps[1].id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 10 * 86_400 })
    expect(row?.emails).toHaveLength(2)
  })

  it('refuses an unknown record or step (404), a step done, an archived or expired record and a bad outcome (422)', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, WATCHLIST], notification: false })
    const other = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    const [identity, watchlist] = record.steps
    const complete = (recordId: number, stepId: number, body: Record<string, unknown> = {}) => mock.control.post(`/records/${recordId}/steps/${stepId}/complete`, body)

    const noRecord = await complete(987654, identity.id)
    expect([noRecord.status, noRecord.body]).toEqual([404, { error: 'Record not found' }])
    for (const stepId of [987654, other.steps[0].id]) {
      const noStep = await complete(record.id, stepId)
      expect([noStep.status, noStep.body]).toEqual([404, { error: 'Step not found' }])
    }
    const bad = await complete(record.id, identity.id, { outcome: 'maybe', delay_seconds: -1 })
    expect([bad.status, bad.body]).toEqual([422, { outcome: ['The selected outcome is invalid.'], delay_seconds: ['The delay seconds field must be at least 0.'] }])

    expect((await complete(record.id, identity.id)).status).toBe(200)
    const twice = await complete(record.id, identity.id)
    expect([twice.status, twice.body]).toEqual([422, { errors: ['The step is already complete.'] }])

    await api.patch(`/records/${record.id}`, { is_archived: true })
    const archived = await complete(record.id, watchlist.id)
    expect([archived.status, archived.body]).toEqual([422, { errors: ['The record is archived: its client can no longer complete steps.'] }])
    await api.patch(`/records/${record.id}`, { is_archived: false })
    await api.post(`/records/${record.id}/expire`)
    const expired = await complete(record.id, watchlist.id)
    expect([expired.status, expired.body]).toEqual([422, { errors: ['The record has expired: its client can no longer complete steps.'] }])
    expect(team.team.records.get(record.id)?.steps.map((step) => step.completed_at)).toEqual([NOW, null])
  })
})

describe('POST /_mock/records/{id}/corrections', () => {
  it('proposes a name correction as the client would: the record awaits a decision (amendments) until the team decides', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY], notification: false })
    mock.events.length = 0
    const res = await mock.control.post(`/records/${record.id}/corrections`, { first_name: 'Anne', last_name: 'Leigh' })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({
      object: 'client_correction',
      id: expect.any(Number),
      client: client.id,
      record: record.id,
      status: 'pending',
      correction: { first_name: 'Anne', middle_name: null, last_name: 'Leigh' },
      created_at: NOW,
      updated_at: NOW,
    })
    expect(eventNames(mock)).toEqual(['record.updated'])
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('amendments')
    expect((await api.get(`/clients/${client.id}/corrections`)).body.data).toEqual([res.body])
    const decided = await api.patch(`/clients/${client.id}/corrections/${res.body.id}`, { status: 'accepted' })
    expect(decided.status).toBe(200)
    expect((await api.get(`/records/${record.id}`)).body.status).toBe('pending')
    expect((await api.get(`/clients/${client.id}`)).body.name).toMatchObject({ first_name: 'Anne', last_name: 'Leigh' })

    const missing = await mock.control.post('/records/987654/corrections', { first_name: 'A', last_name: 'B' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'Record not found' })
    const bad = await mock.control.post(`/records/${record.id}/corrections`, { first_name: 'Anne' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ last_name: ['The last name field is required.'] })
  })
})

describe('GET /records/{id}/steps', () => {
  it('lists the steps collapsed, and expands check, document and review one level deep', async () => {
    const { mock, team, api, client } = await teamWithClient()
    const record = await createRecord(team, { client: client.id, steps: [IDENTITY, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Latest.' } }], notification: false })
    const collapsed = await api.get(`/records/${record.id}/steps`)
    expect(collapsed.status).toBe(200)
    expect(collapsed.body).toEqual(singlePage(record.steps))

    await mock.control.post(`/records/${record.id}/complete`, {})
    await mock.control.post('/clock/advance', { seconds: 60 })
    const [identity, document] = record.steps
    const review = await api.post(`/records/${record.id}/steps/${identity.id}/reviews`, { status: 'approved' })
    expect(review.status).toBe(201)
    const expanded = await api.get(`/records/${record.id}/steps`, { expand: 'check,document,review' })
    expect(expanded.status).toBe(200)
    const check = (await api.get(`/checks/${identity.check}`)).body
    const documents = (await api.get(`/records/${record.id}/documents`)).body.data
    expect(expanded.body.data).toEqual([
      { ...identity, completed_at: NOW, check, review: review.body },
      { ...document, completed_at: NOW, document: documents[0] },
    ])
    expect(check).toMatchObject({ status: 'accepted', response: true, record: record.id })
    expect(documents[0]).toMatchObject({ type: 'requested', status: 'complete', completed_at: NOW })

    const bad = await api.get(`/records/${record.id}/steps`, { expand: 'client' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ expand: ['The expand parameter must be one of: check, form, document, review'] })
    const missing = await api.get('/records/987654/steps')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'Record not found' })
  })
})

describe('GET /templates/records', () => {
  it("lists the team's record templates, filtered by enabled", async () => {
    const { api, team } = await teamWithClient()
    const res = await api.get('/templates/records')
    expect(res.status).toBe(200)
    expect(res.body.total).toBe(team.team.recordTemplates.size)
    expect(res.body.data[0]).toMatchObject({ object: 'record_template', name: 'Right to work (UK)', is_enabled: true })
    expect(res.body.data.every((template: { description: unknown }) => typeof template.description === 'string')).toBe(true)
    expect(res.body.data.filter((template: { presets: object }) => !('assignees' in template.presets)).length).toBeGreaterThan(0)
    expect((await api.get('/templates/records', { enabled: false })).body.total).toBe(0)
  })
})
