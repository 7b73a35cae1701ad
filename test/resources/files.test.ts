// Files (docs/specification-notes.md "Attachments and files", docs/specification-notes.md "Clients", docs/specification-notes.md "Status codes and bodies"):
// GET /files, a client's files list, create (both forms), delete and download, and what deleting a
// client takes with it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { DocumentTemplateRow } from '../../src/resources/documents/rows.ts'
import type { FileRow } from '../../src/resources/files/index.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { assign } from '../support/requests.ts'
import { giveFile, giveForm, giveFormWithUploads, giveRecord } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'
import { ACCEPTED, EICAR, upload } from '../support/uploads.ts'

const MINUTE = 60_000
const SECOND = 1000
const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const CLIENT_NOT_FOUND = { error: 'Client not found' }
const FILE_NOT_FOUND = { error: 'File not found' }
const UNKNOWN = 987_654_321
const SAMPLES = fileURLToPath(new URL('../../fixtures/samples/', import.meta.url))

const PDF = (ACCEPTED[0] as { bytes: Uint8Array }).bytes

type NewTeam = ReturnType<TestMock['newTeam']>

async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const client = await newClient(api)
  return { mock, team, api, client, ctx: mock.teamContext(team.team) }
}

async function newClient(api: ApiClient, first = 'Ann', last = 'Lee'): Promise<number> {
  const res = await api.post('/clients', { name: { first_name: first, last_name: last }, email: `${first.toLowerCase()}@example.com` })
  expect(res.status, res.text).toBe(201)
  return res.body.id
}

/** Uploads a file (POST /attachments) and answers its attachment. */
async function uploaded(api: ApiClient, name = 'contract.pdf', bytes: Uint8Array = PDF) {
  const res = await upload(api, name, bytes)
  expect(res.status, res.text).toBe(201)
  return res.body
}

const files = (client: number) => `/clients/${client}/files`

/** The wire attachment of a stored file. */
function attachmentOf(team: NewTeam, file: FileRow) {
  const row = team.team.attachments.get(file.attachment)
  if (!row) throw new Error('no attachment')
  const { blob: _blob, redacted_at: _redacted, ...wire } = row
  return { object: 'attachment', ...wire }
}

/** The wire file of a stored file, collapsed. */
function fileJson(team: NewTeam, file: FileRow, object: 'file' | 'client_file', overrides: Record<string, unknown> = {}) {
  return {
    object,
    id: file.id,
    type: file.type,
    source: { id: file.source.id, type: file.source.type },
    name: file.name,
    attachment: attachmentOf(team, file),
    created_by: { id: file.created_by.id, type: file.created_by.type },
    is_deletable: file.is_deletable,
    expires_at: file.expires_at,
    created_at: file.created_at,
    updated_at: file.updated_at,
    redacted_at: null,
    ...overrides,
  }
}

function giveTemplate(mock: TestMock, team: NewTeam, overrides: Partial<DocumentTemplateRow> = {}): DocumentTemplateRow {
  return team.team.documentTemplates.insert({
    id: mock.store.nextId('document_template'),
    name: 'Proof of address',
    description: 'A recent utility bill or bank statement',
    content: 'Upload a utility bill or bank statement from the last three months showing your address.',
    is_enabled: true,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  })
}

