// Forms (docs/specification-notes.md "Forms and form templates", docs/specification-notes.md "Events", docs/specification-notes.md "Roles",
// docs/specification-notes.md "Downloads and SDK tokens"): made by record form steps, filled in when the client submits
// the step, seeded as internal forms; listed, read and downloaded as a PDF.
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { submitForm } from '../../src/resources/forms/index.ts'
import type { RecordRow, StepRow } from '../../src/resources/records/index.ts'
import { API, type ApiClient } from '../support/api.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { createTemplate, NESTED_FIELDS, NESTED_TEMPLATE_BODY, STORED_FIELDS } from '../support/forms.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { download, pdfText } from '../support/pdf.ts'
import { assign, createClient } from '../support/requests.ts'
import { giveForm } from '../support/rows.ts'
import { singlePage } from '../support/wire.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const CLIENT_NOT_FOUND = { error: 'Client not found' }
const FORM_NOT_FOUND = { error: 'Form not found' }
const UNKNOWN = 987_654_321
const UNKNOWN_REFERENCE = '6f1d2c3b-4a59-4e68-9d7c-8b6a5f4e3d2c'
const MINUTE = 60_000
/** Forms filled in one team: with the test mock's seed, the 17th is the first Yes without pets; 20 leave some room. */
const FORMS_FOR_EVERY_WAY = 20

/** The fields of a form made from TEMPLATE_BODY, none answered yet. */
const UNANSWERED = STORED_FIELDS.map((field) => (['section', 'heading', 'rich_text'].includes(field.type) ? field : { ...field, flag: false, value: null }))

/** A record of the client whose steps are the given templates' form steps (and an identity check first, when asked). */
async function createRecord(api: ApiClient, client: number, templates: string[], withCheck = false): Promise<any> {
  const steps = [...(withCheck ? [{ type: 'check.identity' }] : []), ...templates.map((form) => ({ type: 'form', preferences: { form } }))]
  const res = await api.post('/records', { client, steps, notification: false })
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** A team with a client, the every-type template, and a record of the client with an identity check and that form. */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const client = await createClient(api)
  const template = await createTemplate(api)
  mock.events.length = 0
  const record = await createRecord(api, client.id, [template.reference], true)
  const reference = record.steps[1].form as string
  return { mock, team, api, client, template, record, reference, form: team.team.formsByReference.get(reference) }
}

function formJson(overrides: Record<string, unknown>) {
  return {
    object: 'client_form',
    type: 'requested',
    name: 'Pet owner questionnaire',
    description: 'About you and your pets.',
    instructions: 'Please answer every question.\n\n- Be honest\n- Be brief',
    fields: UNANSWERED,
    version: 1,
    created_at: NOW,
    updated_at: NOW,
    completed_at: null,
    archived_at: null,
    ...overrides,
  }
}

const complete = async (mock: TestMock, record: { id: number }) => {
  const res = await mock.control.post(`/records/${record.id}/complete`, {})
  expect(res.status, res.text).toBe(200)
}

const valueOf = (form: any, id: string) => form.fields.find((field: any) => field.id === id)?.value

describe('a record with form steps', () => {
  it('makes a requested form from the template for each form step and names it on the step', async () => {
    const { api, client, record, reference, form } = await setup()
    expect(record.steps[1]).toEqual({ object: 'step', id: record.steps[1].id, type: 'form', form: reference, cost: 0, completed_at: null, review: null })
    const res = await api.get(`/clients/${client.id}/forms`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([formJson({ id: form?.id, reference, client: client.id, record: record.id })]))
  })

  it('publishes form.sent per form step after record.created, naming the form, client and record', async () => {
    const { mock, api, client, template } = await setup()
    const other = await createTemplate(api, { name: 'Second form', fields: [{ id: 'root', type: 'section', fields: ['q'] }, { id: 'q', type: 'text', label: 'Question' }] })
    mock.events.length = 0
    const record = await createRecord(api, client.id, [template.reference, other.reference])
    const [first, second] = record.steps.map((step: any) => step.form)
    expect(first).not.toEqual(second)
    expect(mock.events.map((event) => [event.type, event.subjects])).toEqual([
      ['record.created', { record: record.id, client: client.id }],
      ['form.sent', { form: first, client: client.id, record: record.id }],
      ['form.sent', { form: second, client: client.id, record: record.id }],
      ['client.record', { client: client.id, record: record.id }],
    ])
  })

  it('shows the form with GET /records/{id}/steps?expand=form (as a form), its reference without', async () => {
    const { api, client, record, reference, form } = await setup()
    const expanded = await api.get(`/records/${record.id}/steps`, { expand: 'form' })
    expect(expanded.status).toBe(200)
    expect(expanded.body.data[1].form).toEqual(formJson({ object: 'form', id: form?.id, reference, client: client.id, record: record.id }))
    expect(expanded.body.data[0].form).toBeUndefined()
    expect((await api.get(`/records/${record.id}/steps`)).body.data[1].form).toBe(reference)
  })

  it('keeps the form’s copy of the template when the template changes or goes', async () => {
    const { api, client, template, reference } = await setup()
    const before = (await api.get(`/clients/${client.id}/forms/${reference}`)).body
    expect((await api.patch(`/form-templates/${template.reference}`, { name: 'Renamed' })).status).toBe(200)
    expect((await api.delete(`/form-templates/${template.reference}`)).status).toBe(204)
    expect((await api.get(`/clients/${client.id}/forms/${reference}`)).body).toEqual(before)
  })
})

