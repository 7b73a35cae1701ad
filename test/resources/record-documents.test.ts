// A record's documents (spec, Record document; FACTS.md "Records and steps"): made with the
// record for its document steps, completed by the client, listed by GET /records/{id}/documents.
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { completeRecordDocument, createRecordDocuments } from '../../src/resources/record-documents/index.ts'
import type { RecordRow, StepRow } from '../../src/resources/records/index.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { assign } from '../support/requests.ts'
import { giveRecord, type StepSetup } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'

const MINUTE = 60_000
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const RECORD_NOT_FOUND = { error: 'Record not found' }

type NewTeam = ReturnType<TestMock['newTeam']>

const REQUEST: StepSetup = { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip, please' } }
const TRANSFER: StepSetup = {
  type: 'document.transfer',
  preferences: { name: 'Employment contract', attachment: 77, require_return: true, require_confirmation: true, instructions: 'Sign page 3', return_message: 'Thanks!' },
}

async function setup(steps: StepSetup[] = [{ type: 'check.identity' }, REQUEST, TRANSFER]) {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const record = await newRecord(mock, team, api, steps)
  return { mock, team, api, record, ctx: mock.teamContext(team.team) }
}

async function newRecord(mock: TestMock, team: NewTeam, api: ApiClient, steps: StepSetup[]): Promise<RecordRow> {
  const res = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
  expect(res.status, res.text).toBe(201)
  return giveRecord(mock, team.team, res.body.id, { steps })
}

const documents = (record: RecordRow) => `/records/${record.id}/documents`

function requested(id: number, record: RecordRow, overrides: Record<string, unknown> = {}) {
  return {
    object: 'record_document',
    id,
    type: 'requested',
    name: 'Payslip',
    status: 'pending',
    config: { instructions: 'Your latest payslip, please' },
    source: { type: 'record', id: record.id },
    attachments: null,
    created_at: NOW,
    updated_at: NOW,
    completed_at: null,
    ...overrides,
  }
}

function sent(id: number, record: RecordRow, overrides: Record<string, unknown> = {}) {
  return {
    object: 'record_document',
    id,
    type: 'sent',
    name: 'Employment contract',
    status: 'pending',
    config: { require_return: true, require_confirmation: true, instructions: 'Sign page 3', return_message: 'Thanks!' },
    source: { type: 'record', id: record.id },
    attachments: [77],
    created_at: NOW,
    updated_at: NOW,
    completed_at: null,
    ...overrides,
  }
}

const stepOf = (record: RecordRow, type: StepRow['type']) => record.steps.find((step) => step.type === type) as StepRow

describe('record documents made with the record (createRecordDocuments)', () => {
  it('makes a pending requested document per document.request step and a sent one per document.transfer step, and links each step to it', async () => {
    const { api, record } = await setup()
    const [check, request, transfer] = record.steps as [StepRow, StepRow, StepRow]
    expect(check.document).toBeNull()
    expect(request.document).toEqual(expect.any(Number))
    expect(transfer.document).toBe((request.document as number) + 1)
    const res = await api.get(documents(record))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([requested(request.document as number, record), sent(transfer.document as number, record)]))
  })

  it('gives a transfer its settings with their defaults (false, null), and a transfer from a template a name', async () => {
    const { api, record } = await setup([{ type: 'document.transfer', preferences: { template: 4 } }])
    const res = await api.get(documents(record))
    expect(res.body.data).toEqual([
      sent(record.steps[0]!.document as number, record, {
        name: 'Document',
        config: { require_return: false, require_confirmation: false, instructions: null, return_message: null },
        attachments: null,
      }),
    ])
  })

  it('makes nothing for a record without document steps, and nothing twice', async () => {
    const { mock, team, api, record, ctx } = await setup()
    const before = structuredClone(mock.store.data)
    expect(createRecordDocuments(ctx, record)).toEqual([])
    expect(mock.store.data).toEqual(before)
    const bare = await newRecord(mock, team, api, [{ type: 'check.watchlist' }, { type: 'form' }])
    expect(bare.steps.map((step) => step.document)).toEqual([null, null])
    expect((await api.get(documents(bare))).body).toEqual(singlePage([]))
  })
})

