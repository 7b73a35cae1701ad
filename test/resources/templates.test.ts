// GET /templates/emails and GET /templates/documents: the team's email templates and document
// request templates, seeded on every team with realistic content and never-null descriptions
// (docs/specification-notes.md "Library templates"); a document.request naming a document template asks for it.
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { fixture } from '../support/contracts.ts'
import { createTestMock, NOW } from '../support/mock.ts'
import { singlePage } from '../support/wire.ts'

const ORIGIN = 'http://localhost/api/v2'

/** [name, description, is_enabled] of the email templates every team gets, in order. */
const EMAILS: Array<[string, string, boolean]> = [
  ['New request', 'Sent to the client when a new request is made for them.', true],
  ['Reminder', 'Sent every two days while a request still has steps to complete.', true],
  ['Request complete', 'Sent to the client once every step of a request is complete.', true],
  ['Right to work follow-up', 'Asks a new starter with time-limited permission to work for an updated share code.', false],
]

/** [name, description, is_enabled, content] of the document templates every team gets, in order. */
const DOCUMENT_TEMPLATES: Array<[string, string, boolean, string]> = [
  [
    'Proof of address',
    'A recent utility bill, council tax bill or bank statement showing the current home address.',
    true,
    'Upload a utility bill, council tax bill or bank statement dated within the last three months. It must show your full name and current home address. Mobile phone bills and screenshots are not accepted.',
  ],
  [
    'Bank statement',
    'A full bank statement from the last three months, for source of funds checks.',
    true,
    'Upload a complete statement (every page) for your main current account, dated within the last three months. It must show the bank name, your name, the account number and the transactions. Download it as a PDF from your online banking if you can.',
  ],
  ['Payslip', 'The latest payslip, to confirm employment and income.', true, 'Upload your most recent payslip. It must show your name, your employer, the pay date and your National Insurance number.'],
  [
    'P60',
    "The end of year certificate of pay and tax from the last tax year's employer.",
    false,
    'Upload your P60 for the last tax year (ending 5 April). Your employer gives you one by 31 May; a copy from your personal tax account is fine too.',
  ],
]

function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const emailIds = team.team.emailTemplates.all().map((row) => row.id)
  const templateIds = team.team.documentTemplates.all().map((row) => row.id)
  const email = (index: number) => {
    const [name, description, isEnabled] = EMAILS[index] as (typeof EMAILS)[number]
    return {
      object: 'email_template',
      id: emailIds[index],
      name,
      description,
      content: expect.stringMatching(/^Dear \{\{client\.first_name\}\},\n\n[\s\S]+\{\{team\.name\}\}$/),
      is_enabled: isEnabled,
      created_at: NOW,
      updated_at: NOW,
    }
  }
  const documentTemplate = (index: number) => {
    const [name, description, isEnabled, content] = DOCUMENT_TEMPLATES[index] as (typeof DOCUMENT_TEMPLATES)[number]
    return { object: 'document_template', id: templateIds[index], name, description, content, is_enabled: isEnabled, created_at: NOW, updated_at: NOW }
  }
  return { mock, team, api: team.api(), email, documentTemplate }
}

describe('GET /templates/emails', () => {
  it("lists a new team's email templates, oldest first, with their content and its placeholders", async () => {
    const { api, email, team } = setup()
    const res = await api.get('/templates/emails')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([0, 1, 2, 3].map(email)))
    const [newRequest] = team.team.emailTemplates.all()
    expect(newRequest?.content).toBe(
      [
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
    )
  })

  it('filters by enabled', async () => {
    const { api, email } = setup()
    expect((await api.get('/templates/emails', { enabled: true })).body).toEqual(singlePage([0, 1, 2].map(email)))
    expect((await api.get('/templates/emails', { enabled: false })).body).toEqual(singlePage([email(3)]))
  })

  it('pages, with links that keep the query', async () => {
    const { api, email } = setup()
    const res = await api.get('/templates/emails', { limit: 3, page: 1, enabled: 'false' })
    expect(res.body).toEqual(singlePage([email(3)], 3))
    const first = await api.get('/templates/emails', { limit: 3 })
    expect(first.body).toEqual({
      object: 'paginated_list',
      data: [0, 1, 2].map(email),
      total: 4,
      count: 3,
      limit: 3,
      current_page: 1,
      total_pages: 2,
      links: { next: `${ORIGIN}/templates/emails?limit=3&page=2`, previous: null },
    })
  })
})