describe('the client submitting a form step', () => {
  it('fills the form in with answers that follow its fields, sets completed_at and publishes form.submitted', async () => {
    const { mock, api, client, record, reference } = await setup()
    mock.clock.advance(3 * MINUTE)
    mock.events.length = 0
    await complete(mock, record)
    const form = (await api.get(`/clients/${client.id}/forms/${reference}`)).body
    expect(form).toEqual(formJson({ id: form.id, reference, client: client.id, record: record.id, fields: form.fields, updated_at: at(3), completed_at: at(3) }))
    expect(valueOf(form, 'full_name')).toBe('Ann Lee')
    expect(['Yes', 'No']).toContain(valueOf(form, 'has_pet'))
    expect(form.fields.map((field: any) => field.flag)).toEqual(UNANSWERED.map((field: any) => field.flag))
    expect(form.fields.filter((field: any) => !('value' in field))).toEqual(STORED_FIELDS.filter((field) => ['section', 'heading', 'rich_text'].includes(field.type)))
    expect(mock.events.map((event) => [event.type, event.subjects])).toEqual([
      ['form.submitted', { form: reference, client: client.id, record: record.id }],
      ['record.updated', { record: record.id, client: client.id }],
    ])
    const step = (await api.get(`/records/${record.id}/steps`)).body.data[1]
    expect(step.completed_at).toBe(at(3))
  })

  it('answers what show_if shows and leaves what it hides null, on each side of the choice', async () => {
    const { mock, api, client, template } = await setup()
    // The team's random answers each form differently: enough forms that every way this template
    // can be answered comes up (counted below, so a change of draws cannot leave a way unchecked).
    const ways = { no: 0, yesWithPets: 0, yesWithoutPets: 0 }
    for (let index = 0; index < FORMS_FOR_EVERY_WAY; index++) {
      const record = await createRecord(api, client.id, [template.reference])
      await complete(mock, record)
      const form = (await api.get(`/clients/${client.id}/forms/${record.steps[0].form}`)).body
      const [hasPet, petName, pets] = [valueOf(form, 'has_pet'), valueOf(form, 'pet_name'), valueOf(form, 'pets')]
      if (hasPet === 'No') {
        // pet_name and pets show only for a Yes.
        expect([petName, pets]).toEqual([null, null])
        ways.no++
        continue
      }
      expect(hasPet).toBe('Yes')
      // pet_name is required, so always answered; pets is optional (answered 80 % of the time).
      expect(petName).toEqual(expect.any(String))
      if (pets === null) {
        ways.yesWithoutPets++
        continue
      }
      expect(pets.length).toBeGreaterThan(0)
      expect(pets.every((pet: string) => ['Cat', 'Dog', 'Fish'].includes(pet))).toBe(true)
      ways.yesWithPets++
    }
    expect(Object.entries(ways).filter(([, count]) => count === 0)).toEqual([])
  })

  it('uploads a sample for each document field, as a file of the client from the form, by the client', async () => {
    const { mock, team, record, client, reference, form } = await setup()
    mock.clock.advance(3 * MINUTE)
    await complete(mock, record)
    const [attachment] = valueOf({ fields: form?.fields }, 'passport') as number[]
    expect(team.team.attachments.get(attachment as number)).toEqual({
      id: attachment,
      name: expect.stringMatching(/^[0-9a-f-]{36}\.jpg$/),
      original: 'passport.jpg',
      type: 'image/jpeg',
      blob: 'sample:passport.jpg',
      size: 19_934,
      av_status: 'clean',
      redacted_at: null,
      created_at: at(3),
      updated_at: at(3),
    })
    expect(team.team.filesByClient.get(client.id)).toEqual([
      {
        id: expect.any(Number),
        client: client.id,
        type: 'received',
        source: { type: 'form', id: form?.id },
        source_subtype: null,
        name: 'Passport',
        attachment,
        created_by: { type: 'client', id: client.id },
        is_deletable: false,
        expires_at: null,
        created_at: at(3),
        updated_at: at(3),
      },
    ])
    expect(reference).toBe(form?.reference)
  })

  it('fills a form in once: submitting its step again changes nothing', async () => {
    const { mock, team, record } = await setup()
    await complete(mock, record)
    const before = structuredClone(mock.store.data)
    const events = mock.events.length
    const row = team.team.records.get(record.id) as RecordRow
    submitForm(mock.teamContext(team.team), row, row.steps[1] as StepRow)
    expect(mock.store.data).toEqual(before)
    expect(mock.events).toHaveLength(events)
  })

  it('answers the same way for the same seed (the mock’s random)', async () => {
    const answers = async () => {
      const { mock, api, client, record, reference } = await setup()
      await complete(mock, record)
      return (await api.get(`/clients/${client.id}/forms/${reference}`)).body.fields
    }
    expect(await answers()).toEqual(await answers())
  })
})

