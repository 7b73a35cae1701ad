// The API reference at /docs: Redoc renders the OpenAPI document the mock serves (/openapi.json;
// /docs/control renders the control API's). Redoc's standalone bundle is copied into dist/docs/
// by the build and served from there, so the page needs no network.
import { createReadStream, existsSync, statSync } from 'node:fs'
import { Readable } from 'node:stream'
import type { Hono } from 'hono'
import { docsAssetsDir } from '../paths.ts'
import { DOCS_BASE } from './bases.ts'
import { h, pageResponse, PAGE_HEADERS, renderPage } from './page.ts'

const RENDERER = `${DOCS_BASE}/assets/redoc.standalone.js`

/** The two documents the reference shows, by the path below /docs. */
const DOCUMENTS = {
  '': { title: 'API reference', spec: '/openapi.json' },
  '/control': { title: 'Control API reference', spec: '/_mock/openapi.json' },
} as const

function nav(current: string) {
  const link = (path: string, label: string) => (path === current ? h`<li><a href="${path}" aria-current="page">${label}</a></li>` : h`<li><a href="${path}">${label}</a></li>`)
  return h`<a class="brand" href="${DOCS_BASE}">IVS mock</a><nav aria-label="Reference"><ul>${link(DOCS_BASE, 'API (/api/v2)')}${link(`${DOCS_BASE}/control`, 'Control API (/_mock)')}${link('/_mock/ui', 'Dashboard')}</ul></nav>`
}

export function docsRoutes(app: Hono): void {
  for (const [suffix, document] of Object.entries(DOCUMENTS)) {
    const path = `${DOCS_BASE}${suffix}`
    app.get(path, (c) => {
      if (!existsSync(`${docsAssetsDir}/redoc.standalone.js`)) {
        return pageResponse(c, { title: document.title, header: nav(path), main: h`<h1>${document.title}</h1><p>The renderer is not built: run <code>npm run build</code>, then reload. The document itself is at <a href="${document.spec}">${document.spec}</a>.</p>` }, 503)
      }
      // Redoc lays out the whole page below the bar; scroll-y-offset keeps its menu clear of it.
      const page = renderPage({
        title: document.title,
        header: nav(path),
        rendered: true,
        main: h`<h1 class="visually-hidden">${document.title}</h1><redoc spec-url="${document.spec}" scroll-y-offset="48" hide-loading native-scrollbars></redoc>`,
        scripts: [RENDERER],
      })
      return c.newResponse(page, 200, PAGE_HEADERS)
    })
  }
  app.get(`${DOCS_BASE}/assets/:name`, (c) => {
    const name = c.req.param('name')
    if (name !== 'redoc.standalone.js' && name !== 'redoc.LICENSE.txt') return c.notFound()
    const file = `${docsAssetsDir}/${name}`
    if (!existsSync(file)) return c.notFound()
    return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/plain; charset=utf-8',
        'content-length': String(statSync(file).size),
        'cache-control': 'max-age=3600',
      },
    })
  })
}
