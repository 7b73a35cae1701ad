// The team's libraries, seeded on every team (new ones too, like the record templates): library
// documents whose attachments are the sample files of fixtures/samples (GET /documents; a
// document.transfer may send one), email templates (GET /templates/emails) and document request
// templates (GET /templates/documents; a document.request or a client document may name one).
// One of each kind is disabled, as a team retires an old version. Names and descriptions are never
// null (docs/specification-notes.md "Library templates"). The content is fixed; only the moments come from the faker.
import type { Faker } from '@faker-js/faker'
import { teamContext, type TeamContext } from '../context.ts'
import { createClock, toTimestamp } from '../kernel/clock.ts'
import { createEventBus } from '../kernel/events.ts'
import { createRandom } from '../kernel/random.ts'
import { sampleAttachment, type SampleName } from '../resources/attachments/index.ts'
import { createServices } from '../services.ts'
import type { Store, Team } from '../store/world.ts'

const DAY = 86_400_000

interface LibraryItem {
  name: string
  description: string
  is_enabled: boolean
}

const DOCUMENTS: Array<LibraryItem & { sample: SampleName; original: string }> = [
  {
    name: 'Employee handbook',
    description: 'Our policies, benefits and ways of working. New starters read it before their first day.',
    is_enabled: true,
    sample: 'employeeHandbook',
    original: 'employee-handbook-2025.pdf',
  },
  {
    name: 'Contract of employment',
    description: 'The standard permanent contract. The new starter signs the last page and returns it.',
    is_enabled: true,
    sample: 'contractOfEmployment',
    original: 'contract-of-employment.pdf',
  },
  {
    name: 'Privacy notice',
    description: 'How we collect, use and keep personal data under UK GDPR, and the rights people have over it.',
    is_enabled: true,
    sample: 'privacyNotice',
    original: 'privacy-notice.pdf',
  },
  {
    name: 'Privacy notice (2023)',
    description: 'The previous privacy notice, replaced in 2025; kept for clients who agreed to it.',
    is_enabled: false,
    sample: 'privacyNotice',
    original: 'privacy-notice-2023.pdf',
  },
]

const EMAIL_TEMPLATES: Array<LibraryItem & { content: string }> = [
  {
    name: 'New request',
    description: 'Sent to the client when a new request is made for them.',
    is_enabled: true,
    content: [
      'Dear {{client.first_name}},',
      '',
      '{{team.name}} has asked you to complete a few verification steps. It takes about ten minutes and you can do it on your phone.',
      '',
      'Start here: {{request.link}}',
      '',
      'The link works until {{request.expires_at}}. If you have any questions, reply to this email.',
      '',
      'Kind regards,',
      '{{team.name}}',
    ].join('\n'),
  },
  {
    name: 'Reminder',
    description: 'Sent every two days while a request still has steps to complete.',
    is_enabled: true,
    content: [
      'Dear {{client.first_name}},',
      '',
      'A friendly reminder that your verification for {{team.name}} is not finished yet: {{request.steps_remaining}} step(s) to go.',
      '',
      'Carry on where you left off: {{request.link}}',
      '',
      'The request expires on {{request.expires_at}}.',
      '',
      'Kind regards,',
      '{{team.name}}',
    ].join('\n'),
  },
  {
    name: 'Request complete',
    description: 'Sent to the client once every step of a request is complete.',
    is_enabled: true,
    content: [
      'Dear {{client.first_name}},',
      '',
      'Thank you: you have completed every step we asked for. We will review your information and be in touch if we need anything else.',
      '',
      'Kind regards,',
      '{{team.name}}',
    ].join('\n'),
  },
  {
    name: 'Right to work follow-up',
    description: 'Asks a new starter with time-limited permission to work for an updated share code.',
    is_enabled: false,
    content: [
      'Dear {{client.first_name}},',
      '',
      'Our records show that your permission to work in the UK ends on {{client.right_to_work_expires_at}}. Please send us a new share code from https://www.gov.uk/prove-right-to-work before then, so we can carry out a follow-up check.',
      '',
      'Upload it here: {{request.link}}',
      '',
      'Kind regards,',
      '{{team.name}}',
    ].join('\n'),
  },
]

