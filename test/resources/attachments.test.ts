// Attachments (docs/specification-notes.md "Attachments and files", docs/specification-notes.md "Status codes and bodies" and
// docs/specification-notes.md "Wire details"): multipart uploads typed by their content, the
// virus scan on the mock's clock, deletion of unused attachments and redaction. The 101 MB upload
// runs against the real server in a child process, with its memory measured.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { toTimestamp } from '../../src/kernel/clock.ts'
import { JOBS } from '../../src/lifecycle/schedule.ts'
import type { AttachmentRow } from '../../src/resources/attachments/index.ts'
import { BlobStore } from '../../src/store/blobs.ts'
import type { ApiClient } from '../support/api.ts'
import { at, createTestMock, NOW, TEST_NOW, type TestMock } from '../support/mock.ts'
import { giveFile, giveFormWithUploads, giveRecord } from '../support/rows.ts'
import { ACCEPTED, EICAR, REFUSED, TOO_LARGE_PAGE, TYPE_ERROR, upload, uploadForm, zipOf } from '../support/uploads.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const NOT_FOUND = { error: 'Attachment not found' }
const UNKNOWN = 987_654_321
const SECOND = 1000
const REDACTED_PNG = readFileSync(fileURLToPath(new URL('../../fixtures/samples/redacted.png', import.meta.url)))

const EXTENSION: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel': 'xls',
  'text/csv': 'csv',
  'text/plain': 'txt',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/tiff': 'tiff',
  'application/zip': 'zip',
}

const PDF = (ACCEPTED[0] as { bytes: Uint8Array }).bytes
const ascii = (text: string) => new TextEncoder().encode(text)

type NewTeam = ReturnType<TestMock['newTeam']>

function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  return { mock, team, api: team.api(), ctx: mock.teamContext(team.team) }
}

/** What the uploads folder holds (stored uploads and anything left behind). */
const uploadsOf = (mock: TestMock) => readdirSync(mock.services.blobs.uploadsDir())

const attachmentRow = (team: NewTeam, id: number) => team.team.attachments.get(id) as AttachmentRow

