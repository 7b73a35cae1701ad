// The perform page over HTTP (app.request): who may open it (the link's secret, an SDK token), what
// it says when the record is closed, and each kind of step submitted as a browser submits it
// (multipart/form-data). What a submission changes is read back through the API, contract-checked:
// it must be what the control API's complete does (statuses, events, forms, files, magic outcomes).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { createTemplate } from '../support/forms.ts'
import { upload as uploadFile } from '../support/uploads.ts'

const SAMPLES = join(import.meta.dirname, '..', '..', 'fixtures', 'samples')
const sample = (name: string, type: string) => new File([readFileSync(join(SAMPLES, name))], name, { type })

let mock: TestMock
beforeEach(() => {
  mock = createTestMock()
})

const api = () => mock.api('ivs_acme_owner')

async function createRecord(steps: unknown[], client = 3): Promise<any> {
  const res = await api().post('/records', { client, steps, notification: false, reminder: true })
  expect(res.status, res.text).toBe(201)
  return res.body
}

const linkOf = (record: any) => new URL(record.perform_url).pathname

async function page(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await mock.app.request(path)
  return { status: res.status, text: await res.text(), headers: res.headers }
}

/** Submits a step's form as a browser does: multipart/form-data, fields and files. */
async function submit(record: any, stepIndex: number, fields: Record<string, string | File>): Promise<{ status: number; text: string; location: string | null }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const res = await mock.app.request(`${linkOf(record)}/steps/${record.steps[stepIndex].id}`, { method: 'POST', body: form })
  return { status: res.status, text: await res.text(), location: res.headers.get('location') }
}

const problemsOf = (html: string) => [...html.matchAll(/<li><a href="#[^"]+">([^<]+)<\/a><\/li>/g)].map((match) => match[1])

const WATCHLIST = { type: 'check.watchlist' }
const REQUEST = { type: 'document.request', preferences: { title: 'Proof of address', instructions: 'A recent utility bill.' } }

describe('opening the perform page', () => {
  test("the record's perform_url opens the client's overview, with the page headers of the UI", async () => {
    const record = await createRecord([WATCHLIST, REQUEST])
    const res = await page(linkOf(record))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.text).toContain('<h1>Hello Kitty</h1>')
    expect(res.text).toContain('Acme Recruitment asks you to complete 2 steps; none is done yet.')
    expect(res.text).toContain(`href="${linkOf(record)}/steps/${record.steps[0].id}">Start</a>`)
  })

  test('a link no record has is a 404 page', async () => {
    const res = await page(`/perform/${'0'.repeat(40)}`)
    expect(res.status).toBe(404)
    expect(res.text).toContain('This link is not valid')
  })

  test('an SDK token from POST /sdk_token opens the same record, for its 60 minutes on the mock\'s clock', async () => {
    const record = await createRecord([WATCHLIST])
    const token = (await api().post('/sdk_token', { record_id: record.id })).body.token
    const redirect = await mock.app.request(`/perform?sdk_token=${token}`)
    expect(redirect.status).toBe(303)
    expect(redirect.headers.get('location')).toBe(`/perform/sdk/${token}`)
    const opened = await page(`/perform/sdk/${token}`)
    expect(opened.status).toBe(200)
    expect(opened.text).toContain(`href="/perform/sdk/${token}/steps/${record.steps[0].id}">Start</a>`)
    // The token's pages take submissions like the link's.
    const form = new FormData()
    form.append('consent', 'yes')
    const done = await mock.app.request(`/perform/sdk/${token}/steps/${record.steps[0].id}`, { method: 'POST', body: form })
    expect(done.status).toBe(303)
    expect((await api().get(`/records/${record.id}`)).body.status).toBe('waiting')

    mock.clock.advance(3601_000)
    const expired = await page(`/perform/sdk/${token}`)
    expect(expired.status).toBe(401)
    expect(expired.text).toContain('This link has expired')
    expect((await page(`/perform/sdk/${token.slice(0, -2)}xx`)).status).toBe(404)
    expect((await page('/perform/sdk/not-a-token')).status).toBe(404)
  })

  test('a closed record says why: archived, expired, or every step done (the finish page)', async () => {
    const archived = await createRecord([WATCHLIST])
    expect((await api().post(`/records/${archived.id}/archive`)).status).toBe(200)
    expect((await page(linkOf(archived))).text).toContain('<h1 id="archived">This request has been withdrawn</h1>')

    const expired = await createRecord([WATCHLIST])
    expect((await api().post(`/records/${expired.id}/expire`)).status).toBe(200)
    expect((await page(linkOf(expired))).text).toContain('<h1 id="expired">This request has expired</h1>')

    const done = await createRecord([WATCHLIST])
    expect((await mock.control.post(`/records/${done.id}/complete`, {})).status).toBe(200)
    const finished = await page(linkOf(done))
    expect(finished.text).toContain('<h1 id="finished">Thank you, Kitty</h1>')
    // A step page of a closed record goes back to the overview, and so does a submission.
    const step = await mock.app.request(`${linkOf(done)}/steps/${done.steps[0].id}`)
    expect([step.status, step.headers.get('location')]).toEqual([303, linkOf(done)])
    expect((await submit(done, 0, { consent: 'yes' })).location).toBe(linkOf(done))
  })
})

