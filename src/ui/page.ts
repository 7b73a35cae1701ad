// The HTML shell every page of the UI shares (the perform page, the dashboard, the API reference):
// rendered on the server with hono's html helper, which escapes every value; one small stylesheet
// inline, scripts served by the mock itself, nothing from the network. A Content-Security-Policy
// holds the pages to that: a browser refuses to load anything from another origin.
import type { Context } from 'hono'
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { NO_FRAMING, NO_FRAMING_HEADERS } from '../kernel/browsers.ts'

export type Html = HtmlEscapedString

/** hono's html helper for fragments that never wait on a promise (none of ours does). */
export function h(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const fragment = html(strings, ...values)
  if (fragment instanceof Promise) throw new Error('ui: a fragment rendered asynchronously')
  return fragment
}

/** An attribute with its value escaped, or nothing when there is no value. */
export function attr(name: string, value: string | number | undefined | null | false): Html {
  return value === undefined || value === null || value === false ? h`` : h` ${raw(name)}="${value}"`
}

/** Same-origin everything; inline styles (the shell's) and the mock's own scripts; blob: workers for the API reference's search. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "worker-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  NO_FRAMING,
].join('; ')

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': NO_FRAMING_HEADERS['x-frame-options'],
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the pages' own
  // form posts, which the control API refuses as it refuses any page it does not know (kernel/browsers.ts).
  // Other sites still get no referrer, so perform links never leak.
  'referrer-policy': 'same-origin',
}

/** What every page has: the palette, the header bar, focus outlines, the skip link. */
const BASE_STYLE = `
:root { --ink: #1d2330; --muted: #4a5160; --line: #d5d9e0; --panel: #fff; --back: #f4f5f7; --accent: #1f5fbf; --accent-dark: #174a96;
  --ok: #1d6b3a; --ok-back: #e4f4ea; --warn: #7a4b00; --warn-back: #fdf1d8; --bad: #a4262c; --bad-back: #fbe6e7; --info-back: #e7effb; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: var(--back); color: var(--ink); }
body.rendered { background: #fff; }
a { color: var(--accent-dark); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
header.bar { background: var(--ink); color: #fff; padding: .6rem 1.5rem; display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap; }
header.bar a, header.bar .brand { color: #fff; }
header.bar .brand { font-weight: 700; text-decoration: none; }
header.bar nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; flex-wrap: wrap; }
header.bar .who { margin-left: auto; font-size: .9rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
[hidden] { display: none !important; }
`