/** The attachment as POST /attachments answers it. */
function attachmentJson(id: number, original: string, type: string, size: number, overrides: Record<string, unknown> = {}) {
  return {
    object: 'attachment',
    id,
    name: expect.stringMatching(new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.${EXTENSION[type]}$`)),
    original,
    type,
    size,
    av_status: 'pending',
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  }
}

async function newClient(api: ApiClient): Promise<number> {
  const res = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
  expect(res.status, res.text).toBe(201)
  return res.body.id
}

/** Uploads a file and makes it a file of a new client; the attachment as the client's files list shows it. */
async function uploadedFile(api: ApiClient, name: string, bytes: Uint8Array) {
  const uploaded = await upload(api, name, bytes)
  expect(uploaded.status, uploaded.text).toBe(201)
  const client = await newClient(api)
  const file = await api.post(`/clients/${client}/files`, { attachment: uploaded.body.id })
  expect(file.status, file.text).toBe(201)
  const attachment = async () => (await api.get(`/clients/${client}/files`)).body.data[0].attachment
  return { attachment: uploaded.body, client, file: file.body, current: attachment }
}

describe('POST /attachments', () => {
  it.each(ACCEPTED.map((file) => [file.kind, file] as const))('stores a %s with the type its content shows, pending its virus scan, byte for byte', async (_kind, file) => {
    const { mock, team, api } = setup()
    const res = await upload(api, file.name, file.bytes)
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual(attachmentJson(res.body.id, file.name, file.type, file.bytes.length))
    const row = attachmentRow(team, res.body.id)
    expect(row.blob).toBe(BlobStore.upload(res.body.name))
    expect(new Uint8Array(mock.services.blobs.read(row.blob))).toEqual(file.bytes)
    expect(uploadsOf(mock)).toEqual([res.body.name])
  })

  it('decides the type by the content, never by the name or the declared type', async () => {
    const { api } = setup()
    const png = ACCEPTED.find((file) => file.kind === 'png')?.bytes as Uint8Array
    const docx = ACCEPTED.find((file) => file.kind === 'docx')?.bytes as Uint8Array
    const cases: Array<[string, Uint8Array, string, string]> = [
      ['photo.jpg', PDF, 'image/jpeg', 'application/pdf'],
      ['scan.pdf', png, 'application/pdf', 'image/png'],
      ['archive.zip', docx, 'application/zip', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['report.docx', zipOf({ 'notes.txt': 'not a Word document' }), 'application/octet-stream', 'application/zip'],
      ['README', ascii('plain words'), 'application/octet-stream', 'text/plain'],
      ['table.CSV', ascii('a;b\n1;2\n'), 'text/plain', 'text/csv'],
    ]
    for (const [name, bytes, declared, type] of cases) {
      const res = await upload(api, name, bytes, declared)
      expect(res.status, name).toBe(201)
      expect(res.body.type, name).toBe(type)
    }
  })

  it('keeps the file name the client gave, any characters included, as original', async () => {
    const { api } = setup()
    const res = await upload(api, 'Zoë Ng – passport (copy).pdf', PDF)
    expect(res.status).toBe(201)
    expect(res.body.original).toBe('Zoë Ng – passport (copy).pdf')
  })

  it.each(REFUSED.map((file) => [file.kind, file] as const))('refuses %s with 422 keyed attachment, and keeps nothing', async (_kind, file) => {
    const { mock, team, api } = setup()
    const res = await upload(api, file.name, file.bytes)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(TYPE_ERROR)
    expect(team.team.attachments.size).toBe(team.team.libraryDocuments.size)
    expect(uploadsOf(mock)).toEqual([])
    expect(mock.scheduler.pending().filter((job) => job.kind === JOBS.scan)).toEqual([])
  })

  it('requires the attachment field as a file', async () => {
    const { mock, team, api } = setup()
    const asText = new FormData()
    asText.append('attachment', 'not a file')
    const emptyText = new FormData()
    emptyText.append('attachment', '')
    const noFileChosen = new FormData()
    noFileChosen.append('attachment', new Blob([]), '')
    const required = { attachment: ['The attachment field is required.'] }
    for (const [body, expected] of [
      [uploadForm('contract.pdf', PDF, { field: 'document' }), required],
      [asText, { attachment: ['The attachment field must be a file.'] }],
      [emptyText, required],
      [noFileChosen, required],
      [new FormData(), required],
      [{ attachment: 1 }, required],
      [undefined, required],
    ] as const) {
      const res = await api.request('POST', '/attachments', { body })
      expect(res.status).toBe(422)
      expect(res.body).toEqual(expected)
    }
    expect(team.team.attachments.size).toBe(team.team.libraryDocuments.size)
    expect(uploadsOf(mock)).toEqual([])
  })

  it('takes the first attachment of a body with several, and ignores other fields and files', async () => {
    const { mock, api } = setup()
    const form = uploadForm('first.pdf', PDF)
    form.append('attachment', new Blob([ascii('second')]), 'second.txt')
    form.append('note', 'ignored')
    form.append('other', new Blob([ascii('other')]), 'other.txt')
    const res = await api.request('POST', '/attachments', { body: form })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(attachmentJson(res.body.id, 'first.pdf', 'application/pdf', PDF.length))
    expect(uploadsOf(mock)).toEqual([res.body.name])
  })

  it("refuses a body whose Content-Length is over the limit (100 MB and 1 MB of multipart overhead) with the web server's HTML 413 page, reading none of it", async () => {
    const { mock, team, api } = setup()
    let pulled = 0
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++
          controller.enqueue(ascii('--b\r\n'))
        },
      },
      { highWaterMark: 0 },
    )
    const res = await api.request('POST', '/attachments', {
      raw: body,
      headers: { 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': String(102 * 1024 * 1024) },
    })
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toBe('text/html')
    expect(res.headers.get('connection')).toBe('close')
    expect(res.text).toBe(TOO_LARGE_PAGE)
    expect(pulled).toBe(0)
    expect(team.team.attachments.size).toBe(team.team.libraryDocuments.size)
    expect(uploadsOf(mock)).toEqual([])
  })

  it('is refused to read-only members (403) before anything is read, and to callers without a token (401)', async () => {
    const { mock, team } = setup()
    const forbidden = await team.api('read-only').request('POST', '/attachments', { body: uploadForm('contract.pdf', PDF) })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual(FORBIDDEN)
    const anonymous = await team.api().as(undefined).request('POST', '/attachments', { body: uploadForm('contract.pdf', PDF) })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'Unauthenticated.' })
    expect(team.team.attachments.size).toBe(team.team.libraryDocuments.size)
    expect(uploadsOf(mock)).toEqual([])
  })

  it.each(['member', 'assigned-only', 'assumed'] as const)('is open to the %s', async (role) => {
    const { team } = setup()
    const res = await upload(team.api(role), 'contract.pdf', PDF)
    expect(res.status).toBe(201)
  })
})

describe('the virus scan (docs/specification-notes.md "Attachments and files": av_status), on the mock clock', () => {
  it('is pending until the scan delay has passed, then clean', async () => {
    const { mock, api } = setup()
    const { attachment, current } = await uploadedFile(api, 'contract.pdf', PDF)
    mock.scheduler.advance(4 * SECOND)
    expect(await current()).toEqual({ ...attachment, av_status: 'pending' })
    mock.scheduler.advance(SECOND)
    expect(await current()).toEqual({ ...attachment, av_status: 'clean', updated_at: toTimestamp(new Date(TEST_NOW.getTime() + 5 * SECOND)) })
  })

  it('takes as long as the scan delay says (--scan-delay)', async () => {
    const { mock, api } = setup()
    mock.services.behaviour.scanDelaySeconds = 60
    const { current } = await uploadedFile(api, 'contract.pdf', PDF)
    mock.scheduler.advance(59 * SECOND)
    expect((await current()).av_status).toBe('pending')
    mock.scheduler.advance(SECOND)
    expect(await current()).toMatchObject({ av_status: 'clean', updated_at: at(1) })
  })

  it.each([
    ['the EICAR test file', 'eicar.txt', ascii(EICAR), 'infected'],
    ['the EICAR string inside an archive', 'bundle.zip', zipOf({ 'readme.txt': 'hello', 'eicar.com': EICAR }), 'infected'],
    ['a name tagged +scan-infected', 'contract+scan-infected.pdf', PDF, 'infected'],
    ['a name tagged +scan-error', 'contract+scan-error.pdf', PDF, 'error'],
    ['a name tagged +scan-unsupported', 'Contract+Scan-Unsupported.pdf', PDF, 'unsupported'],
    ['anything else', 'contract+scan.pdf', PDF, 'clean'],
  ] as const)('finds %s %s', async (_what, name, bytes, status) => {
    const { mock, api } = setup()
    const { current } = await uploadedFile(api, name, bytes)
    mock.scheduler.advance(5 * SECOND)
    expect((await current()).av_status).toBe(status)
  })
})

describe('DELETE /attachments/{id}', () => {
  it('deletes an attachment nothing uses, with its bytes and its scan', async () => {
    const { mock, team, api } = setup()
    const uploaded = await upload(api, 'contract.pdf', PDF)
    const path = mock.services.blobs.path(attachmentRow(team, uploaded.body.id).blob)
    expect(existsSync(path)).toBe(true)
    const res = await api.delete(`/attachments/${uploaded.body.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(team.team.attachments.get(uploaded.body.id)).toBeUndefined()
    expect(existsSync(path)).toBe(false)
    expect(uploadsOf(mock)).toEqual([])
    expect(mock.scheduler.pending().filter((job) => job.kind === JOBS.scan && job.subject === uploaded.body.id)).toEqual([])
    const again = await api.delete(`/attachments/${uploaded.body.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual(NOT_FOUND)
  })

  it("answers 404 Attachment not found for an unknown id and for another team's attachment", async () => {
    const { mock, api } = setup()
    const other = mock.newTeam()
    const theirs = await upload(other.api(), 'contract.pdf', PDF)
    for (const id of [UNKNOWN, theirs.body.id]) {
      const res = await api.delete(`/attachments/${id}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
    expect(other.team.attachments.get(theirs.body.id)).toBeDefined()
  })

  it.each(['a client file', 'a library document', 'a record document', 'a form answer'] as const)('refuses (403) an attachment used by %s, and keeps it', async (holder) => {
    const { mock, team, api } = setup()
    const uploaded = await upload(api, 'contract.pdf', PDF)
    const id = uploaded.body.id as number
    const client = await newClient(api)
    if (holder === 'a client file') expect((await api.post(`/clients/${client}/files`, { attachment: id })).status).toBe(201)
    if (holder === 'a library document') {
      team.team.libraryDocuments.insert({ id: mock.store.nextId('library_document'), name: 'Handbook', description: 'Staff handbook', is_enabled: true, attachment: id, created_at: NOW, updated_at: NOW })
    }
    if (holder === 'a record document') {
      const record = giveRecord(mock, team.team, client, { steps: [{ type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip' } }] })
      const document = team.team.recordDocuments.get(record.steps[0]?.document as number)!
      team.team.recordDocuments.update(document, { attachments: [...document.attachments, id] })
    }
    if (holder === 'a form answer') giveFormWithUploads(mock, team.team, client, [id])
    const res = await api.delete(`/attachments/${id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect(team.team.attachments.get(id)).toBeDefined()
    expect(uploadsOf(mock)).toEqual([uploaded.body.name])
  })

  it('is refused to read-only members', async () => {
    const { team, api } = setup()
    const uploaded = await upload(api, 'contract.pdf', PDF)
    const res = await team.api('read-only').delete(`/attachments/${uploaded.body.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect(team.team.attachments.get(uploaded.body.id)).toBeDefined()
  })
})

describe('PUT /attachments/{id}/redact (docs/specification-notes.md "Attachments and files")', () => {
  /** An upload of the client's that a requested record document holds, with its file (source record_document), as a completed document.request step leaves them. */
  async function recordUpload(mock: TestMock, team: NewTeam, api: ApiClient, name = 'passport.jpg') {
    const jpg = ACCEPTED.find((file) => file.kind === 'jpg')?.bytes as Uint8Array
    const uploaded = await upload(api, name, jpg)
    const client = await newClient(api)
    const record = giveRecord(mock, team.team, client, { steps: [{ type: 'document.request', preferences: { title: 'Passport', instructions: 'The photo page' } }] })
    const document = team.team.recordDocuments.get(record.steps[0]?.document as number)
    if (document) team.team.recordDocuments.update(document, { attachments: [...document.attachments, uploaded.body.id] })
    const file = mock.teamContext(team.team).team.files.insert({
      id: mock.store.nextId('file'),
      client,
      type: 'received',
      source: { type: 'record_document', id: document?.id as number },
      source_subtype: 'requested',
      name: 'Passport',
      attachment: uploaded.body.id,
      created_by: { type: 'client', id: client },
      is_deletable: false,
      expires_at: null,
      created_at: NOW,
      updated_at: NOW,
    })
    return { uploaded: uploaded.body, client, record, file }
  }

  it("replaces a record document's upload with the generic redaction image: image/png, its size, original with a suffix; the uploaded bytes are deleted", async () => {
    const { mock, team, api } = setup()
    const { uploaded, client, file } = await recordUpload(mock, team, api)
    const oldPath = mock.services.blobs.path(attachmentRow(team, uploaded.id).blob)
    mock.scheduler.advance(60 * SECOND)
    const res = await api.put(`/attachments/${uploaded.id}/redact`)
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({
      ...uploaded,
      name: uploaded.name.replace(/\.jpg$/, '.png'),
      original: 'passport-redacted.png',
      type: 'image/png',
      size: 2239,
      av_status: 'clean',
      updated_at: at(1),
    })
    expect(existsSync(oldPath)).toBe(false)
    expect(uploadsOf(mock)).toEqual([])
    // The file shows when it was redacted, and downloads as the image.
    const listed = await api.get(`/clients/${client}/files`)
    expect(listed.body.data).toEqual([expect.objectContaining({ id: file.id, attachment: res.body, redacted_at: at(1), updated_at: at(1) })])
    const download = await api.get(`/clients/${client}/files/${file.id}/download`)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(download.bytes)).toEqual(REDACTED_PNG)
  })

  it('redacts an upload still being scanned, whose scan then never happens', async () => {
    const { mock, team, api } = setup()
    const { uploaded } = await recordUpload(mock, team, api, 'licence+scan-error.jpg')
    const res = await api.put(`/attachments/${uploaded.id}/redact`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ original: 'licence+scan-error-redacted.png', av_status: 'clean' })
    expect(mock.scheduler.pending().filter((job) => job.kind === JOBS.scan)).toEqual([])
    mock.scheduler.advance(60 * SECOND)
    expect(attachmentRow(team, uploaded.id).av_status).toBe('clean')
  })

  it.each(['form', 'client_form'] as const)('redacts the attachment of a file whose source is a %s', async (type) => {
    const { mock, team, api } = setup()
    const client = await newClient(api)
    const file = giveFile(mock, team.team, client, { type: 'received', source: { type, id: 5 }, created_by: { type: 'client', id: client } })
    const res = await api.put(`/attachments/${file.attachment}/redact`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ original: 'passport-redacted.png', type: 'image/png', size: 2239 })
    // A seeded sample's bytes are shared: they stay.
    expect(existsSync(mock.services.blobs.path(BlobStore.sample('passport.jpg')))).toBe(true)
  })

  it("redacts an attachment a form's answer holds", async () => {
    const { mock, team, api } = setup()
    const uploaded = await upload(api, 'passport.pdf', PDF)
    giveFormWithUploads(mock, team.team, await newClient(api), [uploaded.body.id])
    const res = await api.put(`/attachments/${uploaded.body.id}/redact`)
    expect(res.status).toBe(200)
    expect(res.body.original).toBe('passport-redacted.png')
  })

  it('redacts only once', async () => {
    const { mock, team, api } = setup()
    const { uploaded } = await recordUpload(mock, team, api)
    expect((await api.put(`/attachments/${uploaded.id}/redact`)).status).toBe(200)
    const before = structuredClone(attachmentRow(team, uploaded.id))
    const again = await api.put(`/attachments/${uploaded.id}/redact`)
    expect(again.status).toBe(422)
    expect(again.body).toEqual({ attachment: ['The attachment has already been redacted.'] })
    expect(attachmentRow(team, uploaded.id)).toEqual(before)
  })

  it('refuses (422) an attachment of no record document or form: unused, a client file, a library document', async () => {
    const { mock, team, api } = setup()
    const unused = await upload(api, 'a.pdf', PDF)
    const client = await newClient(api)
    const clientFile = await upload(api, 'b.pdf', PDF)
    expect((await api.post(`/clients/${client}/files`, { attachment: clientFile.body.id })).status).toBe(201)
    const library = await upload(api, 'c.pdf', PDF)
    team.team.libraryDocuments.insert({ id: mock.store.nextId('library_document'), name: 'Handbook', description: 'Staff handbook', is_enabled: true, attachment: library.body.id, created_at: NOW, updated_at: NOW })
    // Sending a library document to a client puts it in a sent record document: still the library's.
    const record = giveRecord(mock, team.team, client, { steps: [{ type: 'document.transfer', preferences: { name: 'Handbook', attachment: library.body.id } }] })
    expect(team.team.recordDocuments.get(record.steps[0]?.document as number)?.attachments).toEqual([library.body.id])
    for (const id of [unused.body.id, clientFile.body.id, library.body.id]) {
      const res = await api.put(`/attachments/${id}/redact`)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ attachment: ['Only attachments of record documents or form uploads can be redacted.'] })
      expect(attachmentRow(team, id).redacted_at).toBeNull()
    }
  })

  it("answers 404 for an unknown id and another team's attachment, 403 to read-only members and to assigned-only members not assigned to its client", async () => {
    const { mock, team, api } = setup()
    const other = mock.newTeam()
    const theirs = await recordUpload(mock, other, other.api())
    for (const id of [UNKNOWN, theirs.uploaded.id]) {
      const res = await api.put(`/attachments/${id}/redact`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
    const { uploaded, client } = await recordUpload(mock, team, api)
    for (const role of ['read-only', 'assigned-only'] as const) {
      const res = await team.api(role).put(`/attachments/${uploaded.id}/redact`)
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    expect((await api.post(`/clients/${client}/assignees`, [{ type: 'team_member', team_member: team.users['assigned-only'].id }])).status).toBe(201)
    expect((await team.api('assigned-only').put(`/attachments/${uploaded.id}/redact`)).status).toBe(200)
  })
})

describe('a 101 MB upload against the real server (a child process on 127.0.0.1)', () => {
  const BIN = fileURLToPath(new URL('../../bin/ivs-mock.js', import.meta.url))
  const MB = 1024 * 1024
  const running = new Set<ChildProcess>()
  const folders: string[] = []
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL')
    running.clear()
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  })

  /** The server with its state (and so its uploads folder, mock.files/) in a folder of the test's. */
  async function startServer() {
    const folder = mkdtempSync(join(tmpdir(), 'ivs-upload-limit-'))
    folders.push(folder)
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', join(folder, 'mock.json')], { stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let output = ''
    const origin = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on (http:\/\/[^/\s]+)\/api\/v2/.exec(output)
        if (match && output.includes('Try')) resolve(match[1] as string)
      })
      child.on('exit', (code) => reject(new Error(`the mock exited with ${code}: ${output}`)))
    })
    return { child, origin, uploads: join(folder, 'mock.files') }
  }

  const BOUNDARY = 'ivs-upload-limit-boundary'
  const head = (name: string) => ascii(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`)
  const tail = ascii(`\r\n--${BOUNDARY}--\r\n`)

  /** A multipart body with a PDF of `size` bytes, made chunk by chunk as it is sent (never whole in memory). */
  function* pdfBody(name: string, size: number): Generator<Uint8Array> {
    yield head(name)
    yield ascii('%PDF-1.4\n')
    const block = new Uint8Array(64 * 1024).fill(0x41)
    for (let sent = 9; sent < size; sent += block.length) yield sent + block.length <= size ? block : block.subarray(0, size - sent)
    yield tail
  }

  /**
   * Sends a body over a real socket with backpressure (chunked, unless a Content-Length is given);
   * stops sending once the answer arrives, and tells how much it had sent by then.
   */
  function send(origin: string, chunks: Generator<Uint8Array>, contentLength?: number): Promise<{ status: number; type: string | undefined; text: string; sent: number }> {
    return new Promise((resolve, reject) => {
      let answered = false
      let sent = 0
      const req = httpRequest(`${origin}/api/v2/attachments`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer ivs_acme_owner',
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          ...(contentLength === undefined ? {} : { 'Content-Length': String(contentLength) }),
        },
      })
      req.on('response', (res) => {
        answered = true
        const answeredAfter = sent
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text, sent: answeredAfter }))
      })
      // The server closes the connection after its 413, while the rest of the body may still be on its way.
      req.on('error', (error) => {
        if (!answered) reject(error)
      })
      const pump = () => {
        for (;;) {
          if (answered) return
          const next = chunks.next()
          if (next.done) {
            req.end()
            return
          }
          sent += next.value.length
          if (!req.write(next.value)) {
            req.once('drain', pump)
            return
          }
        }
      }
      pump()
    })
  }

  /** kB figures of /proc/<pid>/status. */
  function memory(pid: number): { VmRSS: number; VmHWM: number } {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kB = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
    return { VmRSS: kB('VmRSS'), VmHWM: kB('VmHWM') }
  }

  it('is refused with the 413 page as soon as it passes 100 MB, keeps nothing, and the server stays within bounded memory', { timeout: 120_000 }, async () => {
    const { child, origin, uploads } = await startServer()
    const pid = child.pid as number
    // A small upload first: it works, and the uploads folder holds just that one file.
    const small = await send(origin, pdfBody('small.pdf', 1000))
    expect(small.status, small.text).toBe(201)
    const kept = readdirSync(uploads)
    expect(kept).toEqual([JSON.parse(small.text).name])
    // A body that breaks off: the first failure of the process makes an error, and the launcher's
    // source maps are loaded for its stack once (tens of MB, nothing to do with uploads); this
    // happens here, before the measurement.
    const broken = await send(origin, (function* () {
      yield head('broken.pdf')
      yield ascii('%PDF-1.4 cut short')
    })())
    expect(broken.status).toBe(422)
    const measurable = process.platform === 'linux' && existsSync(`/proc/${pid}/clear_refs`)
    // Linux: writing 5 to clear_refs resets the peak resident memory (VmHWM) to the current one.
    if (measurable) writeFileSync(`/proc/${pid}/clear_refs`, '5')
    const before = measurable ? memory(pid) : undefined

    const refused = await send(origin, pdfBody('huge.pdf', 101 * MB))

    expect(refused.status).toBe(413)
    expect(refused.type).toBe('text/html')
    expect(refused.text).toBe('<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n')
    expect(readdirSync(uploads)).toEqual(kept)
    if (before) {
      const after = memory(pid)
      const growthMB = (after.VmHWM - before.VmRSS) / 1024
      console.log(
        `101 MB upload refused: server resident memory ${(before.VmRSS / 1024).toFixed(1)} MB before, peak ${(after.VmHWM / 1024).toFixed(1)} MB during (growth ${growthMB.toFixed(1)} MB), ${(after.VmRSS / 1024).toFixed(1)} MB after`,
      )
      // Holding the body (or the file) in memory would take at least 100 MB more.
      expect(growthMB).toBeLessThan(64)
    }
    // The server is fine afterwards.
    const after = await send(origin, pdfBody('after.pdf', 1000))
    expect(after.status).toBe(201)
  })

  it('is refused at once when its Content-Length already says it is too large', { timeout: 60_000 }, async () => {
    const { origin, uploads } = await startServer()
    const size = 101 * MB
    const refused = await send(origin, pdfBody('huge.pdf', size), head('huge.pdf').length + size + tail.length)
    expect(refused.status).toBe(413)
    expect(refused.type).toBe('text/html')
    expect(refused.text).toContain('<title>413 Request Entity Too Large</title>')
    // The answer came while most of the body was still unsent: nothing waited for it.
    expect(refused.sent).toBeLessThan(16 * MB)
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([])
  })
})