describe('GET /files', () => {
  it("lists every file of the team's clients in id order as file objects, and nothing of another team", async () => {
    const { mock, team, api, client } = await setup()
    const second = await newClient(api, 'Bo', 'Hart')
    const a = giveFile(mock, team.team, client, { sample: 'passport', name: 'Passport' })
    const b = giveFile(mock, team.team, second, { sample: 'proofOfAddress', name: 'Utility bill', expires_at: '2027-01-01T00:00:00Z' })
    const c = giveFile(mock, team.team, client, { sample: 'selfie', type: 'received', source: { type: 'client_form', id: 3 }, created_by: { type: 'client', id: client } })
    const other = mock.newTeam()
    giveFile(mock, other.team, await newClient(other.api()))
    const res = await api.get('/files')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([fileJson(team, a, 'file'), fileJson(team, b, 'file'), fileJson(team, c, 'file')]))
    expect(res.body.data.map((file: { is_deletable: boolean }) => file.is_deletable)).toEqual([true, true, false])
    expect((await other.api().get('/files')).body.total).toBe(1)
  })

  it('sorts by created_at, updated_at and expires_at (nulls first ascending), both ways, ties by id', async () => {
    const { mock, team, api, client } = await setup()
    const a = giveFile(mock, team.team, client, { expires_at: '2027-03-01T00:00:00Z' })
    mock.clock.advance(MINUTE)
    const b = giveFile(mock, team.team, client, { expires_at: null })
    mock.clock.advance(MINUTE)
    const c = giveFile(mock, team.team, client, { expires_at: '2027-01-01T00:00:00Z' })
    team.team.files.update(a, { updated_at: at(5) })
    const ids = async (query: Record<string, string>) => (await api.get('/files', query)).body.data.map((file: { id: number }) => file.id)
    expect(await ids({})).toEqual([a.id, b.id, c.id])
    expect(await ids({ sort_by: 'created_at', order_by: 'desc' })).toEqual([c.id, b.id, a.id])
    expect(await ids({ sort_by: 'updated_at' })).toEqual([b.id, c.id, a.id])
    expect(await ids({ sort_by: 'expires_at' })).toEqual([b.id, c.id, a.id])
    expect(await ids({ sort_by: 'expires_at', order_by: 'desc' })).toEqual([a.id, c.id, b.id])
    const bad = await api.get('/files', { sort_by: 'name' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ sort_by: ['The selected sort by is invalid.'] })
  })

  it('pages with links carrying the query', async () => {
    const { mock, team, api, client } = await setup()
    const rows = [1, 2, 3].map(() => giveFile(mock, team.team, client))
    const res = await api.get('/files', { limit: 2, page: 2, sort_by: 'created_at' })
    expect(res.body).toEqual({
      object: 'paginated_list',
      data: [fileJson(team, rows[2] as FileRow, 'file')],
      total: 3,
      count: 1,
      limit: 2,
      current_page: 2,
      total_pages: 2,
      links: { next: null, previous: `${ORIGIN}/files?limit=2&page=1&sort_by=created_at` },
    })
  })

  it('expands source to the client, check, client document or record document itself, and created_by to the team member or client', async () => {
    const { mock, team, api, client } = await setup()
    const record = giveRecord(mock, team.team, client, { steps: [{ type: 'check.photo_id' }, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Latest' } }] })
    const check = record.steps[0]?.check as number
    const document = record.steps[1]?.document as number
    const template = giveTemplate(mock, team)
    const forClientDocument = await uploaded(api)
    expect((await api.post(files(client), { attachment: forClientDocument.id, template: template.id })).status).toBe(201)
    giveFile(mock, team.team, client, { name: 'Own upload' })
    giveFile(mock, team.team, client, { type: 'received', source: { type: 'check', id: check }, source_subtype: 'photo_id', created_by: { type: 'client', id: client } })
    giveFile(mock, team.team, client, { type: 'received', source: { type: 'record_document', id: document }, source_subtype: 'requested', created_by: { type: 'client', id: client } })
    const form = giveForm(mock, team.team, client)
    giveFile(mock, team.team, client, { type: 'received', source: { type: 'form', id: form.id }, created_by: { type: 'client', id: client } })
    giveFile(mock, team.team, client, { type: 'received', source: { type: 'record_document', id: UNKNOWN }, created_by: { type: 'client', id: client } })
    const res = await api.get('/files', { expand: 'source,created_by' })
    expect(res.status).toBe(200)
    const clientJson = (await api.get(`/clients/${client}`)).body
    const owner = team.users.owner
    const ownerJson = { object: 'team_member', id: owner.id, name: owner.name, email: owner.email, role: 'owner' }
    const documentJson = (await api.get(`/records/${record.id}/documents`)).body.data.find((row: { id: number }) => row.id === document)
    expect(res.body.data.map((file: { source: unknown; created_by: unknown }) => [file.source, file.created_by])).toEqual([
      [
        {
          object: 'client_document',
          id: expect.any(Number),
          client,
          name: 'Proof of address',
          config: { instructions: 'Upload a utility bill or bank statement from the last three months showing your address.' },
          created_at: NOW,
          updated_at: NOW,
        },
        ownerJson,
      ],
      [clientJson, ownerJson],
      [(await api.get(`/checks/${check}`)).body, clientJson],
      [documentJson, clientJson],
      // A form source is the form, named as its source type says (form here, client_form under a client).
      [{ ...(await api.get(`/clients/${client}/forms/${form.reference}`)).body, object: 'form' }, clientJson],
      // A source that no longer exists stays collapsed.
      [{ id: UNKNOWN, type: 'record_document' }, clientJson],
    ])
    const bad = await api.get('/files', { expand: 'attachment' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ expand: ['The expand parameter must be one of: source, created_by'] })
  })

  it('shows assigned-only members the files of the clients assigned to them, and read-only members nothing deletable', async () => {
    const { mock, team, api, client } = await setup()
    const hidden = await newClient(api, 'Cy', 'Hidden')
    const mine = giveFile(mock, team.team, client)
    giveFile(mock, team.team, hidden)
    await assign(api, `/clients/${client}/assignees`, [team.users['assigned-only'].id])
    expect((await team.api('assigned-only').get('/files')).body).toEqual(singlePage([fileJson(team, mine, 'file')]))
    expect((await team.api('read-only').get('/files')).body.data.map((file: { is_deletable: boolean }) => file.is_deletable)).toEqual([false, false])
    expect((await team.api('member').get('/files')).body.total).toBe(2)
  })

  it('lists the seeded files of a seeded team, whose bytes are the sample files', async () => {
    const mock = createTestMock()
    const api = mock.api()
    const acme = [...mock.store.allTeams()].find((team) => team.row.identifier === 'acme-recruitment')
    const seeded = acme?.files.all() ?? []
    expect(seeded.length).toBeGreaterThan(0)
    const res = await api.get('/files', { limit: 100 })
    expect(res.body.total).toBe(seeded.length)
    // The team's uploads, the record documents' and photo ID checks' files, and uploads to the internal forms.
    const kinds = new Set(res.body.data.map((file: { type: string; source: { type: string } }) => `${file.type} ${file.source.type}`))
    expect([...kinds].sort()).toEqual(['internal client', 'internal client_form', 'received check', 'received record_document'])
    expect(res.body.data.every((file: { attachment: { av_status: string } }) => file.attachment.av_status === 'clean')).toBe(true)
    const first = seeded[0] as FileRow
    const download = await api.get(`/clients/${first.client}/files/${first.id}/download`)
    expect(download.status).toBe(200)
    const sample = (acme?.attachments.get(first.attachment)?.blob ?? '').replace('sample:', '')
    expect(Buffer.from(download.bytes)).toEqual(readFileSync(`${SAMPLES}${sample}`))
  })
})

describe('GET /clients/{id}/files', () => {
  async function library() {
    const context = await setup()
    const { mock, team, client } = context
    const record = giveRecord(mock, team.team, client, { steps: [{ type: 'check.photo_id' }, { type: 'document.transfer', preferences: { name: 'Contract', attachment: 1, require_return: true } }] })
    const check = record.steps[0]?.check as number
    const document = record.steps[1]?.document as number
    const rows = {
      passport: giveFile(mock, team.team, client, { name: 'Passport scan', expires_at: '2027-06-01T00:00:00Z' }),
      selfie: giveFile(mock, team.team, client, { sample: 'selfie', name: 'Selfie', type: 'received', source: { type: 'check', id: check }, source_subtype: 'photo_id', created_by: { type: 'client', id: client } }),
      contract: giveFile(mock, team.team, client, { sample: 'contractOfEmployment', name: 'Contract of employment', type: 'sent', source: { type: 'record_document', id: document }, source_subtype: 'sent' }),
      returned: giveFile(mock, team.team, client, { sample: 'signature', name: 'Contract (signed)', type: 'received', source: { type: 'record_document', id: document }, source_subtype: 'returned', created_by: { type: 'client', id: client } }),
      statement: giveFile(mock, team.team, client, { sample: 'bankStatement', name: 'Bank statement – Ünited Bank', expires_at: '2026-12-01T00:00:00Z' }),
    }
    return { ...context, rows }
  }

  it("lists only the client's files as client_file objects, in id order", async () => {
    const { mock, team, api, client, rows } = await library()
    giveFile(mock, team.team, await newClient(api, 'Bo', 'Hart'))
    const res = await api.get(files(client))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage(Object.values(rows).map((row) => fileJson(team, row, 'client_file'))))
  })

  it('filters by source, and by source_type within a source', async () => {
    const { api, client, rows } = await library()
    const ids = async (query: Record<string, string>) => (await api.get(files(client), query)).body.data.map((file: { id: number }) => file.id)
    expect(await ids({ source: 'client' })).toEqual([rows.passport.id, rows.statement.id])
    expect(await ids({ source: 'check' })).toEqual([rows.selfie.id])
    expect(await ids({ source: 'record_document' })).toEqual([rows.contract.id, rows.returned.id])
    expect(await ids({ source: 'record_document', source_type: 'returned' })).toEqual([rows.returned.id])
    expect(await ids({ source: 'check', source_type: 'photo_id' })).toEqual([rows.selfie.id])
    expect(await ids({ source: 'check', source_type: 'reference' })).toEqual([])
    expect(await ids({ source: 'form' })).toEqual([])
  })

  it('requires source with source_type (422 keyed source), and checks both values', async () => {
    const { api, client } = await library()
    const cases: Array<[Record<string, string>, unknown]> = [
      [{ source_type: 'sent' }, { source: ['The source field is required when source type is present.'] }],
      [{ source: 'email' }, { source: ['The selected source is invalid.'] }],
      [{ source: 'check', source_type: 'passport' }, { source_type: ['The selected source type is invalid.'] }],
    ]
    for (const [query, body] of cases) {
      const res = await api.get(files(client), query)
      expect(res.status, JSON.stringify(query)).toBe(422)
      expect(res.body).toEqual(body)
    }
  })

  it('searches the file name: every word, any case, any accents', async () => {
    const { api, client, rows } = await library()
    const ids = async (search: string) => (await api.get(files(client), { search })).body.data.map((file: { id: number }) => file.id)
    expect(await ids('CONTRACT')).toEqual([rows.contract.id, rows.returned.id])
    expect(await ids('contract signed')).toEqual([rows.returned.id])
    expect(await ids('united bank')).toEqual([rows.statement.id])
    expect(await ids('pass scan')).toEqual([rows.passport.id])
    expect(await ids('visa')).toEqual([])
  })

  it('sorts by name, created_at and expires_at', async () => {
    const { mock, team, api, client } = await setup()
    const b = giveFile(mock, team.team, client, { name: 'bravo', expires_at: '2027-01-01T00:00:00Z' })
    mock.clock.advance(MINUTE)
    const a = giveFile(mock, team.team, client, { name: 'Alpha', expires_at: null })
    mock.clock.advance(MINUTE)
    const c = giveFile(mock, team.team, client, { name: 'charlie', expires_at: '2026-12-01T00:00:00Z' })
    const ids = async (query: Record<string, string>) => (await api.get(files(client), query)).body.data.map((file: { id: number }) => file.id)
    expect(await ids({ sort_by: 'name' })).toEqual([a.id, b.id, c.id])
    expect(await ids({ sort_by: 'name', order_by: 'desc' })).toEqual([c.id, b.id, a.id])
    expect(await ids({ sort_by: 'created_at', order_by: 'desc' })).toEqual([c.id, a.id, b.id])
    expect(await ids({ sort_by: 'expires_at' })).toEqual([a.id, c.id, b.id])
    expect((await api.get(files(client), { sort_by: 'updated_at' })).status).toBe(422)
  })

  it('expands source and created_by', async () => {
    const { api, client, rows } = await library()
    const res = await api.get(files(client), { expand: ['source', 'created_by'], source: 'check' })
    const clientJson = (await api.get(`/clients/${client}`)).body
    expect(res.body.data).toEqual([{ ...(await api.get(files(client), { source: 'check' })).body.data[0], source: (await api.get(`/checks/${rows.selfie.source.id}`)).body, created_by: clientJson }])
  })

  it("answers 404 Client not found for an unknown client and another team's, 403 to an assigned-only member not assigned to it", async () => {
    const { mock, team, api, client } = await setup()
    const other = mock.newTeam()
    const theirs = await newClient(other.api())
    for (const id of [UNKNOWN, theirs]) {
      const res = await api.get(files(id))
      expect(res.status).toBe(404)
      expect(res.body).toEqual(CLIENT_NOT_FOUND)
    }
    const res = await team.api('assigned-only').get(files(client))
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('POST /clients/{id}/files (docs/specification-notes.md "Clients")', () => {
  it("makes an internal file of the client from an unused attachment, named after its original by default, created by the caller", async () => {
    const { team, api, client } = await setup()
    const attachment = await uploaded(api, 'Signed contract.pdf')
    const res = await api.post(files(client), { attachment: attachment.id })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({
      object: 'client_file',
      id: expect.any(Number),
      type: 'internal',
      source: { id: client, type: 'client' },
      name: 'Signed contract.pdf',
      attachment,
      created_by: { id: team.users.owner.id, type: 'team_member' },
      is_deletable: true,
      expires_at: null,
      created_at: NOW,
      updated_at: NOW,
      redacted_at: null,
    })
    expect((await api.get(files(client))).body).toEqual(singlePage([res.body]))
    expect((await api.get('/files')).body.data).toEqual([{ ...res.body, object: 'file' }])
  })

  it('takes the attachment and template ids as strings of digits (docs/behaviour-notes.md "Validation (422)")', async () => {
    const { mock, team, api, client } = await setup()
    const template = giveTemplate(mock, team)
    const attachment = await uploaded(api, 'bill.pdf')
    const res = await api.post(files(client), { attachment: ` ${attachment.id}`, template: String(template.id) })
    expect(res.status, res.text).toBe(201)
    expect(res.body.attachment).toEqual(attachment)
    expect(team.team.clientDocuments.all()[0]?.template).toBe(template.id)
  })

  it('takes a name and an expiry, stored in UTC', async () => {
    const { api, client } = await setup()
    const attachment = await uploaded(api)
    const res = await api.post(files(client), { attachment: attachment.id, name: '  Contract  ', expires_at: '2027-01-31T09:30:00+02:00' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'Contract', expires_at: '2027-01-31T07:30:00Z' })
  })

  it('with a document template, makes a requested client document and makes it the source', async () => {
    const { mock, team, api, client } = await setup()
    const template = giveTemplate(mock, team)
    const attachment = await uploaded(api, 'bill.pdf')
    const res = await api.post(files(client), { attachment: attachment.id, template: template.id, name: 'Gas bill' })
    expect(res.status, res.text).toBe(201)
    const document = team.team.clientDocuments.all()[0]
    expect(document).toEqual({ id: expect.any(Number), client, template: template.id, name: 'Proof of address', config: { instructions: template.content }, created_at: NOW, updated_at: NOW })
    expect(res.body).toMatchObject({ type: 'internal', source: { id: document?.id, type: 'client_document' }, name: 'Gas bill', is_deletable: true })
    const listed = await api.get(files(client), { source: 'client_document', source_type: 'requested', expand: 'source' })
    expect(listed.body.data).toEqual([
      { ...res.body, source: { object: 'client_document', id: document?.id, client, name: 'Proof of address', config: { instructions: template.content }, created_at: NOW, updated_at: NOW } },
    ])
  })

  it('refuses (422) an unknown attachment, one of another team, one already used, and an unknown or disabled template', async () => {
    const { mock, team, api, client } = await setup()
    const other = mock.newTeam()
    const theirs = await uploaded(other.api())
    const used = await uploaded(api)
    expect((await api.post(files(client), { attachment: used.id })).status).toBe(201)
    const fresh = await uploaded(api)
    const disabled = giveTemplate(mock, team, { is_enabled: false })
    const invalid = { attachment: ['The selected attachment is invalid.'] }
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ attachment: UNKNOWN }, invalid],
      [{ attachment: theirs.id }, invalid],
      [{ attachment: used.id }, { attachment: ['The attachment has already been taken.'] }],
      [{ attachment: fresh.id, template: UNKNOWN }, { template: ['The selected template is invalid.'] }],
      [{ attachment: fresh.id, template: disabled.id }, { template: ['The selected template is invalid.'] }],
      [{ attachment: UNKNOWN, template: UNKNOWN }, { ...invalid, template: ['The selected template is invalid.'] }],
      [{}, { attachment: ['The attachment field is required.'] }],
      [{ attachment: 'one' }, { attachment: ['The attachment field must be an integer.'] }],
      [{ attachment: fresh.id, name: '' }, { name: ['The name field is required.'] }],
      [{ attachment: fresh.id, name: 'x'.repeat(256) }, { name: ['The name field must not be greater than 255 characters.'] }],
      [{ attachment: fresh.id, expires_at: 'next week' }, { expires_at: ['The expires at field must be a valid date.'] }],
      // Every failing key in one 422, the existence rules with the contract's (docs/behaviour-notes.md "Validation (422)").
      [{ attachment: String(UNKNOWN), template: disabled.id, name: 'x'.repeat(256) }, { ...invalid, template: ['The selected template is invalid.'], name: ['The name field must not be greater than 255 characters.'] }],
    ]
    const before = structuredClone(mock.store.data)
    for (const [body, expected] of cases) {
      const res = await api.post(files(client), body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(res.body, JSON.stringify(body)).toEqual(expected)
    }
    expect(mock.store.data).toEqual(before)
  })

  it('is refused to read-only members, and to assigned-only members not assigned to the client; 404 for an unknown client', async () => {
    const { team, api, client } = await setup()
    const attachment = await uploaded(api)
    for (const role of ['read-only', 'assigned-only'] as const) {
      const res = await team.api(role).post(files(client), { attachment: attachment.id })
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    const unknown = await api.post(files(UNKNOWN), { attachment: attachment.id })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(CLIENT_NOT_FOUND)
    expect(team.team.files.size).toBe(0)
  })
})

describe('DELETE /clients/{clientId}/files/{fileId}', () => {
  it('deletes a file with its attachment and the uploaded bytes', async () => {
    const { mock, team, api, client } = await setup()
    const attachment = await uploaded(api)
    const created = await api.post(files(client), { attachment: attachment.id })
    const path = mock.services.blobs.path(team.team.attachments.get(attachment.id)?.blob as string)
    const res = await api.delete(`${files(client)}/${created.body.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await api.get(files(client))).body.total).toBe(0)
    expect(team.team.attachments.get(attachment.id)).toBeUndefined()
    expect(existsSync(path)).toBe(false)
    const again = await api.delete(`${files(client)}/${created.body.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual(FILE_NOT_FOUND)
  })

  it('takes the client document of a template-made file with it', async () => {
    const { mock, team, api, client } = await setup()
    const template = giveTemplate(mock, team)
    const created = await api.post(files(client), { attachment: (await uploaded(api)).id, template: template.id })
    expect((await api.delete(`${files(client)}/${created.body.id}`)).status).toBe(204)
    expect(team.team.clientDocuments.size).toBe(0)
  })

  it("refuses (403) a file that is not deletable, such as a record document's, and keeps it", async () => {
    const { mock, team, api, client } = await setup()
    const file = giveFile(mock, team.team, client, { type: 'received', source: { type: 'record_document', id: 1 }, created_by: { type: 'client', id: client } })
    const res = await api.delete(`${files(client)}/${file.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect(team.team.files.get(file.id)).toBeDefined()
  })

  it("answers 404 File not found for another client's file and an unknown one, Client not found for an unknown client", async () => {
    const { mock, team, api, client } = await setup()
    const second = await newClient(api, 'Bo', 'Hart')
    const theirs = giveFile(mock, team.team, second)
    for (const id of [theirs.id, UNKNOWN]) {
      const res = await api.delete(`${files(client)}/${id}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(FILE_NOT_FOUND)
    }
    const res = await api.delete(`${files(UNKNOWN)}/${theirs.id}`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual(CLIENT_NOT_FOUND)
    expect(team.team.files.get(theirs.id)).toBeDefined()
  })

  it('is refused to read-only members', async () => {
    const { mock, team, client } = await setup()
    const file = giveFile(mock, team.team, client)
    const res = await team.api('read-only').delete(`${files(client)}/${file.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('GET /clients/{clientId}/files/{fileId}/download', () => {
  it.each(ACCEPTED.map((file) => [file.kind, file] as const))('gives a %s back byte for byte, with its type and file name, once scanned clean', async (_kind, file) => {
    const { mock, api, client } = await setup()
    const attachment = await uploaded(api, file.name, file.bytes)
    const created = await api.post(files(client), { attachment: attachment.id })
    mock.scheduler.advance(5 * SECOND)
    const res = await api.get(`${files(client)}/${created.body.id}/download`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(file.type)
    expect(res.headers.get('content-length')).toBe(String(file.bytes.length))
    expect(res.bytes).toEqual(file.bytes)
    const expectedName = file.name.normalize('NFKD').replace(/\p{M}/gu, '')
    expect(res.headers.get('content-disposition')).toBe(
      /^[\x20-\x7e]*$/.test(file.name) ? `attachment; filename="${file.name}"` : `attachment; filename="${expectedName}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
  })

  it("names the download after the file, with the attachment's extension when the name has none", async () => {
    const { mock, api, client } = await setup()
    const attachment = await uploaded(api, 'scan.pdf')
    const created = await api.post(files(client), { attachment: attachment.id, name: 'Passport "front"' })
    mock.scheduler.advance(5 * SECOND)
    const res = await api.get(`${files(client)}/${created.body.id}/download`)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Passport _front_.pdf"')
  })

  it.each([
    ['a lone high surrogate', 'scan \ud800.pdf', 'attachment; filename="scan _.pdf"; filename*=UTF-8\'\'scan%20%EF%BF%BD.pdf'],
    ['a lone low surrogate', '\udc00scan.pdf', 'attachment; filename="_scan.pdf"; filename*=UTF-8\'\'%EF%BF%BDscan.pdf'],
    ['a pair split the wrong way round', '\ude00\ud83d.pdf', 'attachment; filename="__.pdf"; filename*=UTF-8\'\'%EF%BF%BD%EF%BF%BD.pdf'],
    ['an emoji', 'smile \ud83d\ude00.pdf', 'attachment; filename="smile _.pdf"; filename*=UTF-8\'\'smile%20%F0%9F%98%80.pdf'],
    ['accents', 'Café Zoë.pdf', 'attachment; filename="Cafe Zoe.pdf"; filename*=UTF-8\'\'Caf%C3%A9%20Zo%C3%AB.pdf'],
    ['control characters', 'two\nlines\ttab.pdf', 'attachment; filename="two_lines_tab.pdf"; filename*=UTF-8\'\'two%0Alines%09tab.pdf'],
    ["characters RFC 5987 does not leave as they are", "it's (1)*é.pdf", 'attachment; filename="it\'s (1)*e.pdf"; filename*=UTF-8\'\'it%27s%20%281%29%2A%C3%A9.pdf'],
    ['quotes and a backslash beside non-ASCII', 'a"b\\ü.pdf', 'attachment; filename="a_b_u.pdf"; filename*=UTF-8\'\'a%22b%5C%C3%BC.pdf'],
  ])('downloads a file named with %s, with a safe Content-Disposition', async (_kind, name, disposition) => {
    const { mock, api, client } = await setup()
    const attachment = await uploaded(api, 'scan.pdf')
    const created = await api.post(files(client), { attachment: attachment.id, name })
    expect(created.status, created.text).toBe(201)
    mock.scheduler.advance(5 * SECOND)
    const res = await api.get(`${files(client)}/${created.body.id}/download`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-disposition')).toBe(disposition)
    expect(res.bytes).toEqual(PDF)
  })

  it('answers 423 while the scan is pending or ended in error or unsupported, and 410 when it found a virus (docs/specification-notes.md "Status codes and bodies")', async () => {
    const { mock, api, client } = await setup()
    const made = async (name: string, bytes: Uint8Array = PDF) => (await api.post(files(client), { attachment: (await uploaded(api, name, bytes)).id })).body.id
    const pending = await made('pending.pdf')
    const error = await made('broken+scan-error.pdf')
    const unsupported = await made('odd+scan-unsupported.pdf')
    const infected = await made('eicar.txt', new TextEncoder().encode(EICAR))
    const notComplete = { error: 'File scan is not yet complete' }
    const res = await api.get(`${files(client)}/${pending}/download`)
    expect(res.status).toBe(423)
    expect(res.body).toEqual(notComplete)
    mock.scheduler.advance(5 * SECOND)
    for (const id of [error, unsupported]) {
      const failed = await api.get(`${files(client)}/${id}/download`)
      expect(failed.status).toBe(423)
      expect(failed.body).toEqual(notComplete)
    }
    const virus = await api.get(`${files(client)}/${infected}/download`)
    expect(virus.status).toBe(410)
    expect(virus.body).toEqual({ error: 'File scan detected a virus' })
    expect((await api.get(`${files(client)}/${pending}/download`)).status).toBe(200)
  })

  it("is open to read-only members, not to assigned-only members not assigned to the client; 404 for another client's file", async () => {
    const { mock, team, api, client } = await setup()
    const file = giveFile(mock, team.team, client, { sample: 'signature' })
    const res = await team.api('read-only').get(`${files(client)}/${file.id}/download`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(res.bytes)).toEqual(readFileSync(`${SAMPLES}signature.png`))
    const hidden = await team.api('assigned-only').get(`${files(client)}/${file.id}/download`)
    expect(hidden.status).toBe(403)
    expect(hidden.body).toEqual(FORBIDDEN)
    const second = await newClient(api, 'Bo', 'Hart')
    const wrong = await api.get(`${files(second)}/${file.id}/download`)
    expect(wrong.status).toBe(404)
    expect(wrong.body).toEqual(FILE_NOT_FOUND)
  })
})

describe('deleting a client', () => {
  it('deletes its files, client documents and forms, and the attachments nothing else holds with their bytes', async () => {
    const { mock, team, api, client } = await setup()
    const template = giveTemplate(mock, team)
    const own = await uploaded(api, 'own.pdf')
    expect((await api.post(files(client), { attachment: own.id })).status).toBe(201)
    const requested = await uploaded(api, 'requested.pdf')
    expect((await api.post(files(client), { attachment: requested.id, template: template.id })).status).toBe(201)
    const answer = await uploaded(api, 'answer.pdf')
    giveFormWithUploads(mock, team.team, client, [answer.id])
    // An attachment that the team's library also holds stays.
    const shared = giveFile(mock, team.team, client, { sample: 'employeeHandbook' })
    team.team.libraryDocuments.insert({ id: mock.store.nextId('library_document'), name: 'Handbook', description: 'Staff handbook', is_enabled: true, attachment: shared.attachment, created_at: NOW, updated_at: NOW })
    const unassigned = await uploaded(api, 'unassigned.pdf')
    const other = await newClient(api, 'Bo', 'Hart')
    const kept = giveFile(mock, team.team, other)
    expect(readdirSync(mock.services.blobs.uploadsDir()).sort()).toEqual([own.name, requested.name, answer.name, unassigned.name].sort())

    expect((await api.delete(`/clients/${client}`)).status).toBe(204)

    expect(team.team.filesByClient.get(client)).toEqual([])
    expect(team.team.clientDocuments.size).toBe(0)
    expect(team.team.formsByClient.get(client)).toEqual([])
    expect([own.id, requested.id, answer.id].map((id) => team.team.attachments.get(id))).toEqual([undefined, undefined, undefined])
    expect(team.team.attachments.get(shared.attachment)).toBeDefined()
    expect(team.team.attachments.get(unassigned.id)).toBeDefined()
    expect(readdirSync(mock.services.blobs.uploadsDir())).toEqual([unassigned.name])
    expect((await api.get('/files')).body.data.map((file: { id: number }) => file.id)).toEqual([kept.id])
  })
})
