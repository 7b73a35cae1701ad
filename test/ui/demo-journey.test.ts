// The demo, end to end in Chromium: the API creates a record (photo ID, a document request, a form
// with every field type and show_if) and subscribes a webhook; the client completes it on the
// perform page (an upload, a required-field error, show_if); the dashboard advances the clock, the
// record finishes, its webhook delivery shows verified; a step is reviewed and the record goes
// into a case that is approved; the README's demo record opens at its seeded questionnaire. Every
// page passes axe-core's serious and critical rules, loads nothing from the network, and is
// photographed into screenshots/ (the API reference: docs.test.ts).
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { verifySignature } from '../../src/webhook-delivery/verify.js'
import { launchBrowser, RUN_BROWSER_TESTS, screenshot, seriousViolations, serveMock, SKIP_MESSAGE, type Browser, type Served } from '../support/browser.ts'
import { createTestMock, type TestMock } from '../support/mock.ts'
import { startReceiver, type Receiver } from '../support/receiver.ts'

const SAMPLES = join(import.meta.dirname, '..', '..', 'fixtures', 'samples')

const INTRO = {
  type: 'doc',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: 'It takes about two minutes.' }] },
    { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Answer honestly.', marks: [{ type: 'bold' }] }] }] }] },
  ],
}

/** A form with every builder field type, nested sections and show_if chains. */
const FORM_TEMPLATE = {
  name: 'Starter questionnaire',
  description: 'A few questions before your first day.',
  fields: [
    { id: 'root', type: 'section', label: '', fields: ['about', 'work'] },
    { id: 'about', type: 'section', label: 'About you', fields: ['intro', 'full_name', 'address'] },
    { id: 'intro', type: 'rich_text', json_content: INTRO },
    { id: 'full_name', type: 'text', label: 'Full name', validation: ['required'] },
    { id: 'address', type: 'textarea', label: 'Home address', validation: ['required'] },
    { id: 'work', type: 'section', label: 'Right to work', fields: ['work_heading', 'has_licence', 'licence', 'languages', 'welsh_level'] },
    { id: 'work_heading', type: 'heading', label: 'Documents and languages' },
    { id: 'has_licence', type: 'radio', label: { value: 'Do you hold a driving licence?', options: ['Yes', 'No'] }, validation: ['required'] },
    { id: 'licence', type: 'document', label: 'Driving licence', description: 'A photo of the front of the card.', validation: ['required'], show_if: { has_licence: 'Yes' } },
    { id: 'languages', type: 'checkbox', label: { value: 'Which languages do you speak?', options: ['English', 'Welsh', 'Polish'] } },
    { id: 'welsh_level', type: 'textarea', label: 'How well do you speak Welsh?', validation: ['required'], show_if: { languages: 'Welsh' } },
  ],
}