/**
 * A team with two clients and forms from the every-type template: Ann with a requested form (of a
 * record, filled in at 15 minutes) and an internal one made at 5 minutes, Bo with an internal one
 * made and filled in by a member at 10 minutes.
 */
async function listWorld() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const api = team.api()
  const ann = await createClient(api, 'Ann', 'Lee')
  const bo = await createClient(api, 'Bo', 'Hart')
  const template = await createTemplate(api)
  const record = await createRecord(api, ann.id, [template.reference])
  const requested = team.team.formsByReference.get(record.steps[0].form)
  mock.clock.advance(5 * MINUTE)
  const annInternal = giveForm(mock, team.team, ann.id, { template: template.reference })
  mock.clock.advance(5 * MINUTE)
  const boInternal = giveForm(mock, team.team, bo.id, { filledBy: team.users.member.id, template: template.reference })
  // Ann's requested form is filled in last, so updated_at orders the forms differently.
  mock.clock.advance(5 * MINUTE)
  await complete(mock, record)
  return { mock, team, api, ann, bo, record, requested, annInternal, boInternal }
}

const references = (res: { body: any }) => res.body.data.map((form: any) => form.reference)

describe('GET /forms', () => {
  it('lists every form of the team as form objects, oldest first by default', async () => {
    const { api, ann, requested, annInternal, boInternal } = await listWorld()
    const res = await api.get('/forms')
    expect(res.status).toBe(200)
    expect(references(res)).toEqual([requested?.reference, annInternal.reference, boInternal.reference])
    const client = (await api.get(`/clients/${ann.id}/forms/${annInternal.reference}`)).body
    expect(res.body.data[1]).toEqual({ ...client, object: 'form' })
    expect(res.body.total).toBe(3)
  })

  it('sorts by created_at or updated_at, either way', async () => {
    const { api, requested, annInternal, boInternal } = await listWorld()
    expect(references(await api.get('/forms', { order_by: 'desc' }))).toEqual([boInternal.reference, annInternal.reference, requested?.reference])
    expect(references(await api.get('/forms', { sort_by: 'updated_at' }))).toEqual([annInternal.reference, boInternal.reference, requested?.reference])
    expect(references(await api.get('/forms', { sort_by: 'updated_at', order_by: 'desc' }))).toEqual([requested?.reference, boInternal.reference, annInternal.reference])
  })

  it('filters by type', async () => {
    const { api, requested, annInternal, boInternal } = await listWorld()
    expect(references(await api.get('/forms', { type: 'requested' }))).toEqual([requested?.reference])
    expect(references(await api.get('/forms', { type: 'internal' }))).toEqual([annInternal.reference, boInternal.reference])
  })

  it('expands client and record, one level deep', async () => {
    const { api, ann, bo, record } = await listWorld()
    const res = await api.get('/forms', { expand: 'client,record' })
    const annJson = (await api.get(`/clients/${ann.id}`)).body
    const boJson = (await api.get(`/clients/${bo.id}`)).body
    const recordJson = (await api.get(`/records/${record.id}`)).body
    expect(res.body.data.map((form: any) => [form.client, form.record])).toEqual([
      [annJson, recordJson],
      [annJson, null],
      [boJson, null],
    ])
    expect((await api.get('/forms', { expand: ['record'] })).body.data[0].client).toBe(ann.id)
  })

  it('refuses unknown sorts, expansions and types with 422', async () => {
    const { api } = await listWorld()
    for (const [query, errors] of [
      [{ sort_by: 'name' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ expand: 'form' }, { expand: ['The expand parameter must be one of: client, record'] }],
      [{ type: 'sent' }, { type: ['The selected type is invalid.'] }],
    ] as const) {
      const res = await api.get('/forms', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    }
  })

  it('shows an assigned-only member the forms of the clients they are assigned to only', async () => {
    const { team, api, bo, boInternal } = await listWorld()
    const assigned = team.api('assigned-only')
    expect((await assigned.get('/forms')).body).toEqual(singlePage([]))
    await assign(api, `/clients/${bo.id}/assignees`, [team.users['assigned-only'].id])
    expect(references(await assigned.get('/forms'))).toEqual([boInternal.reference])
  })

  it('lists no other team’s forms', async () => {
    const { mock } = await listWorld()
    expect((await mock.newTeam().api().get('/forms')).body).toEqual(singlePage([]))
  })
})

describe('GET /clients/{id}/forms', () => {
  it('lists the client’s forms as client_form objects, filtered by type, with client and record expandable', async () => {
    const { api, ann, record, requested, annInternal } = await listWorld()
    const res = await api.get(`/clients/${ann.id}/forms`)
    expect(res.status).toBe(200)
    expect(res.body.data.map((form: any) => [form.object, form.reference])).toEqual([
      ['client_form', requested?.reference],
      ['client_form', annInternal.reference],
    ])
    expect(references(await api.get(`/clients/${ann.id}/forms`, { type: 'internal' }))).toEqual([annInternal.reference])
    const expanded = await api.get(`/clients/${ann.id}/forms`, { expand: ['client', 'record'], type: 'requested' })
    expect(expanded.body.data[0]).toEqual({ ...res.body.data[0], client: (await api.get(`/clients/${ann.id}`)).body, record: (await api.get(`/records/${record.id}`)).body })
  })

  it('answers 404 Client not found for an unknown client or another team’s, and 403 to an assigned-only member not assigned to it', async () => {
    const { mock, team, ann } = await listWorld()
    const other = mock.newTeam().api()
    for (const [api, id] of [
      [team.api(), UNKNOWN],
      [other, ann.id],
    ] as const) {
      const res = await api.get(`/clients/${id}/forms`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(CLIENT_NOT_FOUND)
    }
    const res = await team.api('assigned-only').get(`/clients/${ann.id}/forms`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })
})

describe('GET /clients/{id}/forms/{reference}', () => {
  it('answers the client’s form, answered by a team member for an internal one', async () => {
    const { api, bo, boInternal } = await listWorld()
    const res = await api.get(`/clients/${bo.id}/forms/${boInternal.reference}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      formJson({ id: boInternal.id, reference: boInternal.reference, type: 'internal', client: bo.id, record: null, fields: res.body.fields, created_at: at(10), updated_at: at(10), completed_at: at(10) }),
    )
    expect(valueOf(res.body, 'full_name')).toBe('Bo Hart')
  })

  it('answers 404 Form not found for an unknown reference, another client’s form or another team’s; 404 Client not found first', async () => {
    const { mock, team, api, ann, bo, boInternal } = await listWorld()
    const otherTeam = mock.newTeam()
    const theirClient = await createClient(otherTeam.api())
    const theirs = giveForm(mock, otherTeam.team, theirClient.id)
    for (const reference of [UNKNOWN_REFERENCE, boInternal.reference, theirs.reference, 'not-a-uuid']) {
      const res = await api.get(`/clients/${ann.id}/forms/${reference}`)
      expect(res.status, reference).toBe(404)
      expect(res.body).toEqual(FORM_NOT_FOUND)
    }
    expect((await api.get(`/clients/${UNKNOWN}/forms/${boInternal.reference}`)).body).toEqual(CLIENT_NOT_FOUND)
    expect((await api.get(`/clients/${theirClient.id}/forms/${theirs.reference}`)).body).toEqual(CLIENT_NOT_FOUND)
    const hidden = await team.api('assigned-only').get(`/clients/${bo.id}/forms/${boInternal.reference}`)
    expect(hidden.status).toBe(403)
    expect(hidden.body).toEqual(FORBIDDEN)
  })

  it('lets read-only members read forms', async () => {
    const { team, api, bo, boInternal } = await listWorld()
    const path = `/clients/${bo.id}/forms/${boInternal.reference}`
    const res = await team.api('read-only').get(path)
    expect(res.status).toBe(200)
    expect(res.body).toEqual((await api.get(path)).body)
  })
})

describe('GET /clients/{id}/forms/{reference}/download', () => {
  const path = (client: number, reference: string) => `${API}/clients/${client}/forms/${reference}/download`

  it('answers the form as a PDF named after its reference, with every answer shown to the client', async () => {
    const { mock, team, ann, record, requested } = await listWorld()
    const form = requested as NonNullable<typeof requested>
    const res = await download(mock, team.tokens.owner, path(ann.id, form.reference))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="form-${form.reference}.pdf"`)
    expect(res.text.startsWith('%PDF-')).toBe(true)
    const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
    expect(pdf.getTitle()).toBe('Pet owner questionnaire')
    expect(pdf.getCreationDate()).toEqual(new Date(at(15)))
    const lines = (await pdfText(res.bytes)).flat()
    const answer = (id: string) => form.fields.find((field) => field.id === id) as { value: unknown }
    const petsShown = answer('has_pet').value === 'Yes'
    const pets = answer('pets').value as string[] | null
    const history = answer('history').value as string | null
    expect(lines).toEqual([
      'Pet owner questionnaire',
      `${team.team.row.name}, as of ${at(15)}`,
      'Client',
      'Name',
      'Ann Lee',
      'Email',
      ann.email,
      'Client id',
      String(ann.id),
      'Form',
      'Reference',
      form.reference,
      'Type',
      'requested (completed by the client)',
      'Record',
      String(record.id),
      'Version',
      '1',
      'Created at',
      NOW,
      'Completed at',
      at(15),
      'Description',
      'About you and your pets.',
      'Instructions',
      'Please answer every question.',
      '',
      '- Be honest',
      '- Be brief',
      'Questions',
      'Please answer every question.',
      '',
      '- Be honest',
      '- Be brief',
      'About you',
      'Full name *',
      'Ann Lee',
      'Employment history',
      history ?? 'Not answered',
      'Do you have a pet? *',
      answer('has_pet').value as string,
      ...(petsShown ? ["Your pet's name *", answer('pet_name').value as string, 'Which pets?', pets === null ? 'Not answered' : pets.join(', ')] : []),
      'Passport *',
      'passport.jpg',
      'Fields marked * are required.',
      'Made by the IVS mock: not a document of the real service. Page 1 of 1.',
    ])
  })

  it('lays nested sections out where they stand, each under its own title (docs/specification-notes.md "Forms and form templates")', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const ann = await createClient(api, 'Ann', 'Lee')
    const template = await createTemplate(api, NESTED_TEMPLATE_BODY)
    const record = await createRecord(api, ann.id, [template.reference])
    const reference = record.steps[0].form as string
    const made = (await api.get(`/clients/${ann.id}/forms/${reference}`)).body
    expect(made.fields).toEqual(NESTED_FIELDS.map((field) => (field.type === 'section' ? field : { ...field, flag: false, value: null })))
    await complete(mock, record)
    const form = (await api.get(`/clients/${ann.id}/forms/${reference}`)).body
    expect(form.completed_at).toBe(NOW)
    expect(valueOf(form, '3')).toBe('Ann Lee')
    const drives = valueOf(form, '4') === 'Yes'
    expect(['Yes', 'No']).toContain(valueOf(form, '4'))
    expect(valueOf(form, '6') === null).toBe(!drives)
    const res = await download(mock, team.tokens.owner, path(ann.id, reference))
    expect(res.status).toBe(200)
    const lines = (await pdfText(res.bytes)).flat()
    expect(lines.slice(lines.indexOf('Completed at') + 2)).toEqual([
      'Personal details',
      'Full name *',
      'Ann Lee',
      'Do you drive? *',
      valueOf(form, '4'),
      'Driving',
      ...(drives ? ['Licence number *', valueOf(form, '6')] : []),
      'Fields marked * are required.',
      'Made by the IVS mock: not a document of the real service. Page 1 of 1.',
    ])
  })

  it('shows an unanswered form as not completed', async () => {
    const { mock, team, ann, annInternal } = await listWorld()
    const lines = (await pdfText((await download(mock, team.tokens.owner, path(ann.id, annInternal.reference))).bytes)).flat()
    expect(lines).toContain('internal (completed by the team)')
    expect(lines).toContain('not completed')
    expect(lines.filter((line) => line === 'Not answered')).toHaveLength(4)
  })

  it('answers the 404s and 403s of the form itself', async () => {
    const { mock, team, ann, bo, boInternal } = await listWorld()
    const cases: Array<[string | undefined, string, number, unknown]> = [
      [team.tokens.owner, path(ann.id, boInternal.reference), 404, FORM_NOT_FOUND],
      [team.tokens.owner, path(UNKNOWN, boInternal.reference), 404, CLIENT_NOT_FOUND],
      [team.tokens['assigned-only'], path(bo.id, boInternal.reference), 403, FORBIDDEN],
      [mock.newTeam().tokens.owner, path(bo.id, boInternal.reference), 404, CLIENT_NOT_FOUND],
    ]
    for (const [token, url, status, body] of cases) {
      const res = await download(mock, token, url)
      expect(res.status, url).toBe(status)
      expect(JSON.parse(res.text)).toEqual(body)
    }
    expect((await download(mock, team.tokens['read-only'], path(bo.id, boInternal.reference))).status).toBe(200)
  })
})

describe('deleting a client', () => {
  it('deletes its forms', async () => {
    const { api, bo, boInternal } = await listWorld()
    expect((await api.delete(`/clients/${bo.id}`)).status).toBe(204)
    expect(references(await api.get('/forms'))).not.toContain(boInternal.reference)
  })
})

describe('seeded forms', () => {
  it('gives some generated clients an internal form the team filled in, between the client’s creation and the epoch', async () => {
    const mock = createTestMock()
    const api = mock.api()
    const res = await api.get('/forms', { type: 'internal', limit: 100, expand: 'client' })
    expect(res.status).toBe(200)
    expect(res.body.total).toBeGreaterThan(3)
    const templates = (await api.get('/form-templates')).body.data
    for (const form of res.body.data) {
      expect(form.completed_at).not.toBeNull()
      expect(form.created_at > form.client.created_at).toBe(true)
      expect(form.completed_at >= form.created_at).toBe(true)
      expect(form.completed_at < fixture.epoch).toBe(true)
      expect(templates.map((template: any) => template.name)).toContain(form.name)
    }
    expect((await api.get('/forms', { type: 'requested' })).body.total).toBe(0)
    const acme = mock.store.team((await api.get('/team')).body.id)
    const files = acme?.files.filter((file) => file.source.type === 'client_form') ?? []
    expect(files.length).toBeGreaterThan(0)
    expect(files.every((file) => file.type === 'internal' && file.created_by.type === 'team_member')).toBe(true)
  })

  it('seeds form templates that pass the contract and the builder’s rules', () => {
    for (const team of createTestMock().store.allTeams()) {
      expect(team.formTemplates.size).toBe(3)
      for (const row of team.formTemplates) expect(contracts.schemaValidator('form-template')({ ...row, object: 'form_template' }), row.name).toBe(true)
    }
  })
})

describe('roles', () => {
  it('lets an assigned-only member read the forms of a client they are assigned to, as the owner sees them', async () => {
    const { team, api, bo, boInternal } = await listWorld()
    await assign(api, `/clients/${bo.id}/assignees`, [team.users['assigned-only'].id])
    const path = `/clients/${bo.id}/forms/${boInternal.reference}`
    expect((await team.api('assigned-only').get(path)).body).toEqual((await api.get(path)).body)
  })

  it('keeps an expanded record an assigned-only member is not assigned to collapsed', async () => {
    const { team, api, ann, record } = await listWorld()
    await assign(api, `/clients/${ann.id}/assignees`, [team.users['assigned-only'].id])
    const res = await team.api('assigned-only').get(`/clients/${ann.id}/forms`, { expand: 'record', type: 'requested' })
    expect(res.body.data[0].record).toBe(record.id)
  })

  it.each(['member', 'read-only'] as const)('%s members see every form of the team', async (role) => {
    const { team } = await listWorld()
    expect((await team.api(role).get('/forms')).body).toEqual((await team.api().get('/forms')).body)
  })
})
