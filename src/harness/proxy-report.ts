// What the validating proxy writes when it stops: --json (every exchange and the journal-shaped
// summary) and --junit (one test case per exchange, failed when its request or answer breaks the
// contract or no operation matches it, in error when it did not pass through whole); and whether
// a report's path can be written at all, asked when the proxy starts.
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, normalize } from 'node:path'
import junitModule from 'junit-report-builder'
import type { Report } from '../contracts/verdicts.ts'
import type { ProxiedExchange } from './proxy.ts'

// CommonJS (module.exports = builder) typed as an ES default export; under NodeNext the default is the module.
const junit = junitModule as unknown as typeof junitModule.default

export interface ProxyReport extends Report {
  upstream: string
  exchanges: Array<Omit<ProxiedExchange, 'recorded'>>
}

export function proxyReport(upstream: string, summary: Report, exchanges: readonly ProxiedExchange[]): ProxyReport {
  return {
    ...summary,
    upstream,
    exchanges: exchanges.map(({ recorded: _recorded, ...exchange }) => exchange),
  }
}

/** Writes a file, making its folder first. */
export function writeBeside(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

export function writeJsonReport(file: string, report: ProxyReport): void {
  writeBeside(file, `${JSON.stringify(report, null, 2)}\n`)
}

export function writeJunitReport(file: string, upstream: string, exchanges: readonly ProxiedExchange[]): void {
  const builder = junit.newBuilder()
  const suite = builder.testSuite().name(`ivs-mock proxy ${upstream}`)
  for (const exchange of exchanges) {
    const target = exchange.query === '' ? exchange.path : `${exchange.path}?${exchange.query}`
    const testCase = suite
      .testCase()
      .className(exchange.operationId ?? 'no-operation')
      .name(`${exchange.method} ${target} -> ${exchange.status}`)
      .time(exchange.durationMs / 1000)
    const problems = [...exchange.requestViolations.map((v) => `request ${v}`), ...exchange.responseViolations.map((v) => `response ${v}`)]
    if (exchange.verdicts.some((verdict) => verdict.kind === 'unknown_operation')) problems.unshift('no operation has this method and path')
    if (problems.length > 0) testCase.failure(problems.join('\n'), 'ContractViolation')
    // Not the contract's failure: the exchange could not be judged whole (the upstream gave no answer, or not all of it).
    const notRelayed = exchange.verdicts.find((verdict) => verdict.kind === 'not_relayed')
    if (notRelayed) testCase.error(notRelayed.message, exchange.answeredBy === 'proxy' ? 'AnsweredByTheProxy' : 'NotRelayedWhole')
    const noticed = exchange.verdicts.filter((verdict) => !['request_violation', 'response_violation', 'unknown_operation', 'not_relayed'].includes(verdict.kind))
    const output = [...noticed.map((verdict) => `${verdict.kind} ${verdict.at ?? ''}: ${verdict.message}`), ...exchange.notes]
    if (output.length > 0) testCase.standardOutput(output.join('\n'))
  }
  writeBeside(file, builder.build())
}

/**
 * Why a report cannot be written to `file`, or undefined: it is a folder, or it is not writable,
 * or (when it does not exist yet) the nearest folder above it is a file or not writable.
 */
export function unwritable(file: string): string | undefined {
  const path = normalize(file)
  for (let at = path; ; at = dirname(at)) {
    let isFolder: boolean
    try {
      isFolder = statSync(at).isDirectory()
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Not there yet (or under a file): it is made when written, so what is above it decides.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(at) !== at) continue
      return (error as Error).message
    }
    if (at === path && isFolder) return 'it is a folder'
    if (at !== path && !isFolder) return `${at} is not a folder`
    try {
      accessSync(at, constants.W_OK)
    } catch {
      return `${at} is not writable`
    }
    return undefined
  }
}
