// Form templates (docs/specification-notes.md "Forms and form templates", docs/specification-notes.md "Methods and paths",
// docs/specification-notes.md "Status codes and bodies", docs/specification-notes.md "Roles").
import { describe, expect, it } from 'vitest'
import type { DocumentTemplateRow } from '../../src/resources/documents/rows.ts'
import { createTemplate, NESTED_FIELDS, NESTED_TEMPLATE_BODY, RICH_TEXT, STORED_FIELDS, TEMPLATE_BODY } from '../support/forms.ts'
import { at, createTestMock, NOW, type TestMock } from '../support/mock.ts'
import { singlePage } from '../support/wire.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const NOT_FOUND = { error: 'Form template not found' }
const UNKNOWN = '6f1d2c3b-4a59-4e68-9d7c-8b6a5f4e3d2c'
const MINUTE = 60_000
const SEEDED = ['New starter details', 'Health questionnaire', 'Client due diligence']

function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  return { mock, team, api: team.api() }
}

function templateJson(id: number, reference: string, overrides: Record<string, unknown> = {}) {
  return {
    object: 'form_template',
    id,
    reference,
    name: 'Pet owner questionnaire',
    description: 'About you and your pets.',
    instructions: RICH_TEXT,
    fields: STORED_FIELDS,
    version: 1,
    is_enabled: true,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...overrides,
  }
}

/** A two-field body: a section holding one text field. */
const minimal = (label = 'Referee name') => ({ name: 'Referee details', fields: [{ id: 'root', type: 'section', label: 'Referee', fields: ['name'] }, { id: 'name', type: 'text', label }] })

function giveDocumentTemplate(mock: TestMock, team: ReturnType<TestMock['newTeam']>): DocumentTemplateRow {
  return team.team.documentTemplates.insert({
    id: mock.store.nextId('document_template'),
    name: 'Proof of address',
    description: 'A recent utility bill or bank statement.',
    content: 'Upload a utility bill or bank statement from the last three months.',
    is_enabled: true,
    created_at: NOW,
    updated_at: NOW,
  })
}

describe('GET /form-templates', () => {
  it('lists the seeded library of every team, new ones included, in creation order', async () => {
    const { api, team } = setup()
    const res = await api.get('/form-templates')
    expect(res.status).toBe(200)
    expect(res.body.data.map((template: any) => template.name)).toEqual(SEEDED)
    expect(res.body.data.map((template: any) => template.version)).toEqual([2, 3, 1])
    expect(res.body).toEqual(singlePage(team.team.formTemplates.all().map((template) => ({ ...template, object: 'form_template' }))))
  })

  it('uses every builder field type and show_if in the seeded templates', async () => {
    const { api } = setup()
    const fields = (await api.get('/form-templates')).body.data.flatMap((template: any) => template.fields)
    expect(new Set(fields.map((field: any) => field.type))).toEqual(new Set(['section', 'heading', 'rich_text', 'text', 'textarea', 'radio', 'checkbox', 'document']))
    expect(fields.some((field: any) => field.show_if !== null && field.show_if !== undefined)).toBe(true)
  })

  it('filters by enabled and pages', async () => {
    const { api } = setup()
    const disabled = await createTemplate(api, { ...minimal(), is_enabled: false })
    expect((await api.get('/form-templates', { enabled: false })).body).toEqual(singlePage([disabled]))
    expect((await api.get('/form-templates', { enabled: true })).body.data.map((template: any) => template.name)).toEqual(SEEDED)
    const page = await api.get('/form-templates', { limit: 3, page: 2 })
    expect(page.body).toEqual({
      object: 'paginated_list',
      data: [disabled],
      total: 4,
      count: 1,
      limit: 3,
      current_page: 2,
      total_pages: 2,
      links: { next: null, previous: 'http://localhost/api/v2/form-templates?limit=3&page=1' },
    })
  })

  it('shows no other team its templates', async () => {
    const { mock, api } = setup()
    const mine = await createTemplate(api)
    const other = mock.newTeam().api()
    expect((await other.get('/form-templates')).body.data.map((template: any) => template.id)).not.toContain(mine.id)
  })

  it('refuses a bad filter with 422', async () => {
    const { api } = setup()
    const res = await api.get('/form-templates', { enabled: 'maybe' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ enabled: ['The enabled field must be true or false.'] })
  })
})

