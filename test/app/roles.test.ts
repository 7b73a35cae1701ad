// Team roles (docs/specification-notes.md "Roles", docs/specification-notes.md "Authentication"): read-only members change nothing, assigned-only members see only what they are assigned to, owners (and support
// acting as one) manage the team, and a member who left has no access at all.
import { describe, expect, it } from 'vitest'
import { ROLES, type Role } from '../../src/kernel/roles.ts'
import type { UserRow } from '../../src/store/identity.ts'
import type { ApiClient } from '../support/api.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { proposeCorrection } from '../../src/resources/corrections/index.ts'
import { setCaseAssignees, type CaseRow } from '../../src/resources/cases/index.ts'
import { sampleAttachment } from '../../src/resources/attachments/index.ts'
import { assigneeRows, giveFile, giveForm, giveRecord } from '../support/rows.ts'
import { ACCEPTED, uploadForm } from '../support/uploads.ts'
import { singlePage } from '../support/wire.ts'
import { servedOperations } from '../support/served.ts'

type NewTeam = ReturnType<TestMock['newTeam']>

const FORBIDDEN = { message: 'This action is unauthorized.' }
const UNAUTHENTICATED = { error: 'Unauthenticated.' }
const UNKNOWN = 987_654_321

/** The API operations the app serves, by contract id (as test/docs/readme.test.ts counts them). */
const SERVED = servedOperations().filter((op) => op.surface === 'api')
const SERVED_WRITES = SERVED.filter((op) => op.method !== 'GET').map((op) => op.id)
const SERVED_READS = SERVED.filter((op) => op.method === 'GET').map((op) => op.id)

/** A team with a client in an organisation, a second organisation, and an assignee on each. */
interface World {
  mock: TestMock
  team: NewTeam
  client: number
  organisation: number
  /** An organisation the client is not in. */
  other: number
  clientAssignee: number
  organisationAssignee: number
  /** With a record (world(..., true)): the client's record, its first step, an assignee of it, and a pending correction of the client on it. */
  record: number
  step: number
  recordAssignee: number
  correction: number
  /** The owner's case for the client, assigned to the same roles; with a record, it holds a second record of the client as an item. */
  case: number
  caseItem: number
}

/**
 * One request per served operation that succeeds for the team's owner on a fresh World, with its
 * success status; record: the World needs the client's record.
 */
