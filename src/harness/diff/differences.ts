// From what compare.ts found to the differences `ivs-mock diff` reports. A difference found in a
// schema the mock writes in one of its components (the client, the error body) is reported once,
// at its place in that component, with every operation it reaches and where; any other is reported
// in its operation, at its place there. The same difference reached through many operations is one
// difference, however the other document writes it (one shared component or a copy per operation).
import { BREAKS, classificationOf, type Classification } from './classify.ts'
import type { Comparison, Pair, SchemaFinding } from './compare.ts'

/** An operation a difference reaches, and where in it: `response 200 (application/json) $.data[]`. */
export interface Reach {
  operation: string
  at: string
}

export interface Difference {
  classification: Classification
  /** The operation the difference is in (`GET /clients/{id}`); absent for one in a component. */
  operation?: string
  /** The mock's component the difference is in (`client`); absent for one in an operation. */
  component?: string
  /** Where, and which aspect: `response 200 (application/json) $.status: enum`; in a component, `response $.status: enum`. */
  where: string
  aspect: string
  /** What each side says. */
  mock: string
  other: string
  meaning: string
  /** Every operation it reaches. */
  operations: Reach[]
}

/** Aspects that are a thing present on one side only: their place says it all (`response 418`, `query parameter sort`). */
const PRESENCE = new Set(['operation', 'status', 'parameter', 'request body', 'media type'])

const whereOf = (place: string, aspect: string) => (PRESENCE.has(aspect) ? place : `${place}: ${aspect}`)

/** Every pair the roots lead to, and for each the pairs that lead to it. */
function parentsOf(comparison: Comparison): Map<Pair, Pair[]> {
  const parents = new Map<Pair, Pair[]>()
  const queue = comparison.roots.map((root) => root.pair)
  for (const pair of queue) parents.set(pair, [])
  for (let index = 0; index < queue.length; index++) {
    const pair = queue[index] as Pair
    for (const { pair: child } of pair.children) {
      const known = parents.get(child)
      if (known) known.push(pair)
      else {
        parents.set(child, [pair])
        queue.push(child)
      }
    }
  }
  return parents
}

/** The pairs from which a difference can be reached: the only ones worth walking from each root. */
function fruitfulPairs(parents: Map<Pair, Pair[]>): Set<Pair> {
  const fruitful = new Set<Pair>()
  const queue = [...parents.keys()].filter((pair) => pair.findings.length > 0)
  for (const pair of queue) fruitful.add(pair)
  for (let index = 0; index < queue.length; index++) {
    for (const parent of parents.get(queue[index] as Pair) ?? []) {
      if (!fruitful.has(parent)) {
        fruitful.add(parent)
        queue.push(parent)
      }
    }
  }
  return fruitful
}

const order = (a: Difference, b: Difference) =>
  Number(a.classification !== BREAKS) - Number(b.classification !== BREAKS) ||
  Number(a.component !== undefined) - Number(b.component !== undefined) ||
  (a.operation ?? a.component ?? '').localeCompare(b.operation ?? b.component ?? '') ||
  a.where.localeCompare(b.where)

export function differencesOf(comparison: Comparison): Difference[] {
  const found = new Map<string, Difference>()
  const add = (key: string, difference: Omit<Difference, 'operations'>, reach: Reach) => {
    const known = found.get(key)
    if (!known) found.set(key, { ...difference, operations: [reach] })
    else if (!known.operations.some((item) => item.operation === reach.operation && item.at === reach.at)) known.operations.push(reach)
  }
  for (const finding of comparison.operationFindings) {
    const where = whereOf(finding.where, finding.aspect)
    const { operation, aspect, mock, other, meaning } = finding
    add(`${operation}\n${where}\n${mock}\n${other}`, { classification: classificationOf(finding), operation, where, aspect, mock, other, meaning }, { operation, at: finding.where })
  }
  const schemaFinding = (root: Comparison['roots'][number], pair: Pair, path: string, finding: SchemaFinding) => {
    const { aspect, mock, other, meaning } = finding
    const at = `${root.where} ${path}${finding.step}`
    const home = pair.mock.home
    const details = { classification: classificationOf(finding), aspect, mock, other, meaning }
    if (home === undefined) {
      const where = whereOf(at, aspect)
      add(`${root.operation}\n${where}\n${mock}\n${other}`, { ...details, operation: root.operation, where }, { operation: root.operation, at })
    } else {
      const where = whereOf(`${pair.direction} ${pair.mock.local}${finding.step}`, aspect)
      add(`component ${home}\n${where}\n${mock}\n${other}\n${meaning}`, { ...details, component: home, where }, { operation: root.operation, at })
    }
  }
  const fruitful = fruitfulPairs(parentsOf(comparison))
  for (const root of comparison.roots) {
    if (!fruitful.has(root.pair)) continue
    // Breadth first, each pair once per root: a circular schema ends, and each difference is placed by the shortest path to it.
    const queue: { pair: Pair; path: string }[] = [{ pair: root.pair, path: '$' }]
    const seen = new Set<Pair>([root.pair])
    for (let index = 0; index < queue.length; index++) {
      const { pair, path } = queue[index] as { pair: Pair; path: string }
      for (const finding of pair.findings) schemaFinding(root, pair, path, finding)
      for (const { step, pair: child } of pair.children) {
        if (!fruitful.has(child) || seen.has(child)) continue
        seen.add(child)
        queue.push({ pair: child, path: `${path}${step}` })
      }
    }
  }
  const differences = [...found.values()].sort(order)
  for (const difference of differences) difference.operations.sort((a, b) => a.operation.localeCompare(b.operation) || a.at.localeCompare(b.at))
  return differences
}

/** The operations a difference reaches, each once. */
export const operationsReached = (difference: Difference): string[] => [...new Set(difference.operations.map((reach) => reach.operation))]