describe('POST /form-templates', () => {
  it('creates version 1 with every field type, defaults filled in, flag ignored and fields outside a section dropped', async () => {
    const { api, team, mock } = setup()
    const res = await api.post('/form-templates', TEMPLATE_BODY)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(templateJson(res.body.id, res.body.reference))
    expect(res.body.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect((await api.get(`/form-templates/${res.body.reference}`)).body).toEqual(res.body)
    expect(team.team.formTemplates.size).toBe(4)
    expect(mock.events).toEqual([])
  })

  it('takes a section with a blank label as "" and a description and instructions of null', async () => {
    const { api } = setup()
    const body = { name: 'Referee details', description: null, instructions: null, fields: [{ id: 'root', type: 'section', label: '   ', fields: ['name'] }, { id: 'name', type: 'text', label: 'Referee name', show_if: {} }] }
    const res = await api.post('/form-templates', body)
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual(
      templateJson(res.body.id, res.body.reference, {
        name: 'Referee details',
        description: null,
        instructions: null,
        fields: [
          { id: 'root', type: 'section', label: '', fields: ['name'] },
          { id: 'name', type: 'text', label: 'Referee name', validation: null, show_if: null },
        ],
      }),
    )
  })

  it("takes nested sections: the reference's own example, a root section holding a titled section (docs/specification-notes.md \"Forms and form templates\")", async () => {
    const { api } = setup()
    const res = await api.post('/form-templates', NESTED_TEMPLATE_BODY)
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual(templateJson(res.body.id, res.body.reference, { name: 'Contact details', description: null, instructions: null, fields: NESTED_FIELDS }))
    expect((await api.get(`/form-templates/${res.body.reference}`)).body).toEqual(res.body)
  })

  it('takes a document field from one of the team’s document templates', async () => {
    const { mock, team, api } = setup()
    const documentTemplate = giveDocumentTemplate(mock, team)
    const body = { name: 'Address check', fields: [{ id: 'root', type: 'section', fields: ['proof'] }, { id: 'proof', type: 'document', template_id: documentTemplate.id, validation: ['required'] }] }
    const res = await api.post('/form-templates', body)
    expect(res.status, res.text).toBe(201)
    expect(res.body.fields).toEqual([
      { id: 'root', type: 'section', label: '', fields: ['proof'] },
      { id: 'proof', type: 'document', template_id: documentTemplate.id, validation: ['required'], show_if: null },
    ])
  })

  it('refuses a document template of another team, and a template field with a label', async () => {
    const { mock, team, api } = setup()
    const documentTemplate = giveDocumentTemplate(mock, team)
    const otherTeam = mock.newTeam()
    const theirs = giveDocumentTemplate(mock, otherTeam)
    const fields = [
      { id: 'root', type: 'section', fields: ['mine', 'theirs'] },
      { id: 'mine', type: 'document', template_id: documentTemplate.id },
      { id: 'theirs', type: 'document', template_id: theirs.id },
    ]
    const res = await api.post('/form-templates', { name: 'Address check', fields })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ 'fields.2.template_id': ['The selected template id is invalid.'] })
    const both = await api.post('/form-templates', { name: 'Address check', fields: [fields[0], { ...fields[1], label: 'Proof', description: 'A bill' }] })
    expect(both.status).toBe(422)
    expect(both.body).toEqual({
      'fields.1.label': ['The label field is prohibited when template id is present.'],
      'fields.1.description': ['The description field is prohibited when template id is present.'],
    })
  })

  it.each([
    ['an empty body', {}, { name: ['The name field is required.'], fields: ['The fields field is required.'] }],
    ['one field', { name: 'x', fields: [{ id: 'root', type: 'section', fields: [] }] }, { fields: ['The fields field must have at least 2 items.'] }],
    ['a long name', { ...minimal(), name: 'x'.repeat(256) }, { name: ['The name field must not be greater than 255 characters.'] }],
    [
      'more than 200 fields',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: [] }, ...Array.from({ length: 200 }, (_, i) => ({ id: `f${i}`, type: 'text', label: 'Q' }))] },
      { fields: ['The fields field must not have more than 200 items.'] },
    ],
    ['a text field without a label', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'text' }] }, { 'fields.1.label': ['The label field is required.'] }],
    ['an unknown type', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'paragraph', label: 'Hi' }] }, { 'fields.1.type': ['The selected type is invalid.'] }],
    [
      'a choice with one option',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'radio', label: { value: 'Q', options: ['Only'] } }] },
      { 'fields.1.label.options': ['The options field must have at least 2 items.'] },
    ],
    [
      'a choice with the same option twice',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'checkbox', label: { value: 'Q', options: ['Yes', 'Yes'] } }] },
      { 'fields.1.label.options': ['The options field has a duplicate value.'] },
    ],
    ['a choice with a string label', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'radio', label: 'Q' }] }, { 'fields.1.label': ['The label field must be an object.'] }],
    ['a rich text without its document', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'rich_text', label: 'Hi' }] }, { 'fields.1.json_content': ['The json content field is required.'] }],
    [
      'a rich text that is no document',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'rich_text', json_content: { type: 'html', content: [] } }] },
      { 'fields.1.json_content.type': ['The selected type is invalid.'] },
    ],
    ['a validation other than required', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'text', label: 'Q', validation: ['email'] }] }, { 'fields.1.validation.0': ['The selected validation is invalid.'] }],
    ['a manual document without a label', { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'document', description: 'A bill' }] }, { 'fields.1.label': ['The label field is required.'] }],
    ['a first field that is no section', { name: 'x', fields: [{ id: 'a', type: 'text', label: 'Q' }, { id: 'root', type: 'section', fields: ['a'] }] }, { 'fields.0.type': ['The first field must be a section.'] }],
    [
      'two fields with one id',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'text', label: 'Q' }, { id: 'a', type: 'textarea', label: 'R' }] },
      { 'fields.1.id': ['The id field has a duplicate value.'], 'fields.2.id': ['The id field has a duplicate value.'] },
    ],
    [
      'a section holding an unknown field or a field another section holds',
      {
        name: 'x',
        fields: [
          { id: 'root', type: 'section', fields: ['a', 'nope', 'more'] },
          { id: 'a', type: 'text', label: 'Q' },
          { id: 'more', type: 'section', label: 'More', fields: ['a'] },
        ],
      },
      { 'fields.0.fields.1': ['The selected fields is invalid.'], 'fields.2.fields.0': ['The fields field has a duplicate value.'] },
    ],
    [
      'a section holding itself, the first section, or a section that holds it',
      {
        name: 'x',
        fields: [
          { id: 'root', type: 'section', fields: ['a', 'b'] },
          { id: 'a', type: 'section', label: 'A', fields: ['a', 'c'] },
          { id: 'b', type: 'section', label: 'B', fields: ['root', 'q'] },
          { id: 'c', type: 'section', label: 'C', fields: ['d'] },
          { id: 'd', type: 'section', label: 'D', fields: ['a'] },
          { id: 'q', type: 'text', label: 'Q' },
          { id: 'x', type: 'section', label: 'X', fields: ['y'] },
          { id: 'y', type: 'section', label: 'Y', fields: ['x'] },
        ],
      },
      {
        'fields.1.fields.0': ['The selected fields is invalid.'],
        'fields.2.fields.0': ['The selected fields is invalid.'],
        'fields.4.fields.0': ['The fields field has a duplicate value.'],
        'fields.6.fields.0': ['The selected fields is invalid.'],
      },
    ],
    [
      'show_if naming an unknown field, a heading, a field outside every section, or an option the choice lacks',
      {
        name: 'x',
        fields: [
          { id: 'root', type: 'section', fields: ['choice', 'h', 'a', 'b', 'c', 'd'] },
          { id: 'choice', type: 'radio', label: { value: 'Q', options: ['Yes', 'No'] } },
          { id: 'h', type: 'heading', label: 'H' },
          { id: 'a', type: 'text', label: 'A', show_if: { nope: 'x' } },
          { id: 'b', type: 'text', label: 'B', show_if: { h: 'x' } },
          { id: 'c', type: 'text', label: 'C', show_if: { stray: 'x' } },
          { id: 'd', type: 'text', label: 'D', show_if: { choice: 'Maybe' } },
          { id: 'stray', type: 'text', label: 'S' },
        ],
      },
      {
        'fields.3.show_if': ['The selected show if is invalid.'],
        'fields.4.show_if': ['The selected show if is invalid.'],
        'fields.5.show_if': ['The selected show if is invalid.'],
        'fields.6.show_if': ['The selected show if is invalid.'],
      },
    ],
    [
      'show_if naming the field itself',
      { name: 'x', fields: [{ id: 'root', type: 'section', fields: ['a'] }, { id: 'a', type: 'text', label: 'Q', show_if: { a: 'x' } }] },
      { 'fields.1.show_if': ['The selected show if is invalid.'] },
    ],
  ])('refuses %s with 422 and creates nothing', async (_, body, errors) => {
    const { api, team } = setup()
    const res = await api.post('/form-templates', body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
    expect(team.team.formTemplates.size).toBe(3)
  })

  it('is refused to read-only members (403) and allowed to members', async () => {
    const { team } = setup()
    const res = await team.api('read-only').post('/form-templates', minimal())
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect((await team.api('member').post('/form-templates', minimal())).status).toBe(201)
  })
})

