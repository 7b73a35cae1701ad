// Build step "docs": the API reference's renderer (Redoc's standalone bundle, a devDependency)
// copied into dist/docs/, so the mock serves it itself at /docs: no CDN, and the Docker image,
// which ships dist/ and no node_modules, has it too.
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { docsAssetsDir } from '../paths.ts'

const require = createRequire(import.meta.url)

/** What /docs serves from dist/docs/, and where each comes from in the redoc package. */
export const DOCS_ASSETS = { 'redoc.standalone.js': 'bundles/redoc.standalone.js', 'redoc.LICENSE.txt': 'LICENSE' } as const

/**
 * Redoc's menu shows its maker's logo from their CDN, which the page's Content-Security-Policy
 * refuses (an error in the browser's console, and a request that would leave the machine): the
 * logo is left empty, the "API docs by Redocly" link beside it stays.
 */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E'

function offlineRenderer(source: string, version: string): string {
  const parts = source.split(REDOCLY_LOGO)
  if (parts.length !== 2) throw new Error(`docs: redoc ${version}'s bundle names ${REDOCLY_LOGO} ${parts.length - 1} times, not once: see src/build/docs.ts`)
  return parts.join(EMPTY_IMAGE)
}

export function copyDocsAssets(): string {
  const packageDir = dirname(require.resolve('redoc/package.json'))
  const version = (require('redoc/package.json') as { version: string }).version
  mkdirSync(docsAssetsDir, { recursive: true })
  let bytes = 0
  for (const [name, source] of Object.entries(DOCS_ASSETS)) {
    if (name === 'redoc.standalone.js') writeFileSync(`${docsAssetsDir}/${name}`, offlineRenderer(readFileSync(`${packageDir}/${source}`, 'utf8'), version))
    else copyFileSync(`${packageDir}/${source}`, `${docsAssetsDir}/${name}`)
    bytes += statSync(`${docsAssetsDir}/${name}`).size
  }
  return `dist/docs/ ${(bytes / 1_000_000).toFixed(1)} MB (redoc ${version})`
}
