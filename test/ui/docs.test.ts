// The API reference in Chromium: /docs and /docs/control render the OpenAPI documents the mock
// serves with the renderer the mock serves itself, load nothing from the network, and pass
// axe-core's serious and critical rules. axe walks every rendered operation (about a hundred), so
// this file has room of its own.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser, RUN_BROWSER_TESTS, screenshot, seriousViolations, serveMock, SKIP_MESSAGE, type Browser, type Served } from '../support/browser.ts'
import { VERSION } from '../../src/mock.ts'
import { createTestMock } from '../support/mock.ts'

describe.skipIf(!RUN_BROWSER_TESTS)(`the API reference in Chromium${RUN_BROWSER_TESTS ? '' : ` (${SKIP_MESSAGE})`}`, () => {
  let served: Served
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    // The package's version, as `npm start` shows it (the screenshot in docs/demo.md is taken here).
    served = await serveMock(createTestMock({ app: { version: VERSION } }))
    browser = await launchBrowser()
    page = await browser.page()
  })

  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })

  test.each([
    ['/docs', 'docs', 'Identity Verification Service REST API (mock)', 'List clients'],
    ['/docs/control', 'docs-control', 'ivs-mock control API', 'Create a fresh, isolated team'],
  ])('%s renders its document, accessibly and offline', { timeout: 240_000 }, async (path, name, title, operation) => {
    await page.goto(`${served.origin}${path}`)
    const heading = page.locator('.api-content h1').first()
    await heading.waitFor({ timeout: 60_000 })
    await expect(heading.textContent()).resolves.toContain(title)
    await expect(page.getByRole('menuitem').filter({ hasText: operation }).count()).resolves.toBeGreaterThan(0)
    await screenshot(page, name, false)
    expect(await seriousViolations(page)).toEqual([])
    expect(browser.offLoopback).toEqual([])
  })
})
