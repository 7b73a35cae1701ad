// What a run reports: the console (a live line on a terminal, plain lines in CI), JUnit XML (each
// scenario a test case, for CI tools) and JSON (every scenario and step). Each ends with what the
// run left on the target and the table of every API operation: passed, failed, or not reached and why.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import junitModule from 'junit-report-builder'
import { formatOperations, operationsLine } from './coverage.ts'
import { driftLine, formatDrift } from './drift.ts'
import type { LoadedScenario } from './scenarios.ts'
import type { Drift, RunReport, ScenarioReport } from './report.ts'

// A CommonJS package whose module.exports is the builder; under NodeNext the default is the module.
const junit = junitModule as unknown as typeof junitModule.default

/** The failure details of a scenario: which step, the request, the answer and each difference. */
export function failureDetails(scenario: ScenarioReport): string[] {
  const lines = scenario.failures.map((failure) => `- ${failure}`)
  scenario.steps.forEach((step, index) => {
    if (step.outcome !== 'failed') return
    lines.push(`step ${index + 1} "${step.name}"${step.operationId ? ` (${step.operationId})` : ''}`)
    if (step.request) lines.push(`  request:  ${step.request}`)
    if (step.response !== undefined) lines.push(`  answer:   ${step.response}`)
    lines.push(...step.failures.map((failure) => `  - ${failure}`))
  })
  return lines
}

/** The one-line outcome of a scenario: `✓ name (123 ms)`, `✗ name (file)`, `- name (skipped: reason)`. */
export function outcomeLine(scenario: ScenarioReport): string {
  if (scenario.outcome === 'passed') return `✓ ${scenario.name} (${scenario.durationMs} ms)`
  if (scenario.outcome === 'failed') return `✗ ${scenario.name} (${scenario.file})`
  return `- ${scenario.name} (skipped: ${scenario.skipReason ?? 'no reason'})`
}

export function summaryLine(report: RunReport): string {
  return `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`
}

/** What comes after the scenarios: whom the run acted as, its requests and waits for the rate limit, what it left behind. */
export function runDetails(report: RunReport): string[] {
  const lines: string[] = []
  if (report.target) lines.push(`Acted in ${report.target}`)
  const { requests, times, waitedMs } = report.rateLimited
  lines.push(`Requests: ${requests}${times > 0 ? `; waited out ${times} ${times === 1 ? 'answer' : 'answers'} 429 (${Math.round(waitedMs / 1000)} s in all)` : ''}`)
  if (!report.control || report.readOnly) {
    lines.push(report.leftBehind.length === 0 ? 'Left behind: nothing' : 'Left behind:')
    for (const { what, why } of report.leftBehind) lines.push(`  ${what}: ${why}`)
  }
  return lines
}

/** The end of every report: the drift since a baseline first, the scenarios' summary, the operations table and the line of operations reached. */
export function closingLines(report: RunReport): string[] {
  return [...(report.drift ? formatDrift(report.drift) : []), ...runDetails(report), summaryLine(report), ...formatOperations(report)]
}

export interface ConsoleOptions {
  stream?: NodeJS.WriteStream
  /** A live spinner line (default: when the stream is a terminal and CI is not set). */
  live?: boolean
  total: number
}

const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const CLEAR_LINE = '\r\x1b[2K'

/**
 * One line per scenario as it ends; on a terminal a live line below them (spinner, how many are
 * done, what is running), redrawn in place with plain ANSI and cut to the terminal's width so it
 * never wraps.
 */
