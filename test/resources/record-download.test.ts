// GET /records/{id}/download: the record as a real PDF (docs/specification-notes.md "Downloads and SDK tokens"), its
// generic 404 (docs/specification-notes.md "Wire details") and the roles (docs/specification-notes.md "Roles"). The text is read back
// from the served bytes themselves (test/support/pdf.ts).
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { API } from '../support/api.ts'
import { download as downloadPath, pdfText } from '../support/pdf.ts'
import { createTestMock, NOW, TEST_NOW, type TestMock } from '../support/mock.ts'
import { giveRecord } from '../support/rows.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const NOT_FOUND = { error: 'Not Found.' }
const FOOTER = 'Made by the IVS mock: not a document of the real service.'
const MINUTE = 60_000

/** GET /records/{id}/download as bytes, checked against the contract like every ApiClient answer. */
const download = (mock: TestMock, token: string | undefined, id: number | string) => downloadPath(mock, token, `${API}/records/${id}/download`)

/** A fresh team with one client (Dr Ann Marie Lee) made through the API. */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam({ name: 'Lee & Partners' })
  const res = await team.api().post('/clients', {
    name: { title: 'dr', first_name: 'Ann', middle_name: 'Marie', last_name: 'Lee' },
    email: 'ann.lee@example.com',
    reference: 'CL-000042',
  })
  expect(res.status, res.text).toBe(201)
  return { mock, team, teamRow: team.team, clientId: res.body.id as number }
}