const DOCUMENT_TEMPLATES: Array<LibraryItem & { content: string }> = [
  {
    name: 'Proof of address',
    description: 'A recent utility bill, council tax bill or bank statement showing the current home address.',
    is_enabled: true,
    content:
      'Upload a utility bill, council tax bill or bank statement dated within the last three months. It must show your full name and current home address. Mobile phone bills and screenshots are not accepted.',
  },
  {
    name: 'Bank statement',
    description: 'A full bank statement from the last three months, for source of funds checks.',
    is_enabled: true,
    content:
      'Upload a complete statement (every page) for your main current account, dated within the last three months. It must show the bank name, your name, the account number and the transactions. Download it as a PDF from your online banking if you can.',
  },
  {
    name: 'Payslip',
    description: 'The latest payslip, to confirm employment and income.',
    is_enabled: true,
    content: 'Upload your most recent payslip. It must show your name, your employer, the pay date and your National Insurance number.',
  },
  {
    name: 'P60',
    description: "The end of year certificate of pay and tax from the last tax year's employer.",
    is_enabled: false,
    content: 'Upload your P60 for the last tax year (ending 5 April). Your employer gives you one by 31 May; a copy from your personal tax account is fine too.',
  },
]

/** A context for the services the seeded rows are made by, with its own clock (each row's moment). */
function seedContext(store: Store, team: Team, faker: Faker): TeamContext {
  const services = createServices({
    store,
    clock: createClock({ start: new Date(team.row.created_at), frozen: true }),
    random: createRandom(faker.number.int({ min: 0, max: 2 ** 31 })),
    events: createEventBus(),
    behaviour: { recordExpiryDays: 30, checkDelaySeconds: 60 },
  })
  return teamContext(services, team)
}

/**
 * The team's library, made before `epoch`: in its first year, or when the team was made for a
 * team made just now (the control API, tests), so a new team's library is as old as the team.
 */
export function generateLibraries(faker: Faker, store: Store, team: Team, epoch: Date): void {
  const ctx = seedContext(store, team, faker)
  const teamCreated = new Date(team.row.created_at).getTime()
  const latest = Math.min(epoch.getTime() - DAY, teamCreated + 365 * DAY)
  /** When `count` items were made and last changed, oldest first (ids follow creation). */
  const moments = (count: number): Array<{ created_at: string; updated_at: string }> => {
    if (latest <= teamCreated) return Array.from({ length: count }, () => ({ created_at: team.row.created_at, updated_at: team.row.created_at }))
    const created = Array.from({ length: count }, () => faker.number.int({ min: teamCreated, max: latest })).sort((a, b) => a - b)
    return created.map((moment) => {
      const updated = faker.datatype.boolean(0.4) ? faker.number.int({ min: moment, max: epoch.getTime() - DAY }) : moment
      return { created_at: toTimestamp(new Date(moment)), updated_at: toTimestamp(new Date(updated)) }
    })
  }
  const documentMoments = moments(DOCUMENTS.length)
  const emailMoments = moments(EMAIL_TEMPLATES.length)
  const templateMoments = moments(DOCUMENT_TEMPLATES.length)
  DOCUMENTS.forEach(({ sample, original, ...document }, index) => {
    const at = documentMoments[index] as { created_at: string; updated_at: string }
    ctx.clock.set(new Date(at.created_at))
    const attachment = sampleAttachment(ctx, sample, original)
    team.libraryDocuments.insert({ id: store.nextId('library_document'), ...document, attachment: attachment.id, ...at })
  })
  EMAIL_TEMPLATES.forEach((template, index) => team.emailTemplates.insert({ id: store.nextId('email_template'), ...template, ...emailMoments[index]! }))
  DOCUMENT_TEMPLATES.forEach((template, index) => team.documentTemplates.insert({ id: store.nextId('document_template'), ...template, ...templateMoments[index]! }))
}