const REQUESTS: Record<string, { status: number; path: (w: World) => string; body?: (w: World) => unknown; record?: true }> = {
  'status.get': { status: 204, path: () => '/status' },
  'me.get': { status: 200, path: () => '/me' },
  'me.update': { status: 200, path: () => '/me', body: () => ({ name: 'Renamed Person' }) },
  'me.teams.list': { status: 200, path: () => '/me/teams' },
  'team.get': { status: 200, path: () => '/team' },
  'team.update': { status: 200, path: () => '/team', body: () => ({ telephone: '+44 20 7946 0999' }) },
  'team.me.get': { status: 200, path: () => '/team/me' },
  'team.members.list': { status: 200, path: () => '/team/members' },
  'teams.members.list': { status: 200, path: (w) => `/teams/${w.team.team.id}/members` },
  'teams.members.get': { status: 200, path: (w) => `/teams/${w.team.team.id}/members/${w.team.users.member.id}` },
  'credits.list': { status: 200, path: () => '/credits' },
  'clients.list': { status: 200, path: () => '/clients' },
  'clients.create': { status: 201, path: () => '/clients', body: () => ({ name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' }) },
  'clients.get': { status: 200, path: (w) => `/clients/${w.client}` },
  'clients.update': { status: 200, path: (w) => `/clients/${w.client}`, body: () => ({ reference: 'CHANGED-1' }) },
  'clients.delete': { status: 204, path: (w) => `/clients/${w.client}` },
  'clients.address.get': { status: 200, path: (w) => `/clients/${w.client}/address` },
  'clients.address.replace': { status: 200, path: (w) => `/clients/${w.client}/address`, body: () => ({ city: 'Cork', country: 'IE' }) },
  'clients.assignees.list': { status: 200, path: (w) => `/clients/${w.client}/assignees` },
  'clients.assignees.add': { status: 201, path: (w) => `/clients/${w.client}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }] },
  'clients.assignees.replace': { status: 201, path: (w) => `/clients/${w.client}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }] },
  'clients.assignees.deleteAll': { status: 204, path: (w) => `/clients/${w.client}/assignees` },
  'clients.assignees.delete': { status: 204, path: (w) => `/clients/${w.client}/assignees/${w.clientAssignee}` },
  'clients.organisations.list': { status: 200, path: (w) => `/clients/${w.client}/organisations` },
  'clients.organisations.add': { status: 201, path: (w) => `/clients/${w.client}/organisations`, body: (w) => [w.other] },
  'clients.organisations.replace': { status: 201, path: (w) => `/clients/${w.client}/organisations`, body: (w) => [w.other] },
  'clients.organisations.deleteAll': { status: 204, path: (w) => `/clients/${w.client}/organisations` },
  'clients.organisations.delete': { status: 204, path: (w) => `/clients/${w.client}/organisations/${w.organisation}` },
  'organisations.list': { status: 200, path: () => '/organisations' },
  'organisations.create': { status: 201, path: () => '/organisations', body: () => ({ name: 'Hart Holdings Ltd' }) },
  'organisations.get': { status: 200, path: (w) => `/organisations/${w.organisation}` },
  'organisations.update': { status: 200, path: (w) => `/organisations/${w.organisation}`, body: () => ({ name: 'Renamed Holdings Ltd' }) },
  'organisations.clients.list': { status: 200, path: (w) => `/organisations/${w.organisation}/clients` },
  'organisations.assignees.list': { status: 200, path: (w) => `/organisations/${w.organisation}/assignees` },
  'organisations.assignees.add': { status: 201, path: (w) => `/organisations/${w.organisation}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }] },
  'organisations.assignees.replace': { status: 201, path: (w) => `/organisations/${w.organisation}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }] },
  'organisations.assignees.deleteAll': { status: 204, path: (w) => `/organisations/${w.organisation}/assignees` },
  'organisations.assignees.delete': { status: 204, path: (w) => `/organisations/${w.organisation}/assignees/${w.organisationAssignee}` },
  'clients.corrections.list': { status: 200, path: (w) => `/clients/${w.client}/corrections`, record: true },
  'clients.corrections.update': { status: 200, path: (w) => `/clients/${w.client}/corrections/${w.correction}`, body: () => ({ status: 'accepted' }), record: true },
  'records.steps.reviews.list': { status: 200, path: (w) => `/records/${w.record}/steps/${w.step}/reviews`, record: true },
  'records.steps.reviews.create': { status: 201, path: (w) => `/records/${w.record}/steps/${w.step}/reviews`, body: () => ({ status: 'approved' }), record: true },
  'records.documents.list': { status: 200, path: (w) => `/records/${w.record}/documents`, record: true },
  'records.assignees.list': { status: 200, path: (w) => `/records/${w.record}/assignees`, record: true },
  'records.assignees.add': { status: 201, path: (w) => `/records/${w.record}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }], record: true },
  'records.assignees.replace': { status: 201, path: (w) => `/records/${w.record}/assignees`, body: (w) => [{ type: 'team_member', team_member: w.team.users.member.id }], record: true },
  'records.assignees.deleteAll': { status: 204, path: (w) => `/records/${w.record}/assignees`, record: true },
  'records.assignees.delete': { status: 204, path: (w) => `/records/${w.record}/assignees/${w.recordAssignee}`, record: true },
  'records.list': { status: 200, path: () => '/records', record: true },
  'records.create': { status: 201, path: () => '/records', body: (w) => ({ client: w.client, steps: [{ type: 'check.identity' }], notification: false }) },
  'records.get': { status: 200, path: (w) => `/records/${w.record}`, record: true },
  'records.steps.list': { status: 200, path: (w) => `/records/${w.record}/steps`, record: true },
  'records.update': { status: 200, path: (w) => `/records/${w.record}`, body: () => ({ is_reviewed: true }), record: true },
  'records.archive': { status: 200, path: (w) => `/records/${w.record}/archive`, record: true },
  'records.expire': { status: 200, path: (w) => `/records/${w.record}/expire`, record: true },
  'clients.records.list': { status: 200, path: (w) => `/clients/${w.client}/records`, record: true },
  'templates.records.list': { status: 200, path: () => '/templates/records' },
  'templates.emails.list': { status: 200, path: () => '/templates/emails' },
  'templates.documents.list': { status: 200, path: () => '/templates/documents' },
  'documents.list': { status: 200, path: () => '/documents?expand=attachment' },
  'records.download': { status: 200, path: (w) => `/records/${w.record}/download`, record: true },
  'checks.get': { status: 200, path: (w) => `/checks/${w.team.team.records.get(w.record)?.steps[0]?.check}`, record: true },
  'sdkToken.create': { status: 201, path: () => '/sdk_token', body: (w) => ({ record_id: w.record }), record: true },
  'steps.list': { status: 200, path: () => '/steps' },
  'cases.list': { status: 200, path: () => '/cases' },
  'cases.create': { status: 201, path: () => '/cases', body: (w) => ({ client: w.client, name: 'Onboarding' }) },
  'cases.get': { status: 200, path: (w) => `/cases/${w.case}` },
  'cases.update': { status: 200, path: (w) => `/cases/${w.case}`, body: () => ({ name: 'Renamed' }) },
  'cases.reviews.list': { status: 200, path: (w) => `/cases/${w.case}/reviews` },
  'cases.reviews.create': { status: 201, path: (w) => `/cases/${w.case}/reviews`, body: () => ({ status: 'approved' }) },
  'cases.items.list': { status: 200, path: (w) => `/cases/${w.case}/items`, record: true },
  'cases.items.update': { status: 201, path: (w) => `/cases/${w.case}/items`, body: (w) => [{ id: w.record, type: 'record' }], record: true },
  'cases.items.delete': { status: 204, path: (w) => `/cases/${w.case}/items/${w.caseItem}`, record: true },
  'cases.assignees.list': { status: 200, path: (w) => `/cases/${w.case}/assignees` },
  'steps.validate': { status: 200, path: () => '/steps', body: () => ({ steps: [{ type: 'check.identity' }] }) },
  'aggregates.caseStatus': { status: 200, path: () => '/aggregates/case-status' },
  'formTemplates.list': { status: 200, path: () => '/form-templates' },
  'formTemplates.create': { status: 201, path: () => '/form-templates', body: () => ({ name: 'Referee details', fields: [{ id: 'root', type: 'section', label: '', fields: ['name'] }, { id: 'name', type: 'text', label: 'Referee name' }] }) },
  'formTemplates.get': { status: 200, path: (w) => `/form-templates/${formTemplateOf(w)}` },
  'formTemplates.update': { status: 200, path: (w) => `/form-templates/${formTemplateOf(w)}`, body: () => ({ name: 'Renamed form' }) },
  'formTemplates.delete': { status: 204, path: (w) => `/form-templates/${formTemplateOf(w)}` },
  'forms.list': { status: 200, path: () => '/forms' },
  'clients.forms.list': { status: 200, path: (w) => `/clients/${w.client}/forms` },
  'clients.forms.get': { status: 200, path: (w) => `/clients/${w.client}/forms/${formOf(w)}` },
  'clients.forms.download': { status: 200, path: (w) => `/clients/${w.client}/forms/${formOf(w)}/download` },
  'attachments.create': { status: 201, path: () => '/attachments', body: () => uploadForm('contract.pdf', (ACCEPTED[0] as { bytes: Uint8Array }).bytes) },
  'attachments.delete': { status: 204, path: (w) => `/attachments/${unassignedAttachment(w)}` },
  'attachments.redact': { status: 200, path: (w) => `/attachments/${recordDocumentAttachment(w)}/redact`, record: true },
  'files.list': { status: 200, path: () => '/files' },
  'clients.files.list': { status: 200, path: (w) => `/clients/${w.client}/files` },
  'clients.files.create': { status: 201, path: (w) => `/clients/${w.client}/files`, body: (w) => ({ attachment: unassignedAttachment(w) }) },
  'clients.files.delete': { status: 204, path: (w) => `/clients/${w.client}/files/${clientFile(w)}` },
  'clients.files.download': { status: 200, path: (w) => `/clients/${w.client}/files/${clientFile(w)}/download` },
  'webhooks.list': { status: 200, path: () => '/webhooks' },
  'webhooks.create': { status: 201, path: () => '/webhooks', body: () => ({ url: 'http://127.0.0.1:9/hooks', events: ['client.*'], is_enabled: false }) },
  'webhooks.get': { status: 200, path: (w) => `/webhooks/${webhookOf(w)}` },
  'webhooks.update': { status: 200, path: (w) => `/webhooks/${webhookOf(w)}`, body: () => ({ events: ['*'] }) },
  'webhooks.delete': { status: 204, path: (w) => `/webhooks/${webhookOf(w)}` },
  'webhooks.deliveries.list': { status: 200, path: (w) => `/webhooks/${webhookOf(w)}/deliveries` },
}

/** What assigned-only members may not do although they may write: change the team's library, or delete an attachment someone else uploaded. */
const ASSIGNED_ONLY_FORBIDDEN = ['formTemplates.create', 'formTemplates.update', 'formTemplates.delete', 'attachments.delete']

/** The team's webhook (world() gives it a disabled one, so nothing is sent). */
const webhookOf = (w: World) => w.team.team.webhooks.all()[0]?.id ?? UNKNOWN

/** The reference of the team's first (seeded) form template. */
const formTemplateOf = (w: World) => w.team.team.formTemplates.all()[0]?.reference

/** The reference of the client's form (world() gives it one); any reference for an unknown client. */
const formOf = (w: World) => w.team.team.formsByClient.get(w.client)[0]?.reference ?? '00000000-0000-4000-8000-000000000000'

/** The claims of an SDK token (a JWT), without checking it. */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'))

/** What a World holds besides its named ids (its type stays as it is): an attachment nothing uses, the client's file, and the attachment of the record's requested document. */
const UNASSIGNED = 'unassigned.pdf'
const unassignedAttachment = (w: World) => w.team.team.attachments.all().find((attachment) => attachment.original === UNASSIGNED)?.id ?? UNKNOWN
const clientFile = (w: World) => w.team.team.filesByClient.get(w.client)[0]?.id ?? UNKNOWN
const recordDocumentAttachment = (w: World) => w.team.team.files.all().find((file) => file.source.type === 'record_document')?.attachment ?? UNKNOWN

/** Whether the World of an operation's request needs the client's record. */
const needsRecord = (id: string) => REQUESTS[id]?.record === true

/** The 404 of an operation whose path names an unknown client, organisation or record (docs/specification-notes.md "Wire details": the correction update's says it under message, the record download's is the generic one). */
function notFoundOf(id: string) {
  if (id === 'clients.corrections.update') return { message: 'Client not found' }
  if (id === 'records.download') return { error: 'Not Found.' }
  // docs/specification-notes.md "Wire details": the case items and reviews operations say it with a full stop.
  if (/^cases\.(items|reviews)\./.test(id)) return { error: 'Case not found.' }
  if (id.startsWith('cases.')) return { error: 'Case not found' }
  return { error: id.startsWith('clients.') ? 'Client not found' : id.startsWith('records.') ? 'Record not found' : 'Organisation not found' }
}

/** Operations whose path names a client, an organisation, a record or a case. */
const NAMING_A_RESOURCE = SERVED.filter((op) => op.pathParams.length > 0 && /^(clients|organisations|records|cases)\./.test(op.id)).map((op) => op.id)

/** Every id of a World unknown. */
const unknownIds = (w: World): World => ({ ...w, client: UNKNOWN, organisation: UNKNOWN, record: UNKNOWN, case: UNKNOWN })

/**
 * A fresh World; the client, both organisations and their assignees are made by the owner through
 * the API, with the given roles assigned to all three besides the owner (and to the record, when
 * there is one).
 */
async function world(assigned: Role[] = [], withRecord = false): Promise<World> {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const client = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
  const organisation = await api.post('/organisations', { name: 'Lee Holdings Ltd' })
  const other = await api.post('/organisations', { name: 'Other Holdings Ltd' })
  const joined = await api.post(`/clients/${client.body.id}/organisations`, [organisation.body.id])
  expect([client.status, organisation.status, other.status, joined.status]).toEqual([201, 201, 201, 201])
  const users = [team.users.owner.id, ...assigned.map((role) => team.users[role].id)].map((user) => ({ type: 'team_member', team_member: user }))
  const assignees = await Promise.all(
    [`/clients/${client.body.id}`, `/organisations/${organisation.body.id}`, `/organisations/${other.body.id}`].map((path) => api.post(`${path}/assignees`, users)),
  )
  for (const res of assignees) expect(res.status, res.text).toBe(201)
  const made = await api.post('/cases', { client: client.body.id, name: 'Onboarding' })
  expect(made.status, made.text).toBe(201)
  const caseRow = team.team.cases.get(made.body.id) as CaseRow
  setCaseAssignees(mock.teamContext(team.team), caseRow, [team.users.owner.id, ...assigned.map((role) => team.users[role].id)])
  // The client's form, made here rather than in a request's path so the 403 tests see nothing change.
  giveForm(mock, team.team, client.body.id)
  sampleAttachment(mock.teamContext(team.team), 'privacyNotice', UNASSIGNED)
  giveFile(mock, team.team, client.body.id, { sample: 'proofOfAddress', name: 'Proof of address' })
  const webhook = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['client.*'], is_enabled: false })
  expect(webhook.status, webhook.text).toBe(201)
  const w = {
    mock,
    team,
    client: client.body.id,
    organisation: organisation.body.id,
    other: other.body.id,
    clientAssignee: assignees[0]?.body.data[0].id,
    organisationAssignee: assignees[1]?.body.data[0].id,
    record: UNKNOWN,
    step: UNKNOWN,
    recordAssignee: UNKNOWN,
    correction: UNKNOWN,
    case: made.body.id as number,
    caseItem: UNKNOWN,
  }
  if (!withRecord) return w
  const record = giveRecord(mock, team.team, w.client, { steps: [{ type: 'check.identity' }, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip' } }] })
  const recordAssignees = await api.post(`/records/${record.id}/assignees`, users)
  expect(recordAssignees.status, recordAssignees.text).toBe(201)
  const correction = proposeCorrection(mock.teamContext(team.team), record, { first_name: 'Anne', last_name: 'Leigh' })
  // The client's upload to the requested document, and its file.
  const requested = team.team.recordDocuments.get(record.steps[1]?.document ?? UNKNOWN)
  const uploaded = giveFile(mock, team.team, w.client, {
    sample: 'bankStatement',
    type: 'received',
    source: { type: 'record_document', id: requested?.id ?? UNKNOWN },
    source_subtype: 'requested',
    created_by: { type: 'client', id: w.client },
  })
  if (requested) team.team.recordDocuments.update(requested, { attachments: [...requested.attachments, uploaded.attachment] })
  // An item of another record of the client, so that adding the record itself is new (201).
  const inCase = giveRecord(mock, team.team, w.client, { steps: [{ type: 'check.identity' }], assignees: assigneeRows(mock, ...users.map((user) => user.team_member)) })
  const caseItem = { id: mock.store.nextId('case_item'), record: inCase.id, created_at: NOW, updated_at: NOW }
  team.team.cases.update(caseRow, { items: [...caseRow.items, caseItem] })
  return { ...w, record: record.id, step: record.steps[0]!.id, recordAssignee: recordAssignees.body.data[0].id, correction: correction.id, caseItem: caseItem.id }
}

function send(api: ApiClient, id: string, w: World) {
  const request = REQUESTS[id]
  if (!request) throw new Error(`no request for ${id}`)
  return api.request(contracts.operation(id).method, request.path(w), { body: request.body?.(w) })
}

function snapshot(mock: TestMock) {
  return { data: structuredClone(mock.store.data), events: mock.events.length }
}

function expectUnchanged(mock: TestMock, before: ReturnType<typeof snapshot>) {
  expect(mock.store.data).toEqual(before.data)
  expect(mock.events).toHaveLength(before.events)
}

/** A body with every is_deletable false: what a read-only member sees (they may delete nothing). */
function nothingDeletable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nothingDeletable)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, key === 'is_deletable' ? false : nothingDeletable(child)]))
}

const memberJson = (user: Pick<UserRow, 'id' | 'name' | 'email'>, role: Role | null) => ({ object: 'team_member', id: user.id, name: user.name, email: user.email, role })

describe('the requests these tests send', () => {
  it('cover every served API operation', () => {
    expect(Object.keys(REQUESTS).sort()).toEqual(SERVED.map((op) => op.id).sort())
    expect(SERVED_WRITES.length).toBeGreaterThan(0)
  })

  it.each(SERVED.map((op) => [op.id] as const))('%s succeeds for the owner', async (id) => {
    const w = await world([], needsRecord(id))
    const res = await send(w.team.api(), id, w)
    expect(res.status, res.text).toBe(REQUESTS[id]?.status)
    expect(res.operation?.id).toBe(id)
  })
})

describe('read-only members (docs/specification-notes.md "Roles")', () => {
  it.each(SERVED_WRITES.filter((id) => id !== 'me.update').map((id) => [id] as const))('get 403 on %s and nothing changes', async (id) => {
    const w = await world(['read-only'], needsRecord(id))
    const before = snapshot(w.mock)
    const res = await send(w.team.api('read-only'), id, w)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expectUnchanged(w.mock, before)
  })

  it('may change their own profile with PATCH /me', async () => {
    const w = await world()
    const user = w.team.users['read-only']
    const res = await w.team.api('read-only').patch('/me', { name: 'Renamed Person' })
    expect(res.status).toBe(200)
    const expected = { object: 'user', id: user.id, name: 'Renamed Person', email: user.email, is_verified: true, is_disabled: false, created_at: NOW, updated_at: NOW }
    expect(res.body).toEqual(expected)
    expect((await w.team.api('read-only').get('/me')).body).toEqual(expected)
    expect((await w.team.api().get(`/teams/${w.team.team.id}/members/${user.id}`)).body).toEqual(memberJson({ ...user, name: 'Renamed Person' }, 'read-only'))
  })

  it.each(NAMING_A_RESOURCE.map((id) => [id] as const))('get 404 on %s naming an unknown id, before the role check', async (id) => {
    const w = await world([], needsRecord(id))
    const before = snapshot(w.mock)
    const res = await send(w.team.api('read-only'), id, unknownIds(w))
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFoundOf(id))
    expectUnchanged(w.mock, before)
  })

  it.each(SERVED_READS.filter((id) => id !== 'credits.list').map((id) => [id] as const))('may read with %s', async (id) => {
    const w = await world([], needsRecord(id))
    const user = w.team.users['read-only']
    const res = await send(w.team.api('read-only'), id, w)
    expect(res.status).toBe(REQUESTS[id]?.status)
    if (id === 'me.get') {
      expect(res.body).toEqual({ object: 'user', id: user.id, name: user.name, email: user.email, is_verified: true, is_disabled: false, created_at: NOW, updated_at: NOW })
    } else if (id === 'team.me.get') {
      expect(res.body).toEqual(memberJson(user, 'read-only'))
    } else {
      // What the owner sees, except that a read-only member may delete no client.
      expect(res.body).toEqual(nothingDeletable((await send(w.team.api(), id, w)).body))
    }
  })

  it('may not read the credit history (owners only)', async () => {
    const w = await world()
    const res = await w.team.api('read-only').get('/credits')
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  it('seeded ivs_acme_readonly reads clients but cannot create, change or delete one', async () => {
    const mock = createTestMock()
    const api = mock.api('ivs_acme_readonly')
    const list = await api.get('/clients', { limit: 1 })
    expect(list.status).toBe(200)
    const id = list.body.data[0].id
    expect(list.body.data[0].is_deletable).toBe(false)
    const before = snapshot(mock)
    for (const res of [
      await api.post('/clients', { name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' }),
      await api.patch(`/clients/${id}`, { reference: 'X' }),
      await api.delete(`/clients/${id}`),
      await api.put(`/clients/${id}/address`, { city: 'Cork', country: 'IE' }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    expectUnchanged(mock, before)
  })
})

describe('assigned-only members (docs/specification-notes.md "Roles")', () => {
  it('seeded ivs_acme_assigned lists exactly the clients and organisations Aisha is assigned to', async () => {
    const mock = createTestMock()
    const acme = [...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')
    const aisha = mock.store.userByEmail('aisha.rahman@acme-recruitment.example') as UserRow
    const assignedTo = (rows: ReadonlyArray<{ id: number; assignees: ReadonlyArray<{ user: number }> }>) =>
      rows.filter((row) => row.assignees.some((assignee) => assignee.user === aisha.id)).map((row) => row.id)
    const clients = assignedTo(acme?.clients.all() ?? [])
    const organisations = assignedTo(acme?.organisations.all() ?? [])
    expect(clients.length).toBeGreaterThan(0)
    expect(clients.length).toBeLessThan(acme?.clients.all().length ?? 0)
    expect(organisations.length).toBeGreaterThan(0)
    const api = mock.api('ivs_acme_assigned')
    const listed = await api.get('/clients', { limit: 100 })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({
      object: 'paginated_list',
      // Aisha's own view of each: she may not delete a client with records, unlike the owner.
      data: await Promise.all(clients.map(async (id) => (await api.get(`/clients/${id}`)).body)),
      total: clients.length,
      count: clients.length,
      limit: 100,
      current_page: 1,
      total_pages: 1,
      links: null,
    })
    const orgs = await api.get('/organisations', { limit: 100 })
    expect(orgs.status).toBe(200)
    // An organisation shows only the clients the caller sees, so compare with what Aisha gets by id.
    expect(orgs.body).toEqual({
      object: 'paginated_list',
      data: await Promise.all(organisations.map(async (id) => (await api.get(`/organisations/${id}`)).body)),
      total: organisations.length,
      count: organisations.length,
      limit: 100,
      current_page: 1,
      total_pages: 1,
      links: null,
    })
    const unassigned = acme?.clients.all().find((client) => !clients.includes(client.id))
    const res = await api.get(`/clients/${unassigned?.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  it.each(NAMING_A_RESOURCE.map((id) => [id] as const))('get 403 on %s for what they are not assigned to, and nothing changes', async (id) => {
    const w = await world([], needsRecord(id))
    const before = snapshot(w.mock)
    const res = await send(w.team.api('assigned-only'), id, w)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expectUnchanged(w.mock, before)
  })

  it.each(NAMING_A_RESOURCE.map((id) => [id] as const))('get 404 on %s naming an unknown id', async (id) => {
    const w = await world([], needsRecord(id))
    const res = await send(w.team.api('assigned-only'), id, unknownIds(w))
    expect(res.status).toBe(404)
    expect(res.body).toEqual(notFoundOf(id))
  })

  // Webhooks receive the whole team's events, so assigned-only members get 403 on them (test/resources/webhooks.test.ts);
  // library writes and another user's attachment are below.
  it.each(SERVED.map((op) => op.id).filter((id) => id !== 'team.update' && id !== 'credits.list' && !id.startsWith('webhooks.') && !ASSIGNED_ONLY_FORBIDDEN.includes(id)).map((id) => [id] as const))(
    'may use %s on what they are assigned to, with the answer the owner gets',
    async (id) => {
      // The owner's answer to the same request on an identical world (fresh mocks are deterministic).
      const [w, twin] = [await world(['assigned-only'], needsRecord(id)), await world(['assigned-only'], needsRecord(id))]
      expect(twin.team.users).toEqual(w.team.users)
      const user = structuredClone(w.team.users['assigned-only'])
      const res = await send(w.team.api('assigned-only'), id, w)
      expect(res.status, res.text).toBe(REQUESTS[id]?.status)
      const owners = await send(twin.team.api(), id, twin)
      if (id === 'me.get' || id === 'me.update') {
        expect(res.body).toEqual({ ...owners.body, id: user.id, name: id === 'me.get' ? user.name : 'Renamed Person', email: user.email })
      } else if (id === 'team.me.get') {
        expect(res.body).toEqual(memberJson(user, 'assigned-only'))
      } else if (id === 'sdkToken.create') {
        // The token names who asked for it.
        expect(claimsOf(res.body.token)).toEqual({ ...claimsOf(owners.body.token), user_id: user.id })
      } else if (id === 'organisations.create' || id === 'cases.create') {
        // An assigned-only creator is assigned to what they create.
        expect(res.body).toEqual({ ...owners.body, assignees: [user.id] })
      } else if (id === 'records.steps.reviews.create' || id === 'cases.reviews.create') {
        expect(res.body).toEqual({ ...owners.body, reviewed_by: user.id })
      } else if (id === 'clients.files.create') {
        expect(res.body).toEqual({ ...owners.body, created_by: { id: user.id, type: 'team_member' } })
      } else {
        expect(res.body).toEqual(owners.body)
      }
    },
  )

  // The library is shared team configuration, like webhooks; the World's unused attachment is not theirs (nobody uploaded it through the API).
  it.each(ASSIGNED_ONLY_FORBIDDEN.map((id) => [id] as const))('get 403 on %s, and nothing changes', async (id) => {
    const w = await world(['assigned-only'])
    const before = snapshot(w.mock)
    const res = await send(w.team.api('assigned-only'), id, w)
    expect(res.status, res.text).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expectUnchanged(w.mock, before)
  })

  it('may read the form templates, and delete an attachment they uploaded themselves but not one another member uploaded', async () => {
    const w = await world(['assigned-only'])
    const api = w.team.api('assigned-only')
    expect((await send(api, 'formTemplates.list', w)).body).toEqual((await send(w.team.api(), 'formTemplates.list', w)).body)
    expect((await send(api, 'formTemplates.get', w)).status).toBe(200)
    const upload = (as: ApiClient) => as.request('POST', '/attachments', { body: uploadForm('payslip.pdf', (ACCEPTED[0] as { bytes: Uint8Array }).bytes) })
    const mine = await upload(api)
    const members = await upload(w.team.api('member'))
    expect([mine.status, members.status]).toEqual([201, 201])
    const refused = await api.delete(`/attachments/${members.body.id}`)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual(FORBIDDEN)
    expect((await api.delete(`/attachments/${mine.body.id}`)).status).toBe(204)
    expect(w.team.team.attachments.get(mine.body.id)).toBeUndefined()
    // The member who uploaded it, and any owner, may delete it.
    expect((await w.team.api('member').delete(`/attachments/${members.body.id}`)).status).toBe(204)
  })

  it('see no client or organisation that nobody assigned them to', async () => {
    const w = await world()
    const empty = { object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null }
    for (const path of ['/clients', '/organisations']) {
      const res = await w.team.api('assigned-only').get(path)
      expect(res.status, path).toBe(200)
      expect(res.body, path).toEqual(empty)
    }
  })

  it('see only the assigned clients of an organisation they are assigned to', async () => {
    const w = await world()
    const api = w.team.api()
    const hidden = await api.post('/clients', { name: { first_name: 'Cy', last_name: 'Hidden' }, email: 'cy@example.com' })
    expect((await api.post(`/clients/${hidden.body.id}/organisations`, [w.organisation])).status).toBe(201)
    expect((await api.post(`/organisations/${w.organisation}/assignees`, [{ type: 'team_member', team_member: w.team.users['assigned-only'].id }])).status).toBe(201)
    expect((await api.post(`/clients/${w.client}/assignees`, [{ type: 'team_member', team_member: w.team.users['assigned-only'].id }])).status).toBe(201)
    const res = await w.team.api('assigned-only').get(`/organisations/${w.organisation}/clients`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([(await api.get(`/clients/${w.client}`)).body]))
    expect((await w.team.api('member').get(`/organisations/${w.organisation}/clients`)).body.total).toBe(2)
  })

  it('are assigned to a client they create, so they can read it', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api('assigned-only')
    const created = await api.post('/clients', { name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' })
    expect(created.status).toBe(201)
    const id = created.body.id
    const shown = await api.get(`/clients/${id}`)
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual(created.body)
    const list = await api.get('/clients')
    expect(list.body.data).toEqual([created.body])
    const assignees = await api.get(`/clients/${id}/assignees`)
    expect(assignees.body.data).toEqual([
      { object: 'assignee', id: expect.any(Number), type: 'team_member', team_member: memberJson(team.users['assigned-only'], 'assigned-only') },
    ])
    expect((await team.api().get('/clients', { assignee: team.users['assigned-only'].id })).body.data.map((c: { id: number }) => c.id)).toEqual([id])
  })

  it('are assigned to an organisation they create, so they can read it', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api('assigned-only')
    const created = await api.post('/organisations', { name: 'Hart Holdings Ltd' })
    expect(created.status).toBe(201)
    expect(created.body.assignees).toEqual([team.users['assigned-only'].id])
    const shown = await api.get(`/organisations/${created.body.id}`)
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual(created.body)
  })

  it.each(['owner', 'member', 'assumed'] as const)('a client the %s creates has no assignees', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const created = await team.api(role).post('/clients', { name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' })
    expect(created.status).toBe(201)
    const assignees = await team.api().get(`/clients/${created.body.id}/assignees`)
    expect(assignees.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
    expect((await team.api('assigned-only').get(`/clients/${created.body.id}`)).status).toBe(403)
  })

  it('see is_deletable true on an assigned client without records, false once it has one', async () => {
    const w = await world(['assigned-only'])
    const api = w.team.api('assigned-only')
    expect((await api.get(`/clients/${w.client}`)).body.is_deletable).toBe(true)
    giveRecord(w.mock, w.team.team, w.client)
    expect((await api.get(`/clients/${w.client}`)).body.is_deletable).toBe(false)
    expect((await api.get('/clients')).body.data.map((c: { is_deletable: boolean }) => c.is_deletable)).toEqual([false])
  })
})

describe('team administration: PATCH /team and GET /credits (owners and support acting as one)', () => {
  it.each(['owner', 'assumed'] as const)('the %s may change the team', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const before = (await team.api().get('/team')).body
    const res = await team.api(role).patch('/team', { telephone: '+44 20 7946 0999' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...before, telephone: '+44 20 7946 0999', updated_at: NOW })
    expect((await team.api('member').get('/team')).body).toEqual(res.body)
  })

  it.each(['owner', 'assumed'] as const)('the %s may read the credit history', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const [entry] = team.team.credits.all()
    const res = await team.api(role).get('/credits')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([{ object: 'credit_history', id: entry?.id, credits: 500, reason: 'Initial credit purchase', created_at: NOW, causer: { id: team.users.owner.id, type: 'user' } }]))
  })

  it.each(['member', 'read-only', 'assigned-only'] as const)('the %s gets 403 on both, and the team is unchanged', async (role) => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const before = snapshot(mock)
    for (const res of [await team.api(role).patch('/team', { telephone: '+44 20 7946 0999' }), await team.api(role).get('/credits')]) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    expectUnchanged(mock, before)
  })

  it('refuses a non-owner before validating the body', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const res = await team.api('member').patch('/team', { contact: 'not an email' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  it.each([
    ['ivs_acme_owner', 200],
    ['ivs_acme_support', 200],
    ['ivs_acme_member', 403],
    ['ivs_acme_readonly', 403],
    ['ivs_acme_assigned', 403],
  ] as const)('seeded %s: GET /credits answers %i', async (token, status) => {
    const mock = createTestMock()
    const res = await mock.api(token).get('/credits')
    expect(res.status).toBe(status)
    if (status === 403) expect(res.body).toEqual(FORBIDDEN)
    else expect(res.body.total).toBe([...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')?.credits.size)
  })
})

describe('a member who left the team (role null)', () => {
  it('seeded ivs_left (Dan Whitaker) is 401 everywhere', async () => {
    const api = createTestMock().api('ivs_left')
    for (const path of ['/status', '/me', '/team', '/team/me', '/clients', '/organisations']) {
      const res = await api.get(path)
      expect(res.status, path).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
  })

  it('seeded Dan Whitaker is not a team member of Acme any more', async () => {
    const mock = createTestMock()
    const dan = mock.store.userByEmail('dan.whitaker@acme-recruitment.example') as UserRow
    const acme = [...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')
    const api = mock.api('ivs_acme_owner')
    const members = await api.get('/team/members', { limit: 100 })
    expect(members.status).toBe(200)
    expect(members.body.data.map((member: { id: number }) => member.id)).not.toContain(dan.id)
    expect(members.body.total).toBe(acme?.members.filter((member) => member.role !== null).length)
    const one = await api.get(`/teams/${acme?.id}/members/${dan.id}`)
    expect(one.status).toBe(404)
    expect(one.body).toEqual({ error: 'Team member not found' })
  })

  it('loses access the moment they leave, drops out of the members list and is 404 by id', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const left = team.users.member
    expect((await team.api('member').get('/status')).status).toBe(204)
    team.team.updateMember(team.members.member, { role: null })
    for (const path of ['/status', '/me', '/team/me', '/clients']) {
      const res = await team.api('member').get(path)
      expect(res.status, path).toBe(401)
      expect(res.body).toEqual(UNAUTHENTICATED)
    }
    const members = await team.api().get('/team/members')
    expect(members.body.data).toEqual(ROLES.filter((role) => role !== 'member').map((role) => memberJson(team.users[role], role)))
    const listed = await team.api().get(`/teams/${team.team.id}/members`)
    expect(listed.body).toEqual(members.body)
    const one = await team.api().get(`/teams/${team.team.id}/members/${left.id}`)
    expect(one.status).toBe(404)
    expect(one.body).toEqual({ error: 'Team member not found' })
  })
})

describe('client deletion by role (docs/specification-notes.md "Roles")', () => {
  const MATRIX: Array<[Role, boolean, boolean]> = [
    // role, may delete without records, may delete with records
    ['owner', true, true],
    ['assumed', true, true],
    ['member', true, false],
    ['assigned-only', true, false],
    ['read-only', false, false],
  ]

  const cases = MATRIX.flatMap(([role, plain, withRecords]) => [
    [role, 'without records', plain] as const,
    [role, 'with records', withRecords] as const,
  ])

  it.each(cases)('the %s deleting a client %s: allowed %s', async (role, records, allowed) => {
    const w = await world(['assigned-only'])
    if (records === 'with records') giveRecord(w.mock, w.team.team, w.client)
    const api = w.team.api(role)
    expect((await api.get(`/clients/${w.client}`)).body.is_deletable).toBe(allowed)
    const before = snapshot(w.mock)
    const res = await api.delete(`/clients/${w.client}`)
    if (allowed) {
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      const gone = await w.team.api().get(`/clients/${w.client}`)
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ error: 'Client not found' })
      expect(w.team.team.records.all()).toEqual([])
    } else {
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
      expectUnchanged(w.mock, before)
    }
  })

  it('an assigned-only member may not delete a client they are not assigned to, even without records', async () => {
    const w = await world()
    const before = snapshot(w.mock)
    const res = await w.team.api('assigned-only').delete(`/clients/${w.client}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expectUnchanged(w.mock, before)
  })
})
