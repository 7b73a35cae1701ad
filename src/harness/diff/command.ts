// `ivs-mock diff <document>`: the mock's contracts (what GET /openapi.json serves, built here from
// contracts/, no server needed) against another OpenAPI document. Exit status: 0 nothing breaks
// clients, 1 something does (or a stale accepted entry, with --fail-on-stale), 2 a document or the
// accept file cannot be read (or, with --validate, the document breaks the OpenAPI schema), or a
// report cannot be written.
import { writeReport } from '../reports.ts'
import { AcceptFileError, applyAccepted, readAcceptFile, type AcceptEntry } from './accept.ts'
import { compareDocuments } from './compare.ts'
import { differencesOf } from './differences.ts'
import { DocumentError, readOtherDocument, servedDocument } from './documents.ts'
import { consoleText, diffReport, jsonText, junitXml, markdownText, type DiffReport } from './reports.ts'

export const EXIT_NOTHING_BREAKS = 0
export const EXIT_BREAKS = 1
export const EXIT_UNREADABLE = 2

export interface DiffRequest {
  /** The other document: a file (JSON or YAML) or an http(s) URL. */
  document: string
  json?: string
  markdown?: string
  junit?: string
  accept?: string
  failOnStale?: boolean
  /** Validate the other document with the parser, and refuse it when it breaks the OpenAPI schema. */
  validate?: boolean
  /** The contracts the mock's document is built from (default: the package's contracts/). */
  contractsDir?: string
  version?: string
  out?: NodeJS.WritableStream
  err?: NodeJS.WritableStream
}

/** The whole comparison, for callers that want the report rather than the lines (the tests, the command). */
export async function diffAgainst(request: DiffRequest): Promise<DiffReport> {
  const started = performance.now()
  const entries: AcceptEntry[] = request.accept ? readAcceptFile(request.accept) : []
  const other = await readOtherDocument(request.document, { validate: request.validate })
  const comparison = compareDocuments(servedDocument(request.contractsDir, request.version), other.document)
  const outcome = applyAccepted(differencesOf(comparison), entries)
  return diffReport(comparison, other, outcome, performance.now() - started)
}

export async function runDiff(request: DiffRequest): Promise<number> {
  const out = request.out ?? process.stdout
  const err = request.err ?? process.stderr
  let report: DiffReport
  try {
    report = await diffAgainst(request)
  } catch (error) {
    if (error instanceof DocumentError || error instanceof AcceptFileError) {
      err.write(`ivs-mock diff: ${error.message}\n`)
      return EXIT_UNREADABLE
    }
    throw error
  }
  out.write(consoleText(report))
  const writers: [string, string | undefined, () => string][] = [
    ['--json', request.json, () => jsonText(report)],
    ['--markdown', request.markdown, () => markdownText(report)],
    ['--junit', request.junit, () => junitXml(report)],
  ]
  for (const [flag, file, content] of writers) {
    if (file === undefined) continue
    try {
      writeReport(file, content())
    } catch (error) {
      err.write(`ivs-mock diff: cannot write ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`)
      return EXIT_UNREADABLE
    }
  }
  if (report.summary.breaking > 0) return EXIT_BREAKS
  return request.failOnStale && report.summary.stale > 0 ? EXIT_BREAKS : EXIT_NOTHING_BREAKS
}
