// The OAuth 2.0 consent page in a real browser: an integration sends the user to
// /oauth/authorize, they pick whom to sign in as and click Grant access (or Deny), and the
// browser lands on the integration's callback with the code (or the error) and the state; the
// code then buys tokens that work on the API.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser, RUN_BROWSER_TESTS, screenshot, seriousViolations, serveMock, SKIP_MESSAGE, type Browser, type Served } from '../support/browser.ts'
import { createTestMock, type TestMock } from '../support/mock.ts'
import { tokenRequest } from '../support/oauth.ts'
import { startReceiver, type Receiver } from '../support/receiver.ts'

describe.skipIf(!RUN_BROWSER_TESTS)(`OAuth consent page in Chromium${RUN_BROWSER_TESTS ? '' : ` (${SKIP_MESSAGE})`}`, () => {
  let mock: TestMock
  let served: Served
  let browser: Browser
  let callback: Receiver
  let client: { client_id: string; client_secret: string }
  let redirectUri: string

  beforeAll(async () => {
    mock = createTestMock()
    served = await serveMock(mock)
    browser = await launchBrowser()
    // The integration's callback: a page the browser can land on.
    callback = await startReceiver(() => ({ status: 200, body: '<!doctype html><html lang="en"><title>Callback</title><p>Back in the integration</p></html>', headers: { 'content-type': 'text/html' } }))
    redirectUri = callback.url.replace('/hooks', '/callback')
    const registered = await mock.control.post('/oauth/clients', { name: 'Browser test integration', redirect_uris: [redirectUri] })
    expect(registered.status, registered.text).toBe(201)
    client = registered.body
  })

  afterAll(async () => {
    await browser?.close()
    await callback?.close()
    await served?.close()
  })

  const authorizeUrl = (state: string) =>
    `${served.origin}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri, response_type: 'code', state }).toString()}`

  test('granting access by clicking: the callback gets a code and the state, and the code buys tokens acting as the chosen member', async () => {
    const page = await browser.page()
    await page.goto(authorizeUrl('state-grant-1'))
    await expect(page.locator('h1').textContent()).resolves.toBe('Authorisation request')
    await expect(page.locator('#summary').textContent()).resolves.toContain('Browser test integration')
    expect(await seriousViolations(page)).toEqual([])
    // Hannah Okafor, a member of Acme Recruitment (user 2, team 1), chosen with the keyboard.
    await page.locator('#member').focus()
    await page.selectOption('#member', { label: 'Hannah Okafor <hannah.okafor@acme-recruitment.example>, member' })
    await screenshot(page, 'oauth-consent')
    await page.click('#grant')
    await page.waitForURL(/\/callback\?/)
    const landed = new URL(page.url())
    expect(landed.searchParams.get('state')).toBe('state-grant-1')
    const code = landed.searchParams.get('code')
    expect(code).toMatch(/.+/)

    const tokens = await tokenRequest(mock, { grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code: code as string, redirect_uri: redirectUri })
    expect(tokens.status, tokens.text).toBe(200)
    const me = await mock.api(tokens.body.access_token).get('/me')
    expect(me.status).toBe(200)
    expect(me.body.name).toBe('Hannah Okafor')
    await page.close()
  })

  test('denying: the callback gets error=access_denied and the state, and no code', async () => {
    const page = await browser.page()
    await page.goto(authorizeUrl('state-deny-1'))
    await page.click('#deny')
    await page.waitForURL(/\/callback\?/)
    const landed = new URL(page.url())
    expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'access_denied', state: 'state-deny-1' })
    await page.close()
  })

  test('another site cannot frame it (clickjacking): the frame stays empty, while the same site frames a page without protection', async () => {
    const framed = (src: string, title: string) => `<iframe title="${title}" src="${src.replace(/&/g, '&amp;')}" width="600" height="400"></iframe>`
    const site = await startReceiver(() => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: `<!doctype html><html lang="en"><title>Another site</title>${framed(authorizeUrl('state-framed-1'), 'consent')}${framed(redirectUri, 'callback')}</html>`,
    }))
    try {
      const page = await browser.page()
      await page.goto(site.url)
      const callbackFrame = page.frameLocator('iframe[title="callback"]')
      await expect(callbackFrame.locator('p').textContent()).resolves.toBe('Back in the integration')
      const frames = page.frames().filter((frame) => frame !== page.mainFrame())
      expect(frames).toHaveLength(2)
      for (const frame of frames) await expect(frame.locator('#grant').count()).resolves.toBe(0)
      await page.close()
    } finally {
      await site.close()
    }
  })

  test('the consent page loads nothing from the network', () => {
    expect(browser.offLoopback).toEqual([])
  })
})
