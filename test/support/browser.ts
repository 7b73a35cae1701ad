// Browser tests: playwright-core driving Debian's Chromium (never a downloaded browser), a test
// mock served on 127.0.0.1 with port 0, axe-core injected into each page for the accessibility
// check, and screenshots written to screenshots/ (git-ignored) for people to look at. Without a
// Chromium the tests are skipped with a message, except under CI=true, where they must run.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core'
import type { TestMock } from './mock.ts'

/** Debian's Chromium, or another one named by CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Whether the browser tests run: a Chromium is there, or CI says they must (and then fail without one). */
export const RUN_BROWSER_TESTS = existsSync(CHROMIUM_PATH) || process.env.CI === 'true'

export const SKIP_MESSAGE = `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (install Debian's chromium, or set CHROMIUM_PATH); with CI=true they run and fail instead`

if (!RUN_BROWSER_TESTS) console.warn(SKIP_MESSAGE)

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** How Chromium reports a request the page's Content-Security-Policy refused (it never left the browser). */
const CSP_REFUSALS = new Set(['csp', 'net::ERR_BLOCKED_BY_CSP'])

export const SCREENSHOTS_DIR = join(import.meta.dirname, '..', '..', 'screenshots')

export interface Browser {
  context: BrowserContext
  /** A new page that records every request leaving the loopback address. */
  page(): Promise<Page>
  /**
   * Requests to anywhere but 127.0.0.1 that went out (the pages must need no network). One a
   * page's Content-Security-Policy refused never left the browser, so it does not count.
   */
  offLoopback: string[]
  close(): Promise<void>
}

/** Chromium with a fresh profile, removed on close. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'ivs-mock-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  })
  const offLoopback: string[] = []
  return {
    context,
    offLoopback,
    async page() {
      const page = await context.newPage()
      const outside = (request: Request) => {
        const url = new URL(request.url())
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1'
      }
      page.on('requestfinished', (request) => {
        if (outside(request)) offLoopback.push(request.url())
      })
      page.on('requestfailed', (request) => {
        if (outside(request) && !CSP_REFUSALS.has(request.failure()?.errorText ?? '')) offLoopback.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`)
      })
      return page
    },
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

export interface Served {
  /** http://127.0.0.1:<port> */
  origin: string
  close(): Promise<void>
}

/** The test mock on a real socket (127.0.0.1, a free port), as the browser needs it. */
export async function serveMock(mock: TestMock): Promise<Served> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started))
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export interface Violation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules, and best practices). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the pages' Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE_SOURCE)
  // Runs in the page (the tests' TypeScript has no DOM types: the page's globals are typed here).
  const violations = await page.evaluate(async () => {
    const inPage = globalThis as unknown as {
      document: unknown
      axe: { run: (context: unknown, options: object) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> }
    }
    const result = await inPage.axe.run(inPage.document, { resultTypes: ['violations'] })
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }))
  })
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
}

/** A screenshot for people to look at: screenshots/<name>.png. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage })
}