describe('GET /records/{id}/download', () => {
  it('answers 200 with a PDF named record-<id>.pdf, dated by the mock clock', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId)
    const res = await download(mock, team.tokens.owner, record.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="record-${record.id}.pdf"`)
    expect(res.text.startsWith('%PDF-')).toBe(true)
    expect(res.text.trimEnd().endsWith('%%EOF')).toBe(true)
    const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
    expect(pdf.getPageCount()).toBe(1)
    expect(pdf.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 })
    expect(pdf.getTitle()).toBe(`Record ${record.id}`)
    expect(pdf.getAuthor()).toBe('Lee & Partners')
    expect(pdf.getCreationDate()).toEqual(TEST_NOW)
    expect(pdf.getModificationDate()).toEqual(TEST_NOW)
  })

  it('summarises the record: team, the client snapshot, reference, status, dates, and each step with its check and latest review', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId, {
      created_by: team.users.member.id,
      reference: 'REC-7',
      is_declaration_required: true,
      created_at: '2026-06-20T09:00:00Z',
      steps: [
        { type: 'check.identity', cost: 1, completed_at: '2026-06-21T10:00:00Z', check: { status: 'accepted', outcome: 'clear', response: { at: '2026-06-21T10:01:00Z', seed: 7, dob: null } } },
        { type: 'check.watchlist', cost: 3, completed_at: '2026-06-21T10:05:00Z', check: { status: 'submitted' } },
        { type: 'document.request' },
        { type: 'form' },
      ],
    })
    const ids = record.steps.map((step) => step.id)
    const identity = ids[0] as number
    const review = (id: number, step: number, status: 'approved' | 'rejected', message: string | null, at: string) => {
      teamRow.stepReviews.insert({ id, record: record.id, step, reviewed_by: team.users.owner.id, status, from_status: 'pending', message, created_at: at, updated_at: at })
    }
    review(mock.store.nextId('step_review'), identity, 'rejected', 'Blurred photo', '2026-06-22T08:00:00Z')
    const latest = mock.store.nextId('step_review')
    review(latest, identity, 'approved', null, '2026-06-23T08:00:00Z')
    ;(record.steps[0] as { review: number | null }).review = latest
    // The record shows the client as they were when it was made, not as they are now.
    const patched = await team.api().patch(`/clients/${clientId}`, { email: 'ann.new@example.com', name: { last_name: 'Lee-Smith' } })
    expect(patched.status, patched.text).toBe(200)

    const res = await download(mock, team.tokens.owner, record.id)
    expect(res.status).toBe(200)
    const checks = record.steps.map((step) => step.check)
    const owner = team.users.owner.name
    expect(await pdfText(res.bytes)).toEqual([
      [
        `Record ${record.id}`,
        `Lee & Partners, as of ${NOW}`,
        'Client',
        ...['Name', 'Dr Ann Marie Lee', 'Email', 'ann.lee@example.com', 'Client id', String(clientId)],
        'Record',
        ...['Team', 'Lee & Partners', 'Reference', 'REC-7', 'Status', 'waiting', 'Created by', team.users.member.name],
        ...['Created at', '2026-06-20T09:00:00Z', 'Expires at', '2026-08-01T12:00:00Z', 'Archived at', 'not archived'],
        ...['Declaration', 'required, not confirmed'],
        'Steps (4)',
        `1. check.identity (step ${ids[0]})`,
        ...['Cost', '1 credit', 'Completed at', '2026-06-21T10:00:00Z', 'Check', `accepted (check ${checks[0]})`],
        ...['Review', `approved by ${owner} at 2026-06-23T08:00:00Z`],
        `2. check.watchlist (step ${ids[1]})`,
        ...['Cost', '3 credits', 'Completed at', '2026-06-21T10:05:00Z', 'Check', `submitted (check ${checks[1]})`],
        ...['Review', 'not reviewed'],
        `3. document.request (step ${ids[2]})`,
        ...['Cost', '0 credits', 'Completed at', 'not completed', 'Review', 'not reviewed'],
        `4. form (step ${ids[3]})`,
        ...['Cost', '0 credits', 'Completed at', 'not completed', 'Review', 'not reviewed'],
        `${FOOTER} Page 1 of 1.`,
      ],
    ])
  })

  it('shows a review message, the newest review when the step names none, and an expired, archived record', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId, {
      reference: null,
      expired_at: '2026-06-30T12:00:00Z',
      archived_at: '2026-06-30T13:00:00Z',
      is_declaration_required: true,
      declaration_confirmed_at: '2026-06-25T10:00:00Z',
      steps: [{ type: 'document.transfer', completed_at: '2026-06-25T10:00:00Z' }, { type: 'check.credit', cost: 2 }],
    })
    const step = record.steps[0]?.id as number
    for (const [status, at] of [['rejected', '2026-06-26T10:00:00Z'], ['rejected', '2026-06-27T10:00:00Z']] as const) {
      teamRow.stepReviews.insert({ id: mock.store.nextId('step_review'), record: record.id, step, reviewed_by: team.users.member.id, status, from_status: 'pending', message: `Seen ${at}`, created_at: at, updated_at: at })
    }
    const lines = (await pdfText((await download(mock, team.tokens.owner, record.id)).bytes)).flat()
    const after = (label: string) => lines[lines.indexOf(label) + 1]
    expect(after('Reference')).toBe('-')
    expect(after('Status')).toBe('incomplete')
    expect(after('Created by')).toBe('-')
    expect(after('Expired at')).toBe('2026-06-30T12:00:00Z')
    expect(lines).not.toContain('Expires at')
    expect(after('Archived at')).toBe('2026-06-30T13:00:00Z')
    expect(after('Declaration')).toBe('confirmed at 2026-06-25T10:00:00Z')
    expect(after('Review')).toBe(`rejected by ${team.users.member.name} at 2026-06-27T10:00:00Z`)
    expect(after('Review message')).toBe('Seen 2026-06-27T10:00:00Z')
    expect(lines).toContain(`2. check.credit (step ${record.steps[1]?.id})`)
    expect(after('Check')).toBe(`pending (check ${record.steps[1]?.check})`)
  })

  it('states a check\'s result only for photo ID, whose response is the only one the API shows (docs/specification-notes.md "Checks and responses")', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const response = { at: '2026-06-21T10:01:00Z', seed: 7, dob: null }
    const record = giveRecord(mock, teamRow, clientId, {
      steps: [
        { type: 'check.photo_id', completed_at: '2026-06-21T10:00:00Z', check: { status: 'refer', outcome: 'refer', response } },
        { type: 'check.watchlist', completed_at: '2026-06-21T10:00:00Z', check: { status: 'accepted', outcome: 'consider', response } },
        { type: 'check.photo_id', completed_at: '2026-06-21T10:00:00Z', check: { status: 'failed', outcome: 'failed' } },
      ],
    })
    const lines = (await pdfText((await download(mock, team.tokens.owner, record.id)).bytes)).flat()
    const checks = lines.filter((_, index) => lines[index - 1] === 'Check')
    expect(checks).toEqual([`refer, result consider (check ${record.steps[0]?.check})`, `accepted (check ${record.steps[1]?.check})`, `failed (check ${record.steps[2]?.check})`])
  })

  it('says so when a record has no steps', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId)
    const lines = (await pdfText((await download(mock, team.tokens.owner, record.id)).bytes)).flat()
    expect(lines.slice(lines.indexOf('Steps (0)'))).toEqual(['Steps (0)', 'This record has no steps.', `${FOOTER} Page 1 of 1.`])
    expect(lines[lines.indexOf('Status') + 1]).toBe('complete')
  })

  it('runs onto more pages, never splitting a step, and wraps long text', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const steps = Array.from({ length: 30 }, (_, index) => ({ type: index % 2 === 0 ? ('check.photo_id' as const) : ('form' as const), cost: index }))
    const record = giveRecord(mock, teamRow, clientId, { steps })
    const long = `${'word '.repeat(200)}${'x'.repeat(150)}`
    teamRow.stepReviews.insert({ id: mock.store.nextId('step_review'), record: record.id, step: record.steps[0]?.id as number, reviewed_by: team.users.owner.id, status: 'rejected', from_status: 'pending', message: long, created_at: NOW, updated_at: NOW })
    const pages = await pdfText((await download(mock, team.tokens.owner, record.id)).bytes)
    expect(pages.length).toBeGreaterThan(2)
    pages.forEach((page, index) => expect(page.at(-1)).toBe(`${FOOTER} Page ${index + 1} of ${pages.length}.`))
    const all = pages.flat()
    steps.forEach((step, index) => expect(all).toContain(`${index + 1}. ${step.type} (step ${record.steps[index]?.id})`))
    // A step is never split: every page after the first starts with a step's heading.
    for (const page of pages.slice(1)) expect(page[0]).toMatch(/^\d+\. (check\.photo_id|form) \(step \d+\)$/)
    const first = pages.find((page) => page.includes('Review message')) as string[]
    const message = first.slice(first.indexOf('Review message') + 1, first.findIndex((line) => line.startsWith('2. form')))
    expect(message.length).toBeGreaterThan(5)
    // Words wrap at spaces; the word too long for a line is cut into pieces.
    expect(message.join(' ').replace(/(?<=x) (?=x)/g, '')).toBe(long.trimEnd())
  })

  it('writes what the standard fonts cannot show without accents, or as ?, and never fails', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId, {
      name: { title: null, other_title: null, first_name: 'Zoë Łucja', middle_name: 'Ōtani', last_name: '李 Nguyễn' },
      email: 'zoe@example.com',
    })
    const res = await download(mock, team.tokens.owner, record.id)
    expect(res.status).toBe(200)
    const lines = (await pdfText(res.bytes)).flat()
    expect(lines[lines.indexOf('Name') + 1]).toBe('Zoë ?ucja Otani ? Nguyen')
  })

  it('is the same bytes for the same state and clock, and changes only with them', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId, { steps: [{ type: 'check.identity', cost: 1 }] })
    const first = await download(mock, team.tokens.owner, record.id)
    const again = await download(mock, team.tokens.member, record.id)
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true)
    mock.clock.advance(MINUTE)
    const later = await download(mock, team.tokens.owner, record.id)
    expect(Buffer.from(later.bytes).equals(Buffer.from(first.bytes))).toBe(false)
    expect((await PDFDocument.load(later.bytes, { updateMetadata: false })).getCreationDate()).toEqual(new Date(TEST_NOW.getTime() + MINUTE))
  })

  it('lets every role that sees the record download it: read-only members, and assigned-only members assigned to it', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const assignedOnly = team.users['assigned-only'].id
    const record = giveRecord(mock, teamRow, clientId, { assignees: [{ id: mock.store.nextId('assignee'), user: assignedOnly, created_at: NOW }] })
    const expected = await download(mock, team.tokens.owner, record.id)
    for (const role of ['member', 'read-only', 'assigned-only', 'assumed'] as const) {
      const res = await download(mock, team.tokens[role], record.id)
      expect(res.status, role).toBe(200)
      expect(Buffer.from(res.bytes).equals(Buffer.from(expected.bytes)), role).toBe(true)
    }
  })

  it('answers 403 to an assigned-only member not assigned to the record', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId, { assignees: [{ id: mock.store.nextId('assignee'), user: team.users.member.id, created_at: NOW }] })
    const res = await download(mock, team.tokens['assigned-only'], record.id)
    expect(res.status).toBe(403)
    expect(JSON.parse(res.text)).toEqual(FORBIDDEN)
  })

  it('answers the generic 404 {"error": "Not Found."} for an unknown record, another team\'s, and a non-numeric id', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId)
    for (const [token, id] of [
      [team.tokens.owner, record.id + 1000],
      [team.tokens['assigned-only'], record.id + 1000],
      [team.tokens['read-only'], 999_999],
      ['ivs_globex_owner', record.id],
      ['ivs_acme_assigned', record.id],
      [team.tokens.owner, 'abc'],
    ] as const) {
      const res = await download(mock, token, id)
      expect(res.status, `${token} ${id}`).toBe(404)
      expect(JSON.parse(res.text)).toEqual(NOT_FOUND)
    }
  })

  it('answers 401 without a valid token, before looking the record up', async () => {
    const { mock, teamRow, clientId } = await setup()
    const record = giveRecord(mock, teamRow, clientId)
    for (const token of [undefined, 'ivs_nope', 'ivs_revoked']) {
      for (const id of [record.id, 999_999]) {
        const res = await download(mock, token, id)
        expect(res.status).toBe(401)
        expect(JSON.parse(res.text)).toEqual({ error: 'Unauthenticated.' })
      }
    }
  })
})
