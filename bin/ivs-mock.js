#!/usr/bin/env node
// Runs the bundle dist/main.js (npm run build; npm ci builds it through `prepare`). In a checkout a
// stale bundle never runs: when dist/main.js is missing or older than anything it is built or
// checked from, it is rebuilt first, in this process, by the same build() as npm run build. An
// installed package (npm pack ships dist/ built) or the Docker image runs its bundle as it is.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const BUNDLE = 'dist/main.js'
// The bundle's entry point: only a checkout has it. An installed package has no sources to rebuild
// from, and its files are dated when they were unpacked, not when they were built, so dates there
// say nothing about staleness.
const isCheckout = existsSync(`${root}src/main.ts`)
// What the build reads: sources and dependencies are bundled; contracts and fixtures are checked.
const INPUTS = ['src', 'contracts', 'fixtures', 'package.json', 'package-lock.json']
const USAGE_ERROR = 2

function modified(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs
}

/**
 * Every entry under a folder (relative to the root). Walked by hand: Node 20's readdirSync with
 * `recursive` took about 35 ms over src/, a tenth of the start-up, where this takes 2.
 */
function entriesUnder(folder) {
  return readdirSync(`${root}${folder}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    return entry.isDirectory() ? [path, ...entriesUnder(path)] : [path]
  })
}

/** Why the bundle must be rebuilt, or undefined when it is newer than every input. */
function staleness() {
  const built = modified(`${root}${BUNDLE}`)
  if (built === undefined) return `${BUNDLE} is missing`
  if (!isCheckout) return undefined
  for (const input of INPUTS) {
    const path = `${root}${input}`
    const stats = statSync(path, { throwIfNoEntry: false })
    // A checkout installed without a lock file has no package-lock.json: nothing to compare with.
    if (!stats) continue
    // A folder's own time changes when an entry is added, removed or renamed; a file's when it is edited.
    const entries = stats.isDirectory() ? entriesUnder(input) : []
    for (const entry of [input, ...entries]) {
      if ((modified(`${root}${entry}`) ?? 0) > built) return `${entry} changed after ${BUNDLE} was built`
    }
  }
  return undefined
}

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

const reason = staleness()
if (reason && !isCheckout) {
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
