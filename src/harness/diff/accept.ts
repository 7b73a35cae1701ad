// `ivs-mock diff --accept FILE`: the differences a team has decided on, so a CI job fails only on
// new ones. The file is a YAML list; each entry names an operation (or a component of the mock's),
// the `where` the report prints, and why it is accepted:
//   - operation: GET /clients/{id}
//     where: "response 200 (application/json) $.status: enum"
//     reason: The specification the mock follows lists these statuses.
// An entry that matches no difference any more is stale: reported, and an exit status of 1 only
// with --fail-on-stale.
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import type { Difference } from './differences.ts'
import { operationKey } from './operations.ts'

export interface AcceptEntry {
  operation?: string
  component?: string
  where: string
  reason: string
}

export interface AcceptedDifference extends Difference {
  reason: string
}

/** An accept file that cannot be used: `message` says which entry and why. */
export class AcceptFileError extends Error {}

const KEYS = new Set(['operation', 'component', 'where', 'reason'])

/** `GET /clients/{clientId}` as matched: the method's case and the path parameters' names do not matter. */
function normaliseOperation(operation: string): string {
  const [method = '', ...path] = operation.trim().split(/\s+/)
  return operationKey(method, path.join(' '))
}

export function readAcceptFile(file: string): AcceptEntry[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new AcceptFileError(`cannot read --accept ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let entries: unknown
  try {
    entries = parseYaml(text) as unknown
  } catch (error) {
    throw new AcceptFileError(`--accept ${file} is not YAML: ${(error as Error).message.split('\n')[0] ?? ''}`)
  }
  if (entries === null || entries === undefined) return []
  if (!Array.isArray(entries)) throw new AcceptFileError(`--accept ${file} must be a YAML list of entries (operation or component, where, reason)`)
  return entries.map((entry: unknown, index) => {
    const problem = (why: string) => new AcceptFileError(`--accept ${file}: entry ${index + 1}: ${why}`)
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw problem('not a mapping of operation or component, where and reason')
    const fields = entry as Record<string, unknown>
    const unknown = Object.keys(fields).filter((key) => !KEYS.has(key))
    if (unknown.length > 0) throw problem(`unknown key ${unknown.map((key) => `"${key}"`).join(', ')} (keys: operation or component, where, reason)`)
    if ((fields.operation === undefined) === (fields.component === undefined)) throw problem('names one operation or one component')
    for (const key of ['operation', 'component', 'where', 'reason']) {
      const value = fields[key]
      if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) throw problem(`${key} must be a text that is not empty`)
    }
    if (fields.where === undefined) throw problem('has no where')
    if (fields.reason === undefined) throw problem('has no reason: say why the difference is accepted')
    return fields as unknown as AcceptEntry
  })
}

const matches = (entry: AcceptEntry, difference: Difference) =>
  entry.where.trim() === difference.where &&
  (entry.component !== undefined ? entry.component.trim() === difference.component : difference.operation !== undefined && normaliseOperation(entry.operation ?? '') === normaliseOperation(difference.operation))

/** The differences left to report, those the entries accept (with the entry's reason), and the entries that match none. */
export function applyAccepted(differences: Difference[], entries: AcceptEntry[]): { open: Difference[]; accepted: AcceptedDifference[]; stale: AcceptEntry[] } {
  const open: Difference[] = []
  const accepted: AcceptedDifference[] = []
  const used = new Set<AcceptEntry>()
  for (const difference of differences) {
    const entry = entries.find((candidate) => matches(candidate, difference))
    if (!entry) {
      open.push(difference)
      continue
    }
    used.add(entry)
    accepted.push({ ...difference, reason: entry.reason })
  }
  return { open, accepted, stale: entries.filter((entry) => !used.has(entry)) }
}