describe('the client completing a document step (completeRecordDocument)', () => {
  it('completes a requested document with the uploaded attachments', async () => {
    const { mock, api, record, ctx } = await setup()
    mock.clock.advance(3 * MINUTE)
    const request = stepOf(record, 'document.request')
    const changed = completeRecordDocument(ctx, request, [501, 502, 501])
    expect(changed.map((row) => row.id)).toEqual([request.document])
    const res = await api.get(documents(record))
    expect(res.body.data[0]).toEqual(requested(request.document as number, record, { status: 'complete', attachments: [501, 502], updated_at: at(3), completed_at: at(3) }))
  })

  it('completes a transfer that requires a return and adds the returned document, whose source is the sent one', async () => {
    const { mock, api, record, ctx } = await setup()
    mock.clock.advance(3 * MINUTE)
    const transfer = stepOf(record, 'document.transfer')
    const [, returned] = completeRecordDocument(ctx, transfer, [900])
    expect(returned?.id).toEqual(expect.any(Number))
    const res = await api.get(documents(record))
    expect(res.body).toEqual(
      singlePage([
        requested(stepOf(record, 'document.request').document as number, record),
        sent(transfer.document as number, record, { status: 'complete', updated_at: at(3), completed_at: at(3) }),
        {
          object: 'record_document',
          id: returned?.id,
          type: 'returned',
          name: 'Employment contract',
          status: 'complete',
          config: null,
          source: { type: 'record_document', id: transfer.document },
          attachments: [900],
          created_at: at(3),
          updated_at: at(3),
          completed_at: at(3),
        },
      ]),
    )
    expect(stepOf(record, 'document.transfer').document).toBe(transfer.document)
  })

  it('only completes a transfer that requires no return', async () => {
    const { mock, api, record, ctx } = await setup([{ type: 'document.transfer', preferences: { name: 'Handbook', require_return: false } }])
    mock.clock.advance(MINUTE)
    expect(completeRecordDocument(ctx, record.steps[0]!)).toHaveLength(1)
    const res = await api.get(documents(record))
    expect(res.body.data).toEqual([
      expect.objectContaining({ type: 'sent', name: 'Handbook', status: 'complete', attachments: null, completed_at: at(1) }),
    ])
  })

  it('refuses a step without a document (a coding mistake)', async () => {
    const { record, ctx } = await setup()
    expect(() => completeRecordDocument(ctx, record.steps[0]!)).toThrow(/has no document/)
  })
})

describe('GET /records/{id}/documents', () => {
  it('pages in the order the documents were made, with links that keep the query', async () => {
    const { api, record, ctx } = await setup()
    completeRecordDocument(ctx, stepOf(record, 'document.transfer'), [1])
    const all = (await api.get(documents(record))).body.data
    expect(all).toHaveLength(3)
    const url = `${ORIGIN}${documents(record)}`
    const res = await api.get(documents(record), { limit: 2, page: 2, expand: 'attachments' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'paginated_list',
      data: [all[2]],
      total: 3,
      count: 1,
      limit: 2,
      current_page: 2,
      total_pages: 2,
      links: { next: null, previous: `${url}?limit=2&page=1&expand=attachments` },
    })
    const bad = await api.get(documents(record), { limit: 0 })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ limit: ['The limit field must be at least 1.'] })
  })

  it('takes expand=attachments (null stays null) and nothing else', async () => {
    const { api, record } = await setup([REQUEST])
    const res = await api.get(documents(record), { expand: 'attachments' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([requested(record.steps[0]!.document as number, record)]))
    const bad = await api.get(documents(record), { expand: 'source' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ expand: ['The expand parameter must be one of: attachments'] })
  })

  it('answers every role of the team, an assigned-only member only for a record assigned to them', async () => {
    const { team, api, record } = await setup()
    const expected = (await api.get(documents(record))).body
    for (const role of ROLES.filter((r) => r !== 'assigned-only')) {
      const res = await team.api(role).get(documents(record))
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(expected)
    }
    const mine = team.api('assigned-only')
    const forbidden = await mine.get(documents(record))
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual(FORBIDDEN)
    await assign(api, `/records/${record.id}/assignees`, [team.users['assigned-only'].id])
    const allowed = await mine.get(documents(record))
    expect(allowed.status).toBe(200)
    expect(allowed.body).toEqual(expected)
  })

  it('answers 404 for an unknown record and to every role of another team, 401 without a token', async () => {
    const { mock, api, record } = await setup()
    const unknown = await api.get('/records/987654321/documents')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(RECORD_NOT_FOUND)
    const other = mock.newTeam()
    for (const role of ROLES) {
      const res = await other.api(role).get(documents(record))
      expect(res.status, role).toBe(404)
      expect(res.body).toEqual(RECORD_NOT_FOUND)
    }
    const anonymous = await api.as(undefined).get(documents(record))
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'Unauthenticated.' })
  })
})