describe.skipIf(!RUN_BROWSER_TESTS)(`the demo journey in Chromium${RUN_BROWSER_TESTS ? '' : ` (${SKIP_MESSAGE})`}`, () => {
  let mock: TestMock
  let served: Served
  let browser: Browser
  let receiver: Receiver
  let page: Page
  let record: any
  let webhook: any
  const api = () => mock.api('ivs_acme_owner')

  beforeAll(async () => {
    mock = createTestMock()
    served = await serveMock(mock)
    browser = await launchBrowser()
    receiver = await startReceiver()
    page = await browser.page()
    const hook = await api().post('/webhooks', { url: receiver.url, events: ['record.*', 'form.*', 'case.*'] })
    expect(hook.status, hook.text).toBe(201)
    webhook = hook.body
    const template = await api().post('/form-templates', FORM_TEMPLATE)
    expect(template.status, template.text).toBe(201)
    const client = await api().post('/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada.lovelace@example.com' })
    expect(client.status, client.text).toBe(201)
    const created = await api().post('/records', {
      client: client.body.id,
      notification: false,
      message: 'Welcome aboard! Please complete these before Monday.',
      steps: [
        { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport', 'driving_licence'] } },
        { type: 'document.request', preferences: { title: 'Proof of address', instructions: 'A utility bill or bank statement from the last three months.' } },
        { type: 'form', preferences: { form: template.body.reference } },
      ],
    })
    expect(created.status, created.text).toBe(201)
    record = created.body
  })

  afterAll(async () => {
    await browser?.close()
    await receiver?.close()
    await served?.close()
  })

  /** Each page: no serious or critical axe violation. */
  async function accessible(): Promise<void> {
    expect(await seriousViolations(page), page.url()).toEqual([])
  }

  const performUrl = () => `${served.origin}${new URL(record.perform_url).pathname}`

  test('the client completes the record on the perform page', { timeout: 90_000 }, async () => {
    await page.goto(performUrl())
    await expect(page.locator('h1').textContent()).resolves.toBe('Hello Ada')
    await expect(page.locator('main').textContent()).resolves.toContain('Welcome aboard!')
    await accessible()
    await screenshot(page, 'perform-overview')
    await page.click('#start')

    // Photo ID: the driving licence, with an image of the client's own.
    await expect(page.locator('h1').textContent()).resolves.toBe('Photo ID')
    await page.getByLabel('Driving licence', { exact: true }).check()
    await page.getByLabel('Upload my own image').check()
    await page.setInputFiles('input[name=document_file]', join(SAMPLES, 'driving-licence.jpg'))
    await accessible()
    await screenshot(page, 'perform-photo-id')
    await page.click('#submit')

    // The document request: nothing chosen is an error, then the upload.
    await expect(page.locator('h1').textContent()).resolves.toBe('Upload: Proof of address')
    await page.click('#submit')
    await expect(page.locator('#problems').textContent()).resolves.toContain('Choose the file to upload.')
    await accessible()
    await page.setInputFiles('input[name=document_file]', join(SAMPLES, 'proof-of-address.pdf'))
    await page.click('#submit')

    // The form: show_if hides the licence and the Welsh question until the answers call for them.
    await expect(page.locator('h1').textContent()).resolves.toBe('Starter questionnaire')
    const licence = page.getByLabel('Driving licence')
    const welsh = page.getByLabel('How well do you speak Welsh?')
    expect(await licence.isVisible()).toBe(false)
    expect(await welsh.isVisible()).toBe(false)
    await page.getByLabel('Home address').fill('12 St James’s Square\nLondon SW1Y 4JH')
    await page.getByLabel('Yes').check()
    expect(await licence.isVisible()).toBe(true)
    await licence.setInputFiles(join(SAMPLES, 'driving-licence.jpg'))
    await page.getByLabel('English', { exact: true }).check()
    await page.getByLabel('Welsh', { exact: true }).check()
    expect(await welsh.isVisible()).toBe(true)
    await welsh.fill('Conversational')
    await accessible()
    await screenshot(page, 'perform-form')
    // A required answer missing: the page comes back with the message, the answers given kept, the file to choose again.
    await page.click('#submit')
    await expect(page.locator('#problems li').allTextContents()).resolves.toEqual(['The Full name field is required.'])
    await expect(page.getByLabel('How well do you speak Welsh?').inputValue()).resolves.toBe('Conversational')
    await accessible()
    await screenshot(page, 'perform-form-errors')
    await page.getByLabel('Full name').fill('Ada King, Countess of Lovelace')
    await page.getByLabel('Driving licence').setInputFiles(join(SAMPLES, 'driving-licence.jpg'))
    await page.click('#submit')

    await expect(page.locator('#finished').textContent()).resolves.toBe('Thank you, Ada')
    await accessible()
    await screenshot(page, 'perform-finished')

    // What the API now says: every step done, checks waiting for their results, the answers kept.
    const after = await api().get(`/records/${record.id}`)
    expect(after.body.status).toBe('waiting')
    expect(after.body.perform_url).toBe(false)
    const form = await api().get(`/clients/${record.client}/forms/${record.steps[2].form}`)
    const answers = Object.fromEntries(form.body.fields.filter((field: any) => 'value' in field).map((field: any) => [field.id, field.value]))
    expect(answers).toEqual({
      full_name: 'Ada King, Countess of Lovelace',
      // A browser sends a textarea's line breaks as CRLF, and the answer keeps them as sent.
      address: '12 St James’s Square\r\nLondon SW1Y 4JH',
      has_licence: 'Yes',
      licence: [expect.any(Number)],
      languages: ['English', 'Welsh'],
      welsh_level: 'Conversational',
    })
  })

  test('the dashboard advances the clock: the record finishes and its webhook delivery shows, verified', { timeout: 90_000 }, async () => {
    await page.goto(`${served.origin}/_mock/ui`)
    await accessible()
    await screenshot(page, 'dashboard-picker')
    await page.selectOption('#member', { label: 'Olivia Bennett (owner), Acme Recruitment' })
    await page.click('#open')
    await expect(page.locator('h1').textContent()).resolves.toBe('Acme Recruitment')
    await expect(page.locator(`#record-${record.id} .badge`).first().textContent()).resolves.toBe('waiting')
    await page.click('#advance-60 button')
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/^The clock moved 60 s to .*; \d+ jobs ran\.$/)
    await expect(page.locator(`#record-${record.id} .badge`).first().textContent()).resolves.toBe('complete')
    const finished = page.locator(`#deliveries-${webhook.id} tr.delivery[data-event="record.finished"]`)
    await expect(finished.count()).resolves.toBe(1)
    await expect(finished.locator('td').nth(4).textContent()).resolves.toBe('verified')
    await accessible()
    await screenshot(page, 'dashboard')
    await screenshot(page, 'dashboard-top', false)

    // The receiver got the same delivery, signed with the webhook's secret.
    const delivered = receiver.received.filter((request) => request.body?.event === 'record.finished')
    expect(delivered).toHaveLength(1)
    expect(delivered[0]?.body.data.record.id).toBe(record.id)
    expect(verifySignature(delivered[0]?.raw ?? '', delivered[0]?.headers['x-svc-signature'], webhook.secret)).toBe(true)

    // The photo ID result shows the image the client uploaded, as the document they chose.
    const check = await api().get(`/checks/${record.steps[0].check}`, { expand: 'response' })
    expect(check.body.status).toBe('accepted')
    expect(check.body.response.media[0]).toMatchObject({ type: 'document', document_type: 'driving_licence', attachment: { original: 'driving-licence.jpg' } })
  })

  test('the dashboard reviews a step, puts the record in a new case and approves the case', { timeout: 90_000 }, async () => {
    await page.click(`#record-${record.id} a[href$="/records/${record.id}"]`)
    await expect(page.locator('h1').textContent()).resolves.toMatch(new RegExp(`^Record ${record.id}`))
    const photoStep = record.steps[0].id
    await page.selectOption(`#review-status-${photoStep}`, 'approved')
    await page.fill(`#review-message-${photoStep}`, 'Licence matches the applicant')
    await page.click(`#review-${photoStep} button`)
    await expect(page.locator('#notice').textContent()).resolves.toBe(`Step ${photoStep} reviewed: approved.`)
    await page.click('#new-case button')
    await expect(page.locator('#notice').textContent()).resolves.toMatch(new RegExp(`^Case (\\d+) created with record ${record.id} in it\\.$`))
    await accessible()
    await screenshot(page, 'dashboard-record')

    const cases = await api().get('/cases', { client: record.client })
    expect(cases.body.data).toHaveLength(1)
    const caseId = cases.body.data[0].id
    await page.goto(`${served.origin}/_mock/ui/teams/1/as/1#cases`)
    await page.selectOption(`#case-status-${caseId}`, 'approved')
    await page.click(`#case-review-${caseId} button`)
    await expect(page.locator('#notice').textContent()).resolves.toBe(`Case ${caseId} reviewed: approved.`)

    const approved = await api().get(`/cases/${caseId}`, { expand: 'items' })
    expect(approved.body.status).toBe('approved')
    expect(approved.body.items.map((item: any) => item.entity.id)).toEqual([record.id])
    const reviews = await api().get(`/records/${record.id}/steps/${photoStep}/reviews`)
    expect(reviews.body.data.map((review: any) => [review.status, review.message, review.reviewed_by])).toEqual([['approved', 'Licence matches the applicant', 1]])
  })

  test('a read-only member is refused by the API: the dashboard shows its 403', { timeout: 60_000 }, async () => {
    // Marcus Reid is Acme's read-only member (user 3).
    await page.goto(`${served.origin}/_mock/ui/teams/1/as/3/records/${record.id}`)
    await page.click(`#review-${record.steps[1].id} button`)
    await expect(page.locator('#problem').textContent()).resolves.toBe('The review was refused: 403 This action is unauthorized.')
  })

  test("the README's demo: the seeded health questionnaire's step shows a question as its show_if says", { timeout: 60_000 }, async () => {
    // The record the README's demo makes; docs/screenshots/perform.png (the README's and the demo
    // guide's picture) is a copy of the screenshot taken here, screenshots/perform-health-questionnaire.png.
    const templates = await api().get('/form-templates')
    const health = templates.body.data.find((template: any) => template.name === 'Health questionnaire')
    const created = await api().post('/records', {
      client: 3,
      notification: false,
      steps: [
        { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport', 'driving_licence'] } },
        { type: 'document.request', preferences: { title: 'Proof of address', instructions: 'A utility bill from the last three months.' } },
        { type: 'form', preferences: { form: health.reference } },
      ],
    })
    expect(created.status, created.text).toBe(201)
    await page.goto(`${served.origin}${new URL(created.body.perform_url).pathname}/steps/${created.body.steps[2].id}`)
    await expect(page.locator('h1').textContent()).resolves.toBe('Health questionnaire')
    const details = page.getByLabel('Describe the condition and any medication you take')
    expect(await details.isVisible()).toBe(false)
    await page.getByRole('group', { name: /medical condition that could affect your work/ }).getByLabel('Yes').check()
    expect(await details.isVisible()).toBe(true)
    await details.fill('Mild asthma: an inhaler, when needed.')
    await accessible()
    await screenshot(page, 'perform-health-questionnaire')
  })

  test('no page loaded anything from outside the loopback address', () => {
    expect(browser.offLoopback).toEqual([])
  })
})
