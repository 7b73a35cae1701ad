// Form template bodies for the form template and form tests: one field of every builder type
// (docs/specification-notes.md "Forms and form templates"), with show_if on a choice.
import { expect } from 'vitest'
import type { ApiClient } from './api.ts'

export const RICH_TEXT = {
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'Please answer every question.' }] },
    {
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Be honest' }] }] },
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Be brief', marks: [{ type: 'bold' }] }] }] },
      ],
    },
  ],
}

/** The fields of TEMPLATE_BODY as stored and returned: defaults filled in, the stray field dropped. */
export const STORED_FIELDS = [
  { id: 'root', type: 'section', label: '', fields: ['intro', 'about', 'full_name', 'history', 'has_pet', 'pet_name', 'pets', 'passport'] },
  { id: 'intro', type: 'rich_text', json_content: RICH_TEXT, show_if: null },
  { id: 'about', type: 'heading', label: 'About you', show_if: null },
  { id: 'full_name', type: 'text', label: 'Full name', validation: ['required'], show_if: null },
  { id: 'history', type: 'textarea', label: 'Employment history', validation: null, show_if: null },
  { id: 'has_pet', type: 'radio', label: { value: 'Do you have a pet?', options: ['Yes', 'No'] }, validation: ['required'], show_if: null },
  { id: 'pet_name', type: 'text', label: "Your pet's name", validation: ['required'], show_if: { has_pet: 'Yes' } },
  { id: 'pets', type: 'checkbox', label: { value: 'Which pets?', options: ['Cat', 'Dog', 'Fish'] }, validation: null, show_if: { has_pet: 'Yes' } },
  { id: 'passport', type: 'document', label: 'Passport', description: 'The photo page.', validation: ['required'], show_if: null },
]

/** A create body with every field type, defaults left out, and a field held by no section. */
export const TEMPLATE_BODY = {
  name: 'Pet owner questionnaire',
  description: 'About you and your pets.',
  instructions: RICH_TEXT,
  fields: [
    { id: 'root', type: 'section', label: '', fields: ['intro', 'about', 'full_name', 'history', 'has_pet', 'pet_name', 'pets', 'passport'] },
    { id: 'intro', type: 'rich_text', json_content: RICH_TEXT },
    { id: 'about', type: 'heading', label: 'About you', validation: ['required'] },
    { id: 'full_name', type: 'text', label: 'Full name', validation: ['required'], flag: true },
    { id: 'history', type: 'textarea', label: 'Employment history', validation: [] },
    { id: 'has_pet', type: 'radio', label: { value: 'Do you have a pet?', options: ['Yes', 'No'] }, validation: ['required'] },
    { id: 'pet_name', type: 'text', label: "Your pet's name", validation: ['required'], show_if: { has_pet: 'Yes' } },
    { id: 'pets', type: 'checkbox', label: { value: 'Which pets?', options: ['Cat', 'Dog', 'Fish'] }, show_if: { has_pet: 'Yes' } },
    { id: 'passport', type: 'document', label: 'Passport', description: 'The photo page.', validation: ['required'] },
    { id: 'stray', type: 'text', label: 'In no section' },
  ],
}

/**
 * Nested sections in the shape of the reference's own create example (docs/specification-notes.md "Forms and form templates"): a root section
 * with a blank label whose only field is a titled section holding the inputs, one level deeper a
 * section shown to drivers. Given as stored (every default written out), so it is its own answer.
 */
export const NESTED_FIELDS = [
  { id: '1', type: 'section', label: '', fields: ['2'] },
  { id: '2', type: 'section', label: 'Personal details', fields: ['3', '4', '5'] },
  { id: '3', type: 'text', label: 'Full name', validation: ['required'], show_if: null },
  { id: '4', type: 'radio', label: { value: 'Do you drive?', options: ['Yes', 'No'] }, validation: ['required'], show_if: null },
  { id: '5', type: 'section', label: 'Driving', fields: ['6'] },
  { id: '6', type: 'text', label: 'Licence number', validation: ['required'], show_if: { '4': 'Yes' } },
]

export const NESTED_TEMPLATE_BODY = { name: 'Contact details', fields: NESTED_FIELDS }

/** Creates a form template through the API; answers the created template. */
export async function createTemplate(api: ApiClient, body: Record<string, unknown> = TEMPLATE_BODY): Promise<any> {
  const res = await api.post('/form-templates', body)
  expect(res.status, res.text).toBe(201)
  return res.body
}
