// Seeded form templates and internal forms. Every team, new ones included, gets three templates in
// its library (like its record templates), built from the same field inputs the API takes and
// checked by the same rules (templateFields), using every builder field type and show_if. About a
// fifth of the generated clients have an internal form the team filled in from one of them,
// answered by the same code that answers a client's form step; their uploads become client files.
// Everything lies between the client's creation and the epoch.
import type { Faker } from '@faker-js/faker'
import { teamContext } from '../context.ts'
import type { FormTemplateFieldInputJson, RichTextJson, RichTextListItemJson, RichTextListJson } from '../contracts/generated.ts'
import { toTimestamp } from '../kernel/clock.ts'
import { templateFields, type FormTemplateRow } from '../resources/form-templates/index.ts'
import { completeForm, createForm } from '../resources/forms/index.ts'
import type { Store, Team } from '../store/world.ts'
import { seedServices } from './records.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

type Input = FormTemplateFieldInputJson

const doc = (...content: RichTextJson['content']): RichTextJson => ({ type: 'doc', content })
const paragraph = (text: string): RichTextJson['content'][number] => ({ type: 'paragraph', content: [{ type: 'text', text }] })
const bullets = (first: string, ...items: string[]): RichTextListJson => ({
  type: 'bulletList',
  content: [first, ...items].map((item): RichTextListItemJson => ({ type: 'listItem', content: [paragraph(item)] })) as RichTextListJson['content'],
})

const REQUIRED = ['required'] as ['required']
const section = (id: string, label: string, fields: string[]): Input => ({ id, type: 'section', label, fields })
const heading = (id: string, label: string): Input => ({ id, type: 'heading', label })
const text = (id: string, label: string, required = true): Input => ({ id, type: 'text', label, validation: required ? REQUIRED : null })
const textarea = (id: string, label: string, required = true, showIf?: Record<string, string>): Input => ({
  id,
  type: 'textarea',
  label,
  validation: required ? REQUIRED : null,
  show_if: showIf ?? null,
})
const choice = (id: string, type: 'radio' | 'checkbox', value: string, options: string[], required = true): Input => ({
  id,
  type,
  label: { value, options },
  validation: required ? REQUIRED : null,
})
const YES_NO = ['Yes', 'No']

/** A document field: from the team's first document template when it has one, else described by hand. */
function documentField(team: Team, id: string, label: string, description: string, showIf: Record<string, string> | null = null): Input {
  const template = team.documentTemplates.all()[0]
  return template
    ? { id, type: 'document', template_id: template.id, validation: REQUIRED, show_if: showIf }
    : { id, type: 'document', label, description, validation: REQUIRED, show_if: showIf }
}

interface TemplateSeed {
  name: string
  description: string
  instructions: RichTextJson | null
  fields: Input[]
  /** How many times it was edited since it was made (its version is one more). */
  edits: number
}

