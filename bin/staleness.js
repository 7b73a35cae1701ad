// Whether the launcher (ivs-mock.js) must build dist/main.js before it runs it, and why: in a
// checkout, when the bundle is missing or older than anything it is built or checked from; in an
// installed package (no src/main.ts), only when it is missing. Its own module so a test can ask it
// about a copy of the project without running a build.
import { existsSync, readdirSync, statSync } from 'node:fs'

export const BUNDLE = 'dist/main.js'
// What the build reads: sources and dependencies are bundled; contracts and fixtures are checked.
const INPUTS = ['src', 'contracts', 'fixtures', 'package.json', 'package-lock.json']

function modified(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs
}

/**
 * Every entry under a folder (relative to the root). Walked by hand: Node 20's readdirSync with
 * `recursive` took about 35 ms over src/, a tenth of the start-up, where this takes 2.
 */
function entriesUnder(root, folder) {
  return readdirSync(`${root}${folder}`, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    return entry.isDirectory() ? [path, ...entriesUnder(root, path)] : [path]
  })
}

/**
 * Whether `root` (ending in /) is a checkout: only a checkout has the bundle's entry point. An
 * installed package has no sources to rebuild from, and its files are dated when they were
 * unpacked, not when they were built, so dates there say nothing about staleness.
 */
export function isCheckout(root) {
  return existsSync(`${root}src/main.ts`)
}

/** Why the bundle under `root` must be rebuilt, or undefined when it is newer than every input. */
export function staleness(root) {
  const built = modified(`${root}${BUNDLE}`)
  if (built === undefined) return `${BUNDLE} is missing`
  if (!isCheckout(root)) return undefined
  for (const input of INPUTS) {
    const path = `${root}${input}`
    const stats = statSync(path, { throwIfNoEntry: false })
    // A checkout installed without a lock file has no package-lock.json: nothing to compare with.
    if (!stats) continue
    // A folder's own time changes when an entry is added, removed or renamed; a file's when it is edited.
    const entries = stats.isDirectory() ? entriesUnder(root, input) : []
    for (const entry of [input, ...entries]) {
      if ((modified(`${root}${entry}`) ?? 0) > built) return `${entry} changed after ${BUNDLE} was built`
    }
  }
  return undefined
}