export class ConsoleReporter {
  private readonly stream: NodeJS.WriteStream
  private readonly live: boolean
  private readonly running = new Set<string>()
  private done = 0
  private frame = 0
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly options: ConsoleOptions) {
    this.stream = options.stream ?? process.stdout
    this.live = options.live ?? (this.stream.isTTY === true && !process.env.CI)
  }

  started(scenario: LoadedScenario): void {
    this.running.add(scenario.name)
    if (this.live && !this.timer) {
      this.timer = setInterval(() => this.draw(), 80)
      this.timer.unref()
    }
    this.draw()
  }

  ended(scenario: ScenarioReport): void {
    this.running.delete(scenario.name)
    this.done++
    const lines = [outcomeLine(scenario), ...(scenario.outcome === 'failed' ? failureDetails(scenario).map((line) => `    ${line}`) : [])]
    this.stream.write(`${this.live ? CLEAR_LINE : ''}${lines.join('\n')}\n`)
    this.draw()
  }

  private draw(): void {
    if (!this.live) return
    this.frame = (this.frame + 1) % SPINNER_FRAMES.length
    const width = Math.max(20, (this.stream.columns || 80) - 1)
    const text = `${SPINNER_FRAMES[this.frame] ?? ''} ${this.done}/${this.options.total} ${[...this.running].join(' · ')}`
    this.stream.write(`${CLEAR_LINE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`)
  }

  finish(report: RunReport): void {
    clearInterval(this.timer)
    this.stream.write(`${this.live ? CLEAR_LINE : ''}${closingLines(report).join('\n')}\n`)
  }
}

/** The drift as a test suite, first in the file: a test case per operation that moved, failed where it got worse or fails in new ways. */
function driftSuite(builder: ReturnType<typeof junit.newBuilder>, drift: Drift): void {
  const suite = builder.testSuite().name('drift').property('baseline', drift.baseline.file).property('summary', formatDrift(drift)[0] as string)
  if (drift.operations.length === 0) suite.testCase().className('drift').name('no drift since the baseline')
  for (const entry of drift.operations) {
    const testCase = suite.testCase().className('drift').name(`${entry.operationId} (${entry.method} ${entry.path})`)
    const details = [driftLine(entry), ...entry.newViolations.map((violation) => `new: ${violation}`)].join('\n')
    if (entry.kind === 'recovered' || entry.kind === 'newly reached') testCase.standardOutput(details)
    else testCase.failure(driftLine(entry), 'Drift').stacktrace(details)
  }
}

/** JUnit XML: the drift since a baseline first, then one suite for the run, one test case per scenario (class name: its file), failures with their details. */
export function junitXml(report: RunReport): string {
  const builder = junit.newBuilder()
  if (report.drift) driftSuite(builder, report.drift)
  const suite = builder.testSuite().name('ivs-mock verify').property('base', report.base).time(report.durationMs / 1000)
  for (const scenario of report.scenarios) {
    const testCase = suite.testCase().className(scenario.file.replace(/\.(ya?ml|json)$/, '')).name(scenario.name).file(scenario.file).time(scenario.durationMs / 1000)
    if (scenario.outcome === 'failed') {
      const details = failureDetails(scenario)
      const firstStep = scenario.steps.find((step) => step.outcome === 'failed')
      const headline = firstStep ? `step "${firstStep.name}": ${firstStep.failures[0] ?? 'failed'}` : (scenario.failures[0] ?? 'failed')
      testCase.failure(headline, 'ScenarioFailure').stacktrace(details.join('\n'))
    } else if (scenario.outcome === 'skipped') {
      testCase.skipped().standardOutput(`skipped: ${scenario.skipReason ?? ''}`)
    }
  }
  // The operations as a suite of their own: a test case each, failed or skipped (not reached) with why.
  const operations = builder.testSuite().name('operations').property('summary', operationsLine(report))
  for (const { what, why } of report.leftBehind) operations.property('left behind', `${what}: ${why}`)
  for (const entry of report.operations) {
    const testCase = operations.testCase().className('operations').name(`${entry.operationId} (${entry.method} ${entry.path})`)
    if (entry.outcome === 'failed') testCase.failure(`${entry.operationId}: a step's answer failed (see its scenario)`, 'OperationFailure')
    else if (entry.outcome === 'not reached') testCase.skipped().standardOutput(`not reached: ${entry.reason ?? ''}`)
  }
  return builder.build()
}

/** The run as JSON, the drift since a baseline first. */
export function jsonReport(report: RunReport): string {
  return `${JSON.stringify(report.drift ? { drift: report.drift, ...report } : report, null, 2)}\n`
}

export function writeReport(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, content)
}