/** The UI's own pages (not the API reference, whose renderer styles itself). */
const STYLE = `
main { max-width: 72rem; margin: 1.5rem auto; padding: 0 1.5rem 3rem; }
main.narrow { max-width: 44rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 1.5rem 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 1.25rem 1.5rem; margin-bottom: 1.25rem; }
.panel > :first-child, .panel > .field:first-child > :first-child { margin-top: 0; }
ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain li { white-space: nowrap; margin: .1rem 0; }
label.choice.sample { align-items: center; }
.sample img { border: 1px solid var(--line); border-radius: 4px; }
.muted, .hint { color: var(--muted); }
/* A form's instructions are plain text whose lists keep their line breaks. */
p.instructions { white-space: pre-line; }
.hint { font-size: .92rem; margin: .2rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; background: var(--panel); font-size: .93rem; }
th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid var(--line); }
th { background: #eceef2; font-weight: 600; }
caption { text-align: left; font-weight: 600; padding: .4rem 0; }
.table-wrap { overflow-x: auto; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600; background: #e6e8ec; color: var(--ink); white-space: nowrap; }
.badge.ok { background: var(--ok-back); color: var(--ok); }
.badge.warn { background: var(--warn-back); color: var(--warn); }
.badge.bad { background: var(--bad-back); color: var(--bad); }
.badge.info { background: var(--info-back); color: var(--accent-dark); }
label { font-weight: 600; display: block; margin: .9rem 0 .3rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem 1rem; margin: 1rem 0; }
legend { font-weight: 600; padding: 0 .3rem; }
fieldset label, label.choice { font-weight: 400; display: flex; gap: .5rem; align-items: baseline; margin: .35rem 0; }
input[type=text], input[type=number], textarea, select { font: inherit; padding: .45rem .55rem; border: 1px solid #6b7280; border-radius: 4px; width: 100%; max-width: 36rem; background: #fff; color: var(--ink); }
textarea { min-height: 6rem; }
input[type=file] { font: inherit; }
input[aria-invalid=true], textarea[aria-invalid=true], fieldset[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
button, .button { font: inherit; display: inline-block; padding: .5rem 1.1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent-dark); }
button.small { padding: .2rem .6rem; font-size: .9rem; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; margin-top: 1.25rem; }
.inline-form { display: inline-flex; gap: .4rem; align-items: center; flex-wrap: wrap; margin: 0; }
.inline-form label { margin: 0; font-weight: 600; }
.inline-form select, .inline-form input[type=text], .inline-form input[type=number] { width: auto; }
.error-summary { border: 3px solid var(--bad); background: #fff; padding: 1rem 1.25rem; border-radius: 6px; margin-bottom: 1.25rem; }
.error-summary h2 { margin-top: 0; color: var(--bad); }
.error { color: var(--bad); font-weight: 600; margin: .2rem 0; }
.notice { border-left: 5px solid var(--ok); background: var(--ok-back); padding: .75rem 1rem; margin-bottom: 1rem; }
.notice.bad { border-color: var(--bad); background: var(--bad-back); }
.steps { list-style: none; padding: 0; margin: 0; }
.steps li { display: flex; justify-content: space-between; gap: 1rem; align-items: center; padding: .75rem 0; border-bottom: 1px solid var(--line); }
.steps li:last-child { border-bottom: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1.25rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
details > summary { cursor: pointer; }
pre { background: #f0f2f5; padding: .6rem; border-radius: 4px; overflow-x: auto; font-size: .82rem; max-height: 20rem; }
`

export interface PageOptions {
  title: string
  /** The page's content, inside <main>. */
  main: Html
  /** The header bar's links and who is looking. */
  header?: Html
  /** Scripts the mock serves (their paths). */
  scripts?: readonly string[]
  /** A narrow column (the perform page) or the full width (the dashboard). */
  narrow?: boolean
  /** The page is laid out by a renderer of its own (the API reference): only the bar's style. */
  rendered?: boolean
}

/** The pages have no icon: an empty one stops the browser asking for /favicon.ico, a 404 in its console. */
export function renderPage(options: PageOptions): string {
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} | IVS mock</title>
<link rel="icon" href="data:,">
<style>${raw(BASE_STYLE)}${options.rendered ? '' : raw(STYLE)}</style>
</head>
<body${attr('class', options.rendered ? 'rendered' : undefined)}>
<a class="skip" href="#content">Skip to content</a>
<header class="bar">${options.header ?? h`<span class="brand">IVS mock</span>`}</header>
<main id="content" class="${options.narrow ? 'narrow' : ''}" tabindex="-1">
${options.main}
</main>
${(options.scripts ?? []).map((src) => h`<script src="${src}" defer></script>`)}
</body>
</html>
`
}

/** A page as the answer, with the UI's headers. */
export function pageResponse(c: Context, options: PageOptions, status = 200): Response {
  return c.newResponse(renderPage(options), status as 200, PAGE_HEADERS)
}

/** A browser script the mock serves (from a string in the bundle: no file to ship). */
export function scriptResponse(c: Context, source: string): Response {
  return c.newResponse(source, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' })
}

/** 303 See Other: after a form's POST, the browser GETs the next page. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location } })
}

/** A wire timestamp as people read it: 2026-06-01 09:00:00 UTC. */
export function when(timestamp: string | null): string {
  return timestamp === null ? '-' : `${timestamp.slice(0, 10)} ${timestamp.slice(11, 19)} UTC`
}
