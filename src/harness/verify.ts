// `ivs-mock verify`: loads the scenarios, runs them against a base URL with the console reporter,
// compares the operations with a baseline (an earlier run's JSON report), writes the JUnit and JSON
// reports, and answers the exit status (0 passed, 1 failed or worse than the baseline, 2 unusable).
import { loadContracts } from '../contracts/ajv.ts'
import { coverage, formatCoverage } from './coverage.ts'
import { BaselineError, compareWithBaseline, readBaseline, type Baseline } from './drift.ts'
import { ConsoleReporter, jsonReport, junitXml, writeReport } from './reports.ts'
import { TOKEN_ROLES, type TokenRole } from './roles.ts'
import { RunUsageError, Runner, TargetUnreachableError } from './runner.ts'
import { loadScenarios, ScenarioFormatError, type LoadedScenario } from './scenarios.ts'

export const EXIT_PASSED = 0
export const EXIT_FAILED = 1
export const EXIT_UNUSABLE = 2

export interface VerifyRequest {
  base: string
  scenarioPaths: string[]
  tokens: Record<string, string>
  grep?: RegExp
  tags?: string[]
  bail?: boolean
  junit?: string
  json?: string
  timeoutSeconds?: number
  concurrency?: number
  wait?: boolean
  keep?: boolean
  readOnly?: boolean
  /** An earlier run's JSON report (--json) to compare the operations with. */
  baseline?: string
  receiverUrl?: string
  receiverPort?: number
  samplesDir?: string
  /** Where the lines go (default: stdout and stderr). */
  out?: NodeJS.WriteStream
  err?: NodeJS.WriteStream
}

/** Loads scenario files, printing a format error (file and path) and answering undefined when they break the format. */
export function loadOrReport(paths: string[], err: NodeJS.WriteStream = process.stderr): LoadedScenario[] | undefined {
  try {
    return loadScenarios(paths, loadContracts())
  } catch (error) {
    if (error instanceof ScenarioFormatError) {
      err.write(`ivs-mock verify: ${error.message}\n`)
      return undefined
    }
    throw error
  }
}

/** `verify --coverage`: the coverage table; no target needed. */
export function printCoverage(paths: string[], out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr): number {
  const scenarios = loadOrReport(paths, err)
  if (!scenarios) return EXIT_UNUSABLE
  out.write(`${formatCoverage(coverage(scenarios, loadContracts()))}\n`)
  return EXIT_PASSED
}

export async function verify(request: VerifyRequest): Promise<number> {
  const out = request.out ?? process.stdout
  const err = request.err ?? process.stderr
  let baseline: Baseline | undefined
  try {
    baseline = request.baseline === undefined ? undefined : readBaseline(request.baseline)
  } catch (error) {
    if (!(error instanceof BaselineError)) throw error
    err.write(`ivs-mock verify: ${error.message}\n`)
    return EXIT_UNUSABLE
  }
  const scenarios = loadOrReport(request.scenarioPaths, err)
  if (!scenarios) return EXIT_UNUSABLE
  const tokens = Object.fromEntries(Object.entries(request.tokens).filter(([role]) => (TOKEN_ROLES as readonly string[]).includes(role))) as Partial<Record<TokenRole, string>>
  let reporter: ConsoleReporter | undefined
  try {
    const runner = new Runner({
      base: request.base,
      scenarios,
      tokens,
      timeoutMs: (request.timeoutSeconds ?? 30) * 1000,
      concurrency: request.concurrency,
      bail: request.bail,
      wait: request.wait,
      keep: request.keep,
      readOnly: request.readOnly,
      grep: request.grep,
      tags: request.tags,
      receiverUrl: request.receiverUrl,
      receiverPort: request.receiverPort,
      samplesDir: request.samplesDir,
      onSelected: (selected) => (reporter = new ConsoleReporter({ stream: out, total: selected.length + (request.readOnly ? 1 : 0) })),
      onScenarioStart: (scenario) => reporter?.started(scenario),
      onScenarioEnd: (report) => reporter?.ended(report),
    })
    const report = await runner.run()
    if (report.scenarios.length === 0) {
      err.write('ivs-mock verify: no scenario matches --grep, --tag and --read-only\n')
      return EXIT_UNUSABLE
    }
    if (baseline) report.drift = compareWithBaseline(report, baseline)
    reporter?.finish(report)
    if (request.junit) writeReport(request.junit, junitXml(report))
    if (request.json) writeReport(request.json, jsonReport(report))
    return report.failed > 0 || report.drift?.worse === true ? EXIT_FAILED : EXIT_PASSED
  } catch (error) {
    if (error instanceof TargetUnreachableError || error instanceof RunUsageError) {
      err.write(`ivs-mock verify: ${error.message}\n`)
      return EXIT_UNUSABLE
    }
    throw error
  }
}
