// The build: `npm run build`, and npm ci through `prepare`. bin/ivs-mock.js calls build() itself
// when dist/main.js is missing or older than its sources, so a stale bundle never runs.
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadContracts } from '../contracts/ajv.ts'
import { bundle } from './bundle.ts'
import { check } from './check.ts'
import { writeDeclarations } from './declarations.ts'
import { copyDocsAssets } from './docs.ts'
import { writeGeneratedTypes } from './types.ts'
import { writeValidators } from './validators.ts'
import { writePrebuiltWorld } from './world.ts'

interface Step {
  name: string
  /** Does the step's work; may return a short note for its line (what it wrote). */
  run: () => void | string | Promise<void | string>
}

// In order: a step may rely on what the ones before it checked or wrote. check comes first, so
// nothing is built from contracts or fixtures that break their schemas; types writes under src/,
// so it comes before bundle (a source newer than the bundle would make every start rebuild), and
// before declarations, which emits types from it too; validators and world write what the bundle
// reads at start (the compiled validators, the seeded world); docs copies the API reference's renderer.
const steps: Step[] = [
  { name: 'check', run: check },
  { name: 'types', run: () => writeGeneratedTypes(loadContracts()) },
  { name: 'bundle', run: bundle },
  { name: 'validators', run: writeValidators },
  { name: 'declarations', run: () => `wrote ${writeDeclarations()}` },
  { name: 'world', run: writePrebuiltWorld },
  { name: 'docs', run: copyDocsAssets },
]

const NAME_WIDTH = Math.max(...steps.map((step) => step.name.length)) + 2

/** Runs every step, with one line per step (name, time, note) to `log`; throws naming the step that failed. */
export async function build(log: (line: string) => void = console.log): Promise<void> {
  for (const step of steps) {
    const began = performance.now()
    let note: void | string
    try {
      note = await step.run()
    } catch (error) {
      throw new Error(`build step ${step.name} failed: ${(error as Error).message}`, { cause: error })
    }
    log(`${step.name.padEnd(NAME_WIDTH)}${(performance.now() - began).toFixed(0).padStart(6)} ms${note ? `  ${note}` : ''}`)
  }
}

// Run as a script (`node --import tsx src/build/main.ts`); importers only want build().
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await build()
  } catch (error) {
    console.error((error as Error).message)
    process.exitCode = 1
  }
}
