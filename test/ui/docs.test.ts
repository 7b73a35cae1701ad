// The API reference in Chromium: /docs and /docs/control render the OpenAPI documents the mock
// serves with the renderer the mock serves itself, load nothing from the network, say nothing in
// error in the console (no 404, no refused request) and pass axe-core's serious and critical
// rules. axe walks every rendered operation (about a hundred), so this file has room of its own.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser, RUN_BROWSER_TESTS, screenshot, seriousViolations, serveMock, SKIP_MESSAGE, type Browser, type Served } from '../support/browser.ts'
import { VERSION } from '../../src/mock.ts'
import { createTestMock } from '../support/mock.ts'

describe.skipIf(!RUN_BROWSER_TESTS)(`the API reference in Chromium${RUN_BROWSER_TESTS ? '' : ` (${SKIP_MESSAGE})`}`, () => {
  let served: Served
  let browser: Browser
  let page: Page

  /** What the browser's console said in error, and every answer of 400 or more, since the page was opened. */
  const complaints: string[] = []

  beforeAll(async () => {
    // The package's version, as `npm start` shows it (the screenshot in docs/demo.md is taken here).
    served = await serveMock(createTestMock({ app: { version: VERSION } }))
    browser = await launchBrowser()
    page = await browser.page()
    page.on('console', (message) => {
      if (message.type() === 'error') complaints.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`))
    page.on('response', (response) => {
      if (response.status() >= 400) complaints.push(`${response.status()} ${response.url()}`)
    })
  })

  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })

  test.each([
    ['/docs', 'docs', 'Identity Verification Service REST API (mock)', 'List clients'],
    ['/docs/control', 'docs-control', 'ivs-mock control API', 'Create a fresh, isolated team'],
  ])('%s renders its document, accessibly, offline and with no error in the console', { timeout: 240_000 }, async (path, name, title, operation) => {
    complaints.length = 0
    await page.goto(`${served.origin}${path}`)
    const heading = page.locator('.api-content h1').first()
    await heading.waitFor({ timeout: 60_000 })
    await expect(heading.textContent()).resolves.toContain(title)
    await expect(page.getByRole('menuitem').filter({ hasText: operation }).count()).resolves.toBeGreaterThan(0)
    // The menu's foot (Redoc's credit, its logo once fetched from a CDN) is drawn with the menu.
    await expect(page.getByRole('link', { name: 'API docs by Redocly' }).count()).resolves.toBe(1)
    expect(complaints).toEqual([])
    await screenshot(page, name, false)
    expect(await seriousViolations(page)).toEqual([])
    expect(browser.offLoopback).toEqual([])
  })
})