describe('GET /form-templates/{reference}', () => {
  it('answers the template', async () => {
    const { api } = setup()
    const made = await createTemplate(api)
    const res = await api.get(`/form-templates/${made.reference}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(templateJson(made.id, made.reference))
  })

  it('answers 404 Form template not found for an unknown reference, another team’s, or one that is no uuid', async () => {
    const { mock, api } = setup()
    const theirs = await createTemplate(mock.newTeam().api())
    for (const reference of [UNKNOWN, theirs.reference, 'not-a-uuid']) {
      const res = await api.get(`/form-templates/${reference}`)
      expect(res.status, reference).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
  })
})

describe('PATCH /form-templates/{reference}', () => {
  it('takes nested sections, moving fields between them', async () => {
    const { mock, api } = setup()
    const made = await createTemplate(api)
    mock.clock.advance(5 * MINUTE)
    const nested = await api.patch(`/form-templates/${made.reference}`, { fields: NESTED_FIELDS })
    expect(nested.status, nested.text).toBe(200)
    expect(nested.body).toEqual(templateJson(made.id, made.reference, { fields: NESTED_FIELDS, version: 2, updated_at: at(5) }))
    // The licence number moves up into Personal details; the Driving section, left empty, stays.
    const moved = NESTED_FIELDS.map((field) => (field.id === '2' ? { ...field, fields: ['3', '4', '6', '5'] } : field.id === '5' ? { ...field, fields: [] } : field))
    const res = await api.patch(`/form-templates/${made.reference}`, { fields: moved })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual(templateJson(made.id, made.reference, { fields: moved, version: 3, updated_at: at(5) }))
    expect((await api.get(`/form-templates/${made.reference}`)).body).toEqual(res.body)
  })

  it('raises version by one for each update that changes something, and moves updated_at', async () => {
    const { mock, api } = setup()
    const made = await createTemplate(api)
    mock.clock.advance(5 * MINUTE)
    const renamed = await api.patch(`/form-templates/${made.reference}`, { name: 'Pets', is_enabled: false })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toEqual(templateJson(made.id, made.reference, { name: 'Pets', is_enabled: false, version: 2, updated_at: at(5) }))
    mock.clock.advance(5 * MINUTE)
    const refielded = await api.patch(`/form-templates/${made.reference}`, { fields: minimal('Pet name').fields, description: null, instructions: null })
    expect(refielded.body).toEqual(
      templateJson(made.id, made.reference, {
        name: 'Pets',
        description: null,
        instructions: null,
        is_enabled: false,
        fields: [
          { id: 'root', type: 'section', label: 'Referee', fields: ['name'] },
          { id: 'name', type: 'text', label: 'Pet name', validation: null, show_if: null },
        ],
        version: 3,
        updated_at: at(10),
      }),
    )
    expect((await api.get(`/form-templates/${made.reference}`)).body).toEqual(refielded.body)
  })

  it('keeps version and updated_at when nothing changes', async () => {
    const { mock, api } = setup()
    const made = await createTemplate(api)
    mock.clock.advance(5 * MINUTE)
    const res = await api.patch(`/form-templates/${made.reference}`, { name: TEMPLATE_BODY.name, fields: TEMPLATE_BODY.fields, is_enabled: true })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(made)
  })

  it('needs at least one property, and checks fields like a create', async () => {
    const { api } = setup()
    const made = await createTemplate(api)
    const empty = await api.patch(`/form-templates/${made.reference}`, {})
    expect(empty.status).toBe(422)
    expect(empty.body).toEqual({ errors: ['At least one property is required'] })
    const bad = await api.patch(`/form-templates/${made.reference}`, { fields: [{ id: 'a', type: 'text', label: 'Q' }, { id: 'b', type: 'section', fields: ['a'] }] })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ 'fields.0.type': ['The first field must be a section.'] })
    expect((await api.get(`/form-templates/${made.reference}`)).body).toEqual(made)
  })

  it('answers 404 for an unknown or another team’s reference, and 403 to read-only members', async () => {
    const { mock, api, team } = setup()
    const theirs = await createTemplate(mock.newTeam().api())
    for (const reference of [UNKNOWN, theirs.reference]) {
      const res = await api.patch(`/form-templates/${reference}`, { name: 'Mine now' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
    const made = await createTemplate(api)
    const res = await team.api('read-only').patch(`/form-templates/${made.reference}`, { name: 'Mine now' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect((await api.get(`/form-templates/${made.reference}`)).body).toEqual(made)
  })
})

describe('DELETE /form-templates/{reference}', () => {
  it('answers 204; the template is gone, and a record step can no longer name it', async () => {
    const { api } = setup()
    const made = await createTemplate(api)
    const res = await api.delete(`/form-templates/${made.reference}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await api.get(`/form-templates/${made.reference}`)).body).toEqual(NOT_FOUND)
    expect((await api.delete(`/form-templates/${made.reference}`)).status).toBe(404)
    expect((await api.get('/form-templates')).body.data.map((template: any) => template.name)).toEqual(SEEDED)
    const steps = await api.post('/steps', { steps: [{ type: 'form', preferences: { form: made.reference } }] })
    expect(steps.status).toBe(422)
    expect(steps.body).toEqual({ 'steps.0.preferences.form': ['The selected form is invalid.'] })
  })

  it('answers 404 for another team’s template and 403 to read-only members', async () => {
    const { mock, api, team } = setup()
    const theirs = await createTemplate(mock.newTeam().api())
    expect((await api.delete(`/form-templates/${theirs.reference}`)).body).toEqual(NOT_FOUND)
    const made = await createTemplate(api)
    const res = await team.api('read-only').delete(`/form-templates/${made.reference}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
    expect((await api.get(`/form-templates/${made.reference}`)).status).toBe(200)
  })
})
