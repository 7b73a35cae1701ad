#!/usr/bin/env node
// Runs the bundle dist/main.js (npm run build; npm ci builds it through `prepare`). In a checkout a
// stale bundle never runs: when dist/main.js is missing or older than anything it is built or
// checked from, it is rebuilt first, in this process, by the same build() as npm run build. An
// installed package (npm pack ships dist/ built) or the Docker image runs its bundle as it is.
import { fileURLToPath } from 'node:url'
import { BUNDLE, isCheckout, staleness } from './staleness.js'

const root = fileURLToPath(new URL('../', import.meta.url))
const USAGE_ERROR = 2

/** The build tools that a production-only install (npm ci --omit=dev --ignore-scripts) lacks, if any. */
function missingBuildTools() {
  const tools = { tsx: 'tsx/esm/api', esbuild: 'esbuild', typescript: 'typescript' }
  return Object.keys(tools).filter((name) => {
    try {
      import.meta.resolve(tools[name])
      return false
    } catch {
      return true
    }
  })
}

const reason = staleness(root)
if (reason && !isCheckout(root)) {
  console.error(`ivs-mock: ${reason}, and this install has no sources to build it from; install the package again.`)
  process.exit(USAGE_ERROR)
}
if (reason) {
  const missing = missingBuildTools()
  if (missing.length > 0) {
    console.error(
      `ivs-mock: ${reason}, and it cannot be built here: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed ` +
        '(a production-only install). Run npm ci (with dev dependencies) and npm run build, then start it again.',
    )
    process.exit(USAGE_ERROR)
  }
  console.error(`ivs-mock: ${reason}; building it first (npm run build)`)
  // tsImport keeps tsx's loader to the build's own modules; the bundle then loads as plain JavaScript.
  const { tsImport } = await import('tsx/esm/api')
  const { build } = await tsImport('../src/build/main.ts', import.meta.url)
  try {
    // Quiet: the reason above is the one line a start needs; a failure says which step failed.
    await build(() => {})
  } catch (error) {
    console.error(`ivs-mock: ${error.message}`)
    process.exit(1)
  }
}

// Stack traces name src/ files and lines through dist/main.js.map.
process.setSourceMapsEnabled(true)
await import(`../${BUNDLE}`)
