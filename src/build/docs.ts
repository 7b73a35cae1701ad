// Build step "docs": the API reference's renderer (Redoc's standalone bundle, a devDependency)
// copied into dist/docs/, so the mock serves it itself at /docs: no CDN, and the Docker image,
// which ships dist/ and no node_modules, has it too.
import { copyFileSync, mkdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { docsAssetsDir } from '../paths.ts'

const require = createRequire(import.meta.url)

/** What /docs serves from dist/docs/, and where each comes from in the redoc package. */
export const DOCS_ASSETS = { 'redoc.standalone.js': 'bundles/redoc.standalone.js', 'redoc.LICENSE.txt': 'LICENSE' } as const

export function copyDocsAssets(): string {
  const packageDir = dirname(require.resolve('redoc/package.json'))
  mkdirSync(docsAssetsDir, { recursive: true })
  let bytes = 0
  for (const [name, source] of Object.entries(DOCS_ASSETS)) {
    copyFileSync(`${packageDir}/${source}`, `${docsAssetsDir}/${name}`)
    bytes += statSync(`${docsAssetsDir}/${name}`).size
  }
  return `dist/docs/ ${(bytes / 1_000_000).toFixed(1)} MB (redoc ${(require('redoc/package.json') as { version: string }).version})`
}