describe('GET /templates/documents', () => {
  it("lists a new team's document templates, oldest first, with the instructions a request gives", async () => {
    const { api, documentTemplate } = setup()
    const res = await api.get('/templates/documents')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([0, 1, 2, 3].map(documentTemplate)))
  })

  it('filters by enabled', async () => {
    const { api, documentTemplate } = setup()
    expect((await api.get('/templates/documents', { enabled: true })).body).toEqual(singlePage([0, 1, 2].map(documentTemplate)))
    expect((await api.get('/templates/documents', { enabled: false })).body).toEqual(singlePage([documentTemplate(3)]))
  })

  it('is what a document.request naming a template asks for; a disabled template is refused', async () => {
    const { api, team } = setup()
    const [proofOfAddress, , , p60] = team.team.documentTemplates.all()
    const instructions = DOCUMENT_TEMPLATES[0]?.[3]
    const client = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
    const steps = [{ type: 'document.request', preferences: { template: proofOfAddress?.id } }]
    expect((await api.post('/steps', { steps })).status).toBe(200)
    const record = await api.post('/records', { client: client.body.id, notification: false, steps })
    expect(record.status).toBe(201)
    expect(record.body.steps[0].preferences).toEqual({ title: 'Proof of address', instructions })
    const documents = await api.get(`/records/${record.body.id}/documents`)
    expect(documents.body.data).toEqual([expect.objectContaining({ type: 'requested', name: 'Proof of address', config: { instructions }, attachments: null })])
    const disabled = await api.post('/steps', { steps: [{ type: 'document.request', preferences: { template: p60?.id } }] })
    expect(disabled.status).toBe(422)
    expect(disabled.body).toEqual({ 'steps.0.preferences.template': ['The selected template is invalid.'] })
  })
})

describe('both template lists', () => {
  it.each(['/templates/emails', '/templates/documents'])('%s: 422 for a bad enabled or limit', async (path) => {
    const { api } = setup()
    const bad = await api.get(path, { enabled: 'sometimes' })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ enabled: ['The enabled field must be true or false.'] })
    const page = await api.get(path, { page: 0 })
    expect(page.status).toBe(422)
    expect(page.body).toEqual({ page: ['The page field must be at least 1.'] })
  })

  it.each(['/templates/emails', '/templates/documents'])('%s: every role of the team reads it, another team has its own, 401 without a token', async (path) => {
    const { mock, team, api } = setup()
    const owners = await api.get(path)
    for (const role of ROLES) {
      const res = await team.api(role).get(path)
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(owners.body)
    }
    const other = await mock.newTeam().api('assigned-only').get(path)
    expect(other.status).toBe(200)
    expect(other.body.data.map((row: { name: string }) => row.name)).toEqual(owners.body.data.map((row: { name: string }) => row.name))
    expect(other.body.data.map((row: { id: number }) => row.id)).not.toEqual(owners.body.data.map((row: { id: number }) => row.id))
    const anonymous = await api.as(undefined).get(path)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'Unauthenticated.' })
  })

  it.each(['/templates/emails', '/templates/documents'])('%s: a fixture team has its seeded templates, made before the epoch, described', async (path) => {
    const res = await createTestMock().api().get(path)
    expect(res.status).toBe(200)
    expect(res.body.total).toBe(4)
    for (const row of res.body.data) {
      expect(typeof row.description).toBe('string')
      expect(row.description.length).toBeGreaterThan(20)
      expect(row.content.length).toBeGreaterThan(50)
      expect(row.created_at <= row.updated_at && row.updated_at < fixture.epoch).toBe(true)
    }
    expect(res.body.data.filter((row: { is_enabled: boolean }) => !row.is_enabled)).toHaveLength(1)
  })
})