function templates(team: Team): TemplateSeed[] {
  return [
    {
      name: 'New starter details',
      description: 'Personal, contact and bank details we need before your first day.',
      instructions: doc(
        paragraph('Please complete this form before your start date so we can set you up on payroll.'),
        bullets('Have your National Insurance number and bank details to hand.', 'It takes about ten minutes.'),
      ),
      edits: 1,
      fields: [
        section('about', '', ['about_heading', 'full_name', 'date_of_birth', 'ni_number', 'mobile', 'home_address', 'emergency_heading', 'emergency_name', 'emergency_relationship', 'emergency_phone']),
        heading('about_heading', 'About you'),
        text('full_name', 'Full name'),
        text('date_of_birth', 'Date of birth'),
        text('ni_number', 'National Insurance number'),
        text('mobile', 'Mobile phone number', false),
        textarea('home_address', 'Home address'),
        heading('emergency_heading', 'Emergency contact'),
        text('emergency_name', 'Emergency contact name'),
        text('emergency_relationship', 'Relationship to you'),
        text('emergency_phone', 'Emergency contact phone number'),
        section('bank', 'Bank details', ['account_name', 'sort_code', 'account_number', 'bank_proof']),
        text('account_name', 'Name on the account', false),
        text('sort_code', 'Sort code'),
        text('account_number', 'Account number'),
        {
          id: 'bank_proof',
          type: 'document',
          label: 'Proof of bank account',
          description: 'A bank statement or a letter from your bank showing your name, sort code and account number.',
        },
        section('right_to_work', 'Right to work', ['needs_visa', 'visa', 'first_day_documents']),
        choice('needs_visa', 'radio', 'Do you need a visa to work in the UK?', YES_NO),
        {
          id: 'visa',
          type: 'document',
          label: 'Visa or biometric residence permit',
          description: 'Both sides of your biometric residence permit, or the page of your passport with your visa.',
          validation: REQUIRED,
          show_if: { needs_visa: 'Yes' },
        },
        choice('first_day_documents', 'checkbox', 'Which documents can you bring on your first day?', ['Passport', 'Driving licence', 'Birth certificate', 'Biometric residence permit'], false),
      ],
    },
    {
      name: 'Health questionnaire',
      description: 'A confidential questionnaire for our occupational health adviser.',
      instructions: doc(paragraph('Your answers are seen only by our occupational health adviser, not by your manager.')),
      edits: 2,
      fields: [
        section('health', '', ['intro', 'has_condition', 'condition_details', 'recent_history', 'wants_adjustments', 'adjustments']),
        {
          id: 'intro',
          type: 'rich_text',
          json_content: doc(paragraph('Tell us about anything that might affect your health or safety at work, so that we can support you.')),
        },
        choice('has_condition', 'radio', 'Do you have a medical condition that could affect your work?', YES_NO),
        textarea('condition_details', 'Describe the condition and any medication you take', true, { has_condition: 'Yes' }),
        choice('recent_history', 'checkbox', 'Have you had any of the following in the last two years?', ['Back problems', 'Asthma', 'Diabetes', 'Epilepsy', 'None of these']),
        choice('wants_adjustments', 'radio', 'Would you like us to make adjustments for you at work?', YES_NO, false),
        textarea('adjustments', 'Which adjustments would help you?', true, { wants_adjustments: 'Yes' }),
        section('declaration', 'Declaration', ['declaration_text', 'confirm']),
        {
          id: 'declaration_text',
          type: 'rich_text',
          json_content: doc(paragraph('By confirming, you declare that:'), bullets('the information you have given is true and complete;', 'you will tell us if your health changes.')),
        },
        choice('confirm', 'radio', 'I confirm the declaration above', ['I confirm', 'I do not confirm']),
      ],
    },
    {
      name: 'Client due diligence',
      description: 'Source of funds and politically exposed person checks for new clients.',
      instructions: null,
      edits: 0,
      // Shaped like the reference's own example (docs/specification-notes.md "Forms and form templates"): a root section whose fields are titled sections.
      fields: [
        section('due_diligence', '', ['funds', 'pep']),
        section('funds', 'Source of funds', ['funds_source', 'funds_details', 'funds_evidence']),
        choice('funds_source', 'radio', 'What is the main source of the funds for this transaction?', ['Salary from employment', 'Savings', 'Sale of a property', 'Inheritance', 'Gift', 'Business profits']),
        textarea('funds_details', 'Give details of the source of funds'),
        documentField(team, 'funds_evidence', 'Evidence of the source of funds', 'Bank statements covering the last three months.'),
        section('pep', 'Politically exposed persons', ['pep_explained', 'is_pep', 'pep_details', 'identity_heading', 'photo_id', 'occupation', 'employer']),
        {
          id: 'pep_explained',
          type: 'rich_text',
          json_content: doc(
            paragraph('A politically exposed person holds, or has held in the last year, a prominent public function, for example:'),
            bullets('a head of state, minister or member of parliament;', 'a senior judge, ambassador or senior military officer;', 'a board member of a state-owned business.'),
          ),
        },
        choice('is_pep', 'radio', 'Are you, or is a close family member or associate, a politically exposed person?', YES_NO),
        textarea('pep_details', 'Give details of the position held', true, { is_pep: 'Yes' }),
        heading('identity_heading', 'Identity'),
        { id: 'photo_id', type: 'document', label: 'Photo ID', description: 'Your passport or photocard driving licence.', validation: REQUIRED },
        text('occupation', 'Occupation'),
        text('employer', 'Employer name', false),
      ],
    },
  ]
}

/**
 * The team's form templates, and internal forms for about a fifth of its generated clients, made
 * before `epoch` with a seed clock and random of their own (seeded history publishes nothing).
 */
export function generateForms(faker: Faker, store: Store, team: Team, epoch: Date): void {
  const services = seedServices(faker, store, epoch)
  const { clock } = services
  const ctx = teamContext(services, team)
  const teamCreated = new Date(team.row.created_at).getTime()
  // A team made just now still gets a library with a history, like its record templates.
  const madeAt = Math.min(Math.max(teamCreated + DAY, epoch.getTime() - 400 * DAY), epoch.getTime() - 90 * DAY)
  const made: FormTemplateRow[] = []
  for (const seed of templates(team)) {
    const created = faker.date.between({ from: madeAt, to: madeAt + 30 * DAY })
    const updated = seed.edits === 0 ? created : faker.date.between({ from: created, to: epoch.getTime() - DAY })
    made.push(
      team.formTemplates.insert({
        id: store.nextId('form_template'),
        reference: faker.string.uuid(),
        name: seed.name,
        description: seed.description,
        instructions: seed.instructions,
        fields: templateFields(ctx, seed.fields),
        version: 1 + seed.edits,
        is_enabled: true,
        created_at: toTimestamp(created),
        updated_at: toTimestamp(updated),
        archived_at: null,
      }),
    )
  }

  const fillers = team.members.filter((member) => member.role === 'owner' || member.role === 'member')
  if (fillers.length === 0) return
  for (const client of team.clients.all()) {
    if (!faker.datatype.boolean(0.2)) continue
    const template = faker.helpers.arrayElement(made)
    const from = Math.max(new Date(client.created_at).getTime(), new Date(template.updated_at).getTime())
    const to = epoch.getTime() - 2 * HOUR
    if (from >= to) continue
    const created = faker.date.between({ from, to })
    clock.set(created)
    const form = createForm(ctx, template, client.id, { type: 'internal', record: null, step: null })
    clock.set(new Date(Math.min(created.getTime() + faker.number.int({ min: 5, max: 90 }) * MINUTE, to)))
    completeForm(ctx, form, { created_by: { type: 'team_member', id: faker.helpers.arrayElement(fillers).user } })
  }
}