describe('completing steps', () => {
  test('a check step asks for consent; given, the check is submitted as by the control API, and the client moves on', async () => {
    const record = await createRecord([WATCHLIST, REQUEST])
    const refused = await submit(record, 0, {})
    expect(refused.status).toBe(422)
    expect(problemsOf(refused.text)).toEqual(['Tick the box to agree, or leave this page.'])
    expect((await api().get(`/records/${record.id}`)).body.status).toBe('pending')

    const before = mock.events.length
    const done = await submit(record, 0, { consent: 'yes' })
    expect([done.status, done.location]).toEqual([303, `${linkOf(record)}/steps/${record.steps[1].id}`])
    const after = (await api().get(`/records/${record.id}`)).body
    expect(after.status).toBe('waiting')
    expect(after.steps[0].completed_at).toBe(NOW)
    expect((await api().get(`/checks/${record.steps[0].check}`)).body.status).toBe('submitted')
    expect(mock.events.slice(before).map((event) => event.type)).toEqual(['record.updated'])
    // The step is done: its page goes back to the overview.
    const again = await mock.app.request(`${linkOf(record)}/steps/${record.steps[0].id}`)
    expect(again.headers.get('location')).toBe(linkOf(record))
  })

  test("magic outcomes apply as with the control API: the client's email decides the result", async () => {
    const client = await api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann+watchlist-refer@example.com' })
    const record = await createRecord([WATCHLIST], client.body.id)
    expect((await submit(record, 0, { consent: 'yes' })).location).toBe(linkOf(record))
    await mock.control.post('/clock/advance', { seconds: 60 })
    const check = (await api().get(`/checks/${record.steps[0].check}`, { expand: 'response' })).body
    expect([check.status, check.response]).toEqual(['refer', { object: 'check_response.other' }])
    const finished = (await api().get(`/records/${record.id}`)).body
    expect([finished.status, finished.perform_url]).toEqual(['complete', false])
    expect(mock.events.filter((event) => event.type === 'record.finished').map((event) => event.subjects.record)).toEqual([record.id])
  })

  test('the last step stops the reminders and leads to the finish page', async () => {
    const record = await createRecord([WATCHLIST])
    expect((await mock.control.get(`/records/${record.id}`)).body.jobs.map((job: any) => job.kind)).toContain('record.reminder')
    expect((await submit(record, 0, { consent: 'yes' })).location).toBe(linkOf(record))
    expect((await mock.control.get(`/records/${record.id}`)).body.jobs.map((job: any) => job.kind)).not.toContain('record.reminder')
  })

  test('a document request takes the upload as POST /attachments does: by its content, scanned on the clock', async () => {
    const record = await createRecord([REQUEST])
    expect(problemsOf((await submit(record, 0, {})).text)).toEqual(['Choose the file to upload.'])
    const exe = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00])], 'bill.pdf', { type: 'application/pdf' })
    expect(problemsOf((await submit(record, 0, { document_file: exe })).text)).toEqual([
      'The file must be one of these types: pdf, docx, doc, xlsx, xls, csv, txt, jpg, png, tiff, zip.',
    ])
    expect((await submit(record, 0, { document_file: sample('proof-of-address.pdf', 'application/pdf') })).status).toBe(303)
    const documents = (await api().get(`/records/${record.id}/documents`, { expand: 'attachments' })).body.data
    expect(documents).toHaveLength(1)
    expect(documents[0]).toMatchObject({ type: 'requested', status: 'complete' })
    expect(documents[0].attachments.map((attachment: any) => [attachment.original, attachment.type, attachment.av_status])).toEqual([['proof-of-address.pdf', 'application/pdf', 'pending']])
    const files = (await api().get(`/clients/${record.client}/files`)).body.data
    expect(files.filter((file: any) => file.source.type === 'record_document').map((file: any) => [file.type, file.name])).toEqual([['received', 'Proof of address']])
  })

  test('a document transfer offers the sent file, asks for the confirmation and the signed copy it requires', async () => {
    const upload = await uploadFile(api(), 'contract-of-employment.pdf', readFileSync(join(SAMPLES, 'contract-of-employment.pdf')))
    expect(upload.status, upload.text).toBe(201)
    await mock.control.post('/clock/advance', { seconds: 5 })
    const record = await createRecord([{ type: 'document.transfer', preferences: { name: 'Contract', attachment: upload.body.id, require_return: true, require_confirmation: true, return_message: 'Sign page 3.' } }])
    const step = await page(`${linkOf(record)}/steps/${record.steps[0].id}`)
    expect(step.text).toContain(`<a href="${linkOf(record)}/files/${upload.body.id}" download>contract-of-employment.pdf</a>`)
    expect(step.text).toContain('<p>Sign page 3.</p>')
    const download = await mock.app.request(`${linkOf(record)}/files/${upload.body.id}`)
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer())).toEqual(readFileSync(join(SAMPLES, 'contract-of-employment.pdf')))
    // Only what the team sent with this record's documents.
    expect((await mock.app.request(`${linkOf(record)}/files/1`)).status).toBe(404)

    expect(problemsOf((await submit(record, 0, {})).text)).toEqual(['Confirm that you have read the document.', 'Choose your signed copy to upload.'])
    expect((await submit(record, 0, { confirm: 'yes', return_file: sample('signature.png', 'image/png') })).status).toBe(303)
    const documents = (await api().get(`/records/${record.id}/documents`, { expand: 'attachments' })).body.data
    expect(documents.map((document: any) => [document.type, document.status, document.attachments.map((attachment: any) => attachment.original)])).toEqual([
      ['sent', 'complete', ['contract-of-employment.pdf']],
      ['returned', 'complete', ['signature.png']],
    ])
  })

  test('photo ID: a sample picked, or an image uploaded (an image only); the result shows what the client gave', async () => {
    const record = await createRecord([{ type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport', 'national_id'], face: true } }])
    const step = await page(`${linkOf(record)}/steps/${record.steps[0].id}`)
    expect(step.text).toContain('National identity card')
    expect(step.text).not.toContain('>Driving licence<')
    const pdf = await submit(record, 0, { document_type: 'driving_licence', document_source: 'upload', document_file: sample('bank-statement.pdf', 'application/pdf'), face_source: 'sample:selfie' })
    expect(problemsOf(pdf.text)).toEqual(['Choose the document you will show.', 'The image must be a JPG or PNG file.'])
    const done = await submit(record, 0, { document_type: 'national_id', document_source: 'upload', document_file: sample('driving-licence.jpg', 'image/jpeg'), face_source: 'sample:selfie' })
    expect(done.status).toBe(303)
    await mock.control.post('/clock/advance', { seconds: 60 })
    const check = (await api().get(`/checks/${record.steps[0].check}`, { expand: 'response' })).body
    expect(check.response.reports[0].document_data.document_type).toBe('national_id')
    expect(check.response.media.map((media: any) => [media.type, media.attachment.original])).toEqual([
      ['document', 'driving-licence.jpg'],
      ['photo', 'selfie.jpg'],
    ])
  })
})

describe('a form step', () => {
  async function formRecord(): Promise<any> {
    const template = await createTemplate(api())
    return createRecord([{ type: 'form', preferences: { form: template.reference } }])
  }

  test('shows every field type, with show_if for the script and labels for every input', async () => {
    const record = await formRecord()
    const { text } = await page(`${linkOf(record)}/steps/${record.steps[0].id}`)
    expect(text).toContain('<script src="/perform/assets/show-if.js" defer></script>')
    expect(text).toContain('<div class="rich-text"><p>Please answer every question.</p><ul><li><p>Be honest</p></li><li><p><strong>Be brief</strong></p></li></ul></div>')
    expect(text).toContain('<h3>About you</h3>')
    expect(text).toContain('<label for="in-field_3afull_name">Full name <span class="muted">(required)</span></label>')
    expect(text).toContain('<textarea id="in-field_3ahistory" name="field:history"')
    expect(text).toContain('<legend>Do you have a pet? <span class="muted">(required)</span></legend>')
    expect(text).toContain(`data-field="pet_name" data-show-if="{&quot;has_pet&quot;:&quot;Yes&quot;}"`)
    expect(text).toContain('<input type="checkbox" id="in-field_3apets-1" name="field:pets:1" value="Dog"')
    expect(text).toContain('<input type="file" id="in-file_3apassport" name="file:passport"')
    const script = await mock.app.request('/perform/assets/show-if.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  })

  test('required answers, show_if and options are checked; the answers given come back with the messages', async () => {
    const record = await formRecord()
    const missing = await submit(record, 0, { 'field:history': 'Ten years in retail' })
    expect(missing.status).toBe(422)
    expect(problemsOf(missing.text)).toEqual(['The Full name field is required.', 'The Do you have a pet? field is required.', 'The Passport field is required.'])
    expect(missing.text).toContain('>Ten years in retail</textarea>')
    // A pet: its name is now required; an option the field does not have is refused.
    const shown = await submit(record, 0, { 'field:full_name': 'Ann Lee', 'field:has_pet': 'Yes', 'file:passport': sample('passport.jpg', 'image/jpeg') })
    expect(problemsOf(shown.text)).toEqual(['The Your pet&#39;s name field is required.'])
    const option = await submit(record, 0, { 'field:full_name': 'Ann Lee', 'field:has_pet': 'Maybe', 'file:passport': sample('passport.jpg', 'image/jpeg') })
    expect(problemsOf(option.text)).toEqual(['The selected Do you have a pet? is invalid.'])
    expect((await api().get(`/records/${record.id}`)).body.status).toBe('pending')
  })

  test("the client's answers are the form's, hidden ones dropped; the upload is a file of the client; form.submitted is published", async () => {
    const record = await formRecord()
    const before = mock.events.length
    const done = await submit(record, 0, {
      'field:full_name': '  Ann Lee  ',
      'field:has_pet': 'No',
      // Hidden by show_if (no pet): not kept.
      'field:pet_name': 'Rex',
      'field:pets:0': 'Cat',
      'file:passport': sample('passport.jpg', 'image/jpeg'),
    })
    expect([done.status, done.location]).toEqual([303, linkOf(record)])
    const form = (await api().get(`/clients/${record.client}/forms/${record.steps[0].form}`)).body
    const values = Object.fromEntries(form.fields.filter((field: any) => 'value' in field).map((field: any) => [field.id, field.value]))
    expect(values).toEqual({ full_name: 'Ann Lee', history: null, has_pet: 'No', pet_name: null, pets: null, passport: [expect.any(Number)] })
    expect(form.completed_at).toBe(NOW)
    expect(mock.events.slice(before).map((event) => event.type)).toEqual(['form.submitted', 'record.updated', 'record.finished'])
    const files = (await api().get(`/clients/${record.client}/files`, { expand: 'source' })).body.data
    const upload = files.find((file: any) => file.attachment.id === values.passport[0])
    expect(upload).toMatchObject({ type: 'received', name: 'Passport', source: { object: 'form', reference: record.steps[0].form } })
  })
})
