// A record's documents (docs/specification-notes.md "Step reviews and record documents"): made with the
// record for its document steps (a transfer sends the team's attachment, which becomes a sent
// file of the client), completed by the client (a request holds their upload, a transfer that
// requires a return gets a returned document with their copy, each a received file), listed by
// GET /records/{id}/documents with expand=attachments.
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { insertAttachment, sampleAttachment } from '../../src/resources/attachments/index.ts'
import type { AttachmentRow } from '../../src/resources/attachments/index.ts'
import { completeRecordDocument, createRecordDocuments } from '../../src/resources/record-documents/index.ts'
import type { RecordRow, StepRow } from '../../src/resources/records/index.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { assign } from '../support/requests.ts'
import { giveRecord } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'
import type { Draft } from '../../src/store/table.ts'

const MINUTE = 60_000
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const RECORD_NOT_FOUND = { error: 'Record not found' }
const STORED = (extension: string) => new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.${extension}$`)

type NewTeam = ReturnType<TestMock['newTeam']>

const IDENTITY = { type: 'check.identity' }
const REQUEST = { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip, please' } }
const transfer = (attachment: number) => ({
  type: 'document.transfer',
  preferences: { name: 'Employment contract', attachment, require_return: true, require_confirmation: true, instructions: 'Sign page 3', return_message: 'Thanks!' },
})

/** A new team with a client, the team's contract (an attachment) and a record made through the API with the given steps. */
async function setup(steps: (contract: AttachmentRow) => unknown[] = (contract) => [IDENTITY, REQUEST, transfer(contract.id)]) {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const ctx = mock.teamContext(team.team)
  const contract = sampleAttachment(ctx, 'contractOfEmployment', 'employment-contract.pdf')
  const client = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
  expect(client.status).toBe(201)
  const record = await newRecord(team, api, client.body.id, steps(contract))
  return { mock, team, api, ctx, contract, client: client.body.id as number, record }
}

async function newRecord(team: NewTeam, api: ApiClient, client: number, steps: unknown[]): Promise<RecordRow> {
  const res = await api.post('/records', { client, notification: false, steps })
  expect(res.status, res.text).toBe(201)
  return team.team.records.get(res.body.id) as RecordRow
}

const documents = (record: RecordRow) => `/records/${record.id}/documents`

const stepOf = (record: RecordRow, type: StepRow['type']) => record.steps.find((step) => step.type === type) as StepRow
const documentOf = (record: RecordRow, type: StepRow['type']) => stepOf(record, type).document as number

function requested(record: RecordRow, overrides: Record<string, unknown> = {}) {
  return {
    object: 'record_document',
    id: documentOf(record, 'document.request'),
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

function sent(record: RecordRow, attachments: unknown, overrides: Record<string, unknown> = {}) {
  return {
    object: 'record_document',
    id: documentOf(record, 'document.transfer'),
    type: 'sent',
    name: 'Employment contract',
    status: 'pending',
    config: { require_return: true, require_confirmation: true, instructions: 'Sign page 3', return_message: 'Thanks!' },
    source: { type: 'record', id: record.id },
    attachments,
    created_at: NOW,
    updated_at: NOW,
    completed_at: null,
    ...overrides,
  }
}

/** An attachment on the wire (expand=attachments). */
function attachment(row: AttachmentRow) {
  const { blob: _blob, redacted_at: _redacted, ...wire } = row
  return { object: 'attachment', ...wire }
}

/** A client file row as record documents add it. */
function file(fields: Record<string, unknown>, when = NOW) {
  return { id: expect.any(Number), is_deletable: false, expires_at: null, created_at: when, updated_at: when, ...fields }
}

/** The sent file a record's transfer step adds for the client. */
function sentFile(client: number, record: RecordRow, name: string, attachment: number, sender: number) {
  const source = { type: 'record_document', id: documentOf(record, 'document.transfer') }
  return file({ client, type: 'sent', source, source_subtype: 'sent', name, attachment, created_by: { type: 'team_member', id: sender } })
}

describe('record documents made with the record', () => {
  it('makes a pending requested document per document.request step and a sent one per document.transfer step, holding the attachment it sends', async () => {
    const { api, record, contract } = await setup()
    const [check, request, transferStep] = record.steps as [StepRow, StepRow, StepRow]
    expect(check.document).toBeNull()
    expect(request.document).toEqual(expect.any(Number))
    expect(transferStep.document).toBe((request.document as number) + 1)
    const res = await api.get(documents(record))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([requested(record), sent(record, [contract.id])]))
  })

  it("makes the sent attachment a sent file of the client, created by the record's creator", async () => {
    const { team, record, contract, client } = await setup()
    expect(team.team.filesByClient.get(client)).toEqual([sentFile(client, record, 'Employment contract', contract.id, team.users.owner.id)])
  })

  it('sends a library document named as template under its name, with its settings defaulted (false, null)', async () => {
    const { team, api, client } = await setup(() => [IDENTITY])
    const handbook = team.team.libraryDocuments.all()[0]
    if (!handbook) throw new Error('no library document')
    const record = await newRecord(team, api, client, [{ type: 'document.transfer', preferences: { template: handbook.id } }])
    const res = await api.get(documents(record), { expand: 'attachments' })
    expect(res.body.data).toEqual([
      sent(record, [attachment(team.team.attachments.get(handbook.attachment) as AttachmentRow)], {
        name: 'Employee handbook',
        config: { require_return: false, require_confirmation: false, instructions: null, return_message: null },
      }),
    ])
    expect(team.team.filesByClient.get(client)).toEqual([sentFile(client, record, 'Employee handbook', handbook.attachment, team.users.owner.id)])
  })

  it("sends as the team's owner for a record made without a creator, and keeps only the team's own attachments", async () => {
    const { mock, team, client, contract } = await setup(() => [IDENTITY])
    const foreign = sampleAttachment(mock.teamContext(mock.newTeam().team), 'privacyNotice')
    const record = giveRecord(mock, team.team, client, {
      steps: [
        { type: 'document.transfer', preferences: { name: 'Contract', attachment: contract.id, require_return: false } },
        { type: 'document.transfer', preferences: { name: 'Not ours', attachment: foreign.id, require_return: false } },
      ],
    })
    const [ours, theirs] = record.steps.map((step) => team.team.recordDocuments.get(step.document as number))
    expect([ours?.attachments, theirs?.attachments]).toEqual([[contract.id], []])
    expect(team.team.filesByClient.get(client).map((row) => [row.attachment, row.created_by])).toEqual([[contract.id, { type: 'team_member', id: team.users.owner.id }]])
  })

  it('makes nothing for a record without document steps, and nothing twice', async () => {
    const { mock, team, api, record, ctx, client } = await setup()
    const before = structuredClone(mock.store.data)
    // A record made again from a stored one whose steps have their documents: nothing is made.
    expect(createRecordDocuments(ctx, structuredClone(record) as Draft<RecordRow>)).toEqual([])
    expect(mock.store.data).toEqual(before)
    const bare = await newRecord(team, api, client, [{ type: 'check.watchlist' }])
    expect(bare.steps.map((step) => step.document)).toEqual([null])
    expect((await api.get(documents(bare))).body).toEqual(singlePage([]))
  })
})

describe('the client completing document steps (POST /_mock/records/{id}/complete)', () => {
  it("completes a request with the client's upload: a sample suiting its name, scanned clean, a received file", async () => {
    const { mock, team, api, record, client } = await setup()
    mock.clock.advance(3 * MINUTE)
    expect((await mock.control.post(`/records/${record.id}/complete`, {})).status).toBe(200)
    const [upload] = team.team.recordDocuments.get(documentOf(record, 'document.request'))?.attachments ?? []
    const row = team.team.attachments.get(upload as number) as AttachmentRow
    expect(row).toEqual({
      id: upload,
      name: expect.stringMatching(STORED('pdf')),
      original: 'payslip.pdf',
      type: 'application/pdf',
      size: mock.services.blobs.size('sample:bank-statement.pdf'),
      av_status: 'clean',
      blob: 'sample:bank-statement.pdf',
      redacted_at: null,
      created_at: at(3),
      updated_at: at(3),
    })
    const res = await api.get(documents(record), { expand: 'attachments' })
    expect(res.body.data[0]).toEqual(requested(record, { status: 'complete', attachments: [attachment(row)], updated_at: at(3), completed_at: at(3) }))
    expect(team.team.filesByClient.get(client).filter((row) => row.source_subtype === 'requested')).toEqual([
      file(
        {
          client,
          type: 'received',
          source: { type: 'record_document', id: documentOf(record, 'document.request') },
          source_subtype: 'requested',
          name: 'Payslip',
          attachment: upload,
          created_by: { type: 'client', id: client },
        },
        at(3),
      ),
    ])
  })

  it("completes a transfer that requires a return with the returned document (source: the sent one), holding the client's signed copy", async () => {
    const { mock, team, api, record, contract, client } = await setup()
    mock.clock.advance(3 * MINUTE)
    await mock.control.post(`/records/${record.id}/complete`, {})
    const all = team.team.documentsByRecord.get(record.id)
    expect(all.map((row) => row.type)).toEqual(['requested', 'sent', 'returned'])
    const returned = all[2]
    const copy = team.team.attachments.get(returned?.attachments[0] as number) as AttachmentRow
    expect(copy).toMatchObject({ original: 'employment-contract-signed.pdf', type: 'application/pdf', blob: 'sample:contract-of-employment.pdf', av_status: 'clean', created_at: at(3) })
    const upload = team.team.attachments.get(all[0]?.attachments[0] as number) as AttachmentRow
    const returnedWire = {
      object: 'record_document',
      id: returned?.id,
      type: 'returned',
      name: 'Employment contract',
      status: 'complete',
      config: null,
      source: { type: 'record_document', id: documentOf(record, 'document.transfer') },
      attachments: [copy.id],
      created_at: at(3),
      updated_at: at(3),
      completed_at: at(3),
    }
    const completed = { status: 'complete', updated_at: at(3), completed_at: at(3) }
    expect((await api.get(documents(record))).body).toEqual(
      singlePage([requested(record, { ...completed, attachments: [upload.id] }), sent(record, [contract.id], completed), returnedWire]),
    )
    expect((await api.get(documents(record), { expand: 'attachments' })).body).toEqual(
      singlePage([
        requested(record, { ...completed, attachments: [attachment(upload)] }),
        sent(record, [attachment(contract)], completed),
        { ...returnedWire, attachments: [attachment(copy)] },
      ]),
    )
    expect(team.team.filesByClient.get(client).map((row) => [row.type, row.source_subtype, row.source, row.attachment, row.created_by.type])).toEqual([
      ['sent', 'sent', { type: 'record_document', id: documentOf(record, 'document.transfer') }, contract.id, 'team_member'],
      ['received', 'requested', { type: 'record_document', id: documentOf(record, 'document.request') }, upload.id, 'client'],
      ['received', 'returned', { type: 'record_document', id: returned?.id }, copy.id, 'client'],
    ])
  })

  it('only completes a transfer that requires no return: nothing comes back', async () => {
    const { mock, team, api, record, client } = await setup((contract) => [{ type: 'document.transfer', preferences: { name: 'Handbook', attachment: contract.id, require_return: false } }])
    mock.clock.advance(MINUTE)
    await mock.control.post(`/records/${record.id}/complete`, {})
    const res = await api.get(documents(record))
    expect(res.body.data).toEqual([expect.objectContaining({ type: 'sent', name: 'Handbook', status: 'complete', completed_at: at(1) })])
    expect(team.team.filesByClient.get(client).map((row) => row.type)).toEqual(['sent'])
  })

  it('returns a copy suiting the name when the team sent its own upload', async () => {
    const { mock, team, ctx, client } = await setup(() => [IDENTITY])
    const upload = insertAttachment(ctx, { original: 'terms.pdf', type: 'application/pdf', blob: 'upload:terms.pdf', size: 1_234, av_status: 'clean' })
    const record = giveRecord(mock, team.team, client, { steps: [{ type: 'document.transfer', preferences: { name: 'Terms of business', attachment: upload.id, require_return: true } }] })
    const [, returned] = completeRecordDocument(ctx, record, record.steps[0] as StepRow)
    expect(team.team.attachments.get(returned?.attachments[0] as number)).toMatchObject({ original: 'terms-of-business-signed.pdf', blob: 'sample:contract-of-employment.pdf' })
  })

  it.each([
    ['Proof of address', 'proof-of-address.pdf', 'sample:proof-of-address.pdf'],
    ['Bank statement (3 months)', 'bank-statement-3-months.pdf', 'sample:bank-statement.pdf'],
    ['Passport', 'passport.jpg', 'sample:passport.jpg'],
    ['Driving licence (both sides)', 'driving-licence-both-sides.jpg', 'sample:driving-licence.jpg'],
    ['Something else', 'something-else.pdf', 'sample:proof-of-address.pdf'],
  ])('a request named %j gets %s', async (title, original, blob) => {
    const { mock, team, api, client } = await setup(() => [IDENTITY])
    const record = await newRecord(team, api, client, [{ type: 'document.request', preferences: { title, instructions: 'Please.' } }])
    await mock.control.post(`/records/${record.id}/complete`, {})
    const [upload] = team.team.recordDocuments.get(documentOf(record, 'document.request'))?.attachments ?? []
    expect(team.team.attachments.get(upload as number)).toMatchObject({ original, blob })
  })
})

describe('completeRecordDocument', () => {
  it('holds the uploads given (each once), each a received file', async () => {
    const { team, record, ctx, client } = await setup()
    const first = sampleAttachment(ctx, 'proofOfAddress', 'bill.pdf')
    const second = sampleAttachment(ctx, 'bankStatement', 'statement.pdf')
    const request = stepOf(record, 'document.request')
    const changed = completeRecordDocument(ctx, record, request, [first.id, second.id, first.id])
    expect(changed.map((row) => [row.id, row.attachments])).toEqual([[request.document, [first.id, second.id]]])
    expect(team.team.filesByClient.get(client).filter((row) => row.type === 'received').map((row) => row.attachment)).toEqual([first.id, second.id])
  })

  it('refuses a step without a document or an attachment the team does not have (coding mistakes)', async () => {
    const { record, ctx } = await setup()
    expect(() => completeRecordDocument(ctx, record, record.steps[0] as StepRow)).toThrow(/has no document/)
    expect(() => completeRecordDocument(ctx, record, stepOf(record, 'document.request'), [987_654])).toThrow(/has no attachment 987654/)
  })
})

describe('GET /records/{id}/documents', () => {
  it('pages in the order the documents were made, with links that keep the query', async () => {
    const { mock, api, record } = await setup()
    await mock.control.post(`/records/${record.id}/complete`, {})
    const all = (await api.get(documents(record), { expand: 'attachments' })).body.data
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
    const { api, record } = await setup(() => [REQUEST])
    const res = await api.get(documents(record), { expand: 'attachments' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([requested(record)]))
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

describe('seeded records', () => {
  it('hold what their clients uploaded: every completed request has its attachment and a received file', () => {
    const mock = createTestMock()
    for (const team of mock.store.allTeams()) {
      for (const document of team.recordDocuments) {
        const record = team.records.get(document.record) as RecordRow
        if (document.type !== 'requested') continue
        expect(document.attachments.length, `${document.id}`).toBe(document.status === 'complete' ? 1 : 0)
        for (const id of document.attachments) {
          expect(team.attachments.get(id)).toMatchObject({ original: 'proof-of-address.pdf', blob: 'sample:proof-of-address.pdf', av_status: 'clean' })
          expect(team.filesByAttachment.get(id)).toEqual([expect.objectContaining({ client: record.client, type: 'received', source_subtype: 'requested', created_by: { type: 'client', id: record.client } })])
        }
      }
    }
  })
})
