// What `ivs-mock pact check` and `ivs-mock pact verify` print and the exit code they end with:
// 0 every interaction passed, 1 one did not (named, with where and why), 2 a pact file could not be
// read or the Pact library is missing.
import { loadContracts } from '../../contracts/ajv.ts'
import { Conformance } from '../conformance.ts'
import { checkPact, formatFinding } from './check.ts'
import { PactFileError, readPactFile, type PactFile } from './pact-file.ts'
import { PactNotInstalledError, stateProblems, verifyPacts } from './verify.ts'

export const PACT_EXIT = { passed: 0, failed: 1, unusable: 2 } as const

export interface Output {
  out: (line: string) => void
  err: (line: string) => void
}

const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) }

function readAll(files: string[], output: Output): PactFile[] | undefined {
  try {
    return files.map(readPactFile)
  } catch (error) {
    if (error instanceof PactFileError) {
      output.err(`ivs-mock pact: ${error.message}`)
      return undefined
    }
    throw error
  }
}

export function runPactCheck(files: string[], output: Output = consoleOutput): number {
  const pacts = readAll(files, output)
  if (!pacts) return PACT_EXIT.unusable
  const conformance = new Conformance(loadContracts())
  let interactions = 0
  let failed = 0
  for (const pact of pacts) {
    for (const skipped of pact.skipped) output.out(`${pact.path}: "${skipped}": skipped (not a synchronous HTTP interaction)`)
    const findings = checkPact(conformance, pact)
    for (const finding of findings) output.out(formatFinding(finding))
    interactions += pact.interactions.length
    failed += new Set(findings.map((finding) => finding.interaction)).size
  }
  output.out(`pact check: ${interactions} interaction${interactions === 1 ? '' : 's'} in ${pacts.length} file${pacts.length === 1 ? '' : 's'}, ${failed} failed`)
  return failed === 0 ? PACT_EXIT.passed : PACT_EXIT.failed
}

/** A mock to verify against: one running at an origin, or one to start for the run (and stop after). */
export type VerifyTarget = { origin: string } | { start: () => Promise<{ origin: string; stop: () => Promise<void> }> }

export async function runPactVerify(files: string[], target: VerifyTarget, output: Output = consoleOutput): Promise<number> {
  const pacts = readAll(files, output)
  if (!pacts) return PACT_EXIT.unusable
  // Unknown states fail before any mock starts or any request is made.
  const unknown = stateProblems(pacts)
  if (unknown.length > 0) {
    for (const problem of unknown) output.err(`ivs-mock pact verify: ${problem}`)
    return PACT_EXIT.failed
  }
  const mock = 'origin' in target ? { origin: target.origin, stop: () => Promise.resolve() } : await target.start()
  try {
    const result = await verifyPacts({ files, origin: mock.origin })
    for (const problem of result.problems) output.err(`ivs-mock pact verify: ${problem}`)
    output.out(`pact verify: ${result.ok ? 'passed' : 'failed'} against ${mock.origin}`)
    return result.ok ? PACT_EXIT.passed : PACT_EXIT.failed
  } catch (error) {
    if (error instanceof PactNotInstalledError || error instanceof PactFileError) {
      output.err(`ivs-mock pact verify: ${error.message}`)
      return PACT_EXIT.unusable
    }
    throw error
  } finally {
    await mock.stop()
  }
}
