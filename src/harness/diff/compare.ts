// Compares two OpenAPI documents, the mock's and another: operations, parameters, request bodies,
// statuses and bodies, and, through their schemas, every value a request or an answer may hold.
// Schemas are compared in pairs (the mock's shape at a place, the other's at the same place, and
// whether it is sent or answered): each pair once, kept by its shapes, its differences and the pairs
// below it (properties, items, additional properties) recorded, and the pairs waiting in a queue,
// so a circular schema or a deep one costs no stack. differences.ts then says which operations
// reach each difference.
import {
  additionalDiffers,
  bodyOnlyInMock,
  bodyOnlyInOther,
  facet,
  mediaTypeOnlyInMock,
  mediaTypeOnlyInOther,
  nullableDiffers,
  operationOnlyInMock,
  operationOnlyInOther,
  parameterOnlyInMock,
  parameterOnlyInOther,
  propertyOnlyInMock,
  propertyOnlyInOther,
  requiredDiffers,
  statusOnlyInMock,
  statusOnlyInOther,
  styleDiffers,
  type Change,
  type Direction,
  type Verdict,
} from './classify.ts'
import { operationsOf, type MediaEntry, type OperationEntry, type ParameterEntry } from './operations.ts'
import { allowsType, ANY_SLOT, compareLower, compareUpper, propertyStep, SchemaGraph, type Bound, type JsonType, type Shape, type Slot } from './shapes.ts'

export interface Finding extends Verdict {
  aspect: string
  mock: string
  other: string
}

/** A difference between two schemas, at `step` (a JSON path: '' for the pair's own value, '.name' for a property) below them. */
export interface SchemaFinding extends Finding {
  step: string
}

export interface Pair {
  key: string
  mock: Shape
  other: Shape
  direction: Direction
  findings: SchemaFinding[]
  children: { step: string; pair: Pair }[]
}

/** A difference of an operation itself (one side only, a parameter, a status...), at `where` (without the aspect). */
export interface OperationFinding extends Finding {
  operation: string
  where: string
}

/** A schema an operation sends or answers: the pair of its two sides, and where in the operation it is. */
export interface Root {
  operation: string
  where: string
  pair: Pair
}

export interface Comparison {
  mockOperations: Map<string, OperationEntry>
  otherOperations: Map<string, OperationEntry>
  operationFindings: OperationFinding[]
  roots: Root[]
  /** Where a schema of either document was read as any value. */
  mockWarnings: string[]
  otherWarnings: string[]
}

const SCALARS: JsonType[] = ['string', 'number', 'integer', 'boolean']

const describeTypes = (types: ReadonlySet<JsonType> | undefined) => (types === undefined ? 'any type' : types.size === 0 ? 'no value' : [...types].join(' | '))
const describeValues = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ')
const describeBound = (bound: Bound | undefined, lower: boolean) => (bound === undefined ? '(none)' : `${lower ? '>' : '<'}${bound.exclusive ? '' : '='} ${bound.value}`)
const describeNumber = (value: number | undefined) => (value === undefined ? '(none)' : String(value))
const nonNull = (types: ReadonlySet<JsonType> | undefined) => (types === undefined ? undefined : new Set([...types].filter((type) => type !== 'null')))
const takesOthers = (shape: Shape) => shape.additional === 'open' || typeof shape.additional === 'object' || (shape.additional === 'unspecified' && shape.properties.size === 0)

/** How an optional bound on the other side compares with the mock's: none is no limit. */
function boundChange<T>(mock: T | undefined, other: T | undefined, tighter: (a: T, b: T) => number): Change | undefined {
  if (mock === undefined && other === undefined) return undefined
  if (mock === undefined) return 'narrower'
  if (other === undefined) return 'wider'
  const order = tighter(other, mock)
  return order > 0 ? 'narrower' : order < 0 ? 'wider' : undefined
}

export class SchemaComparison {
  private readonly pairs = new Map<string, Pair>()
  /** Every pair in the order it was first asked for; those from `next` on wait to be compared. */
  private readonly queue: Pair[] = []
  private next = 0

  constructor(
    readonly mock: SchemaGraph,
    readonly other: SchemaGraph,
  ) {}

  /** The pair of two schemas, compared once: queued the first time it is asked for. */
  pair(mockSlot: Slot, otherSlot: Slot, direction: Direction): Pair {
    const mock = this.mock.shape(mockSlot)
    const other = this.other.shape(otherSlot)
    const key = `${direction}|${mock.key}|${other.key}`
    let pair = this.pairs.get(key)
    if (!pair) {
      pair = { key, mock, other, direction, findings: [], children: [] }
      this.pairs.set(key, pair)
      this.queue.push(pair)
    }
    return pair
  }

  /** Compares every queued pair, and the pairs they lead to. */
  run(): void {
    for (let pair = this.queue[this.next]; pair; pair = this.queue[++this.next]) this.compare(pair)
  }

  private compare(pair: Pair): void {
    const { mock, other, direction } = pair
    if (mock.alternatives && other.alternatives && mock.alternatives.length === other.alternatives.length) {
      this.compareAlternatives(pair, mock.alternatives, other.alternatives)
      return
    }
    const note = (step: string, aspect: string, mockSays: string, otherSays: string, verdict: Verdict) =>
      pair.findings.push({ step, aspect, mock: mockSays, other: otherSays, ...verdict })
    const facetNote = (aspect: string, change: Change | undefined, mockSays: string, otherSays: string, detail?: { wider?: string; narrower?: string }) => {
      if (change) note('', aspect, mockSays, otherSays, facet(direction, change, detail))
    }

    const mockTypes = nonNull(mock.types)
    const otherTypes = nonNull(other.types)
    const otherOnly = otherTypes === undefined ? (mockTypes === undefined ? [] : ['any type']) : [...otherTypes].filter((type) => !allowsType(mockTypes, type))
    const mockOnly = mockTypes === undefined ? (otherTypes === undefined ? [] : ['any type']) : [...mockTypes].filter((type) => !allowsType(otherTypes, type))
    if (otherOnly.length > 0 || mockOnly.length > 0) {
      const change: Change = mockOnly.length === 0 ? 'wider' : otherOnly.length === 0 ? 'narrower' : 'incomparable'
      const values = (types: string[]) => types.map((type) => (type === 'any type' ? 'values of any type' : `${type} values`)).join(', ')
      facetNote('type', change, describeTypes(mockTypes), describeTypes(otherTypes), { wider: values(otherOnly), narrower: values(mockOnly) })
    }
    if (mock.types !== undefined && other.types !== undefined && mock.types.has('null') !== other.types.has('null')) {
      note('', 'nullable', mock.types.has('null') ? 'nullable' : 'not nullable', other.types.has('null') ? 'nullable' : 'not nullable', nullableDiffers(direction, other.types.has('null')))
    }

    const shared = (type: JsonType) => allowsType(mock.types, type) && allowsType(other.types, type)
    if (SCALARS.some(shared)) this.compareEnums(pair, note)
    if (shared('string')) {
      const format: Change | undefined =
        mock.format === other.format ? undefined : mock.format === undefined ? 'narrower' : other.format === undefined ? 'wider' : 'incomparable'
      facetNote('format', format, mock.format ?? '(none)', other.format ?? '(none)', { wider: `strings that are not ${mock.format ?? ''}`, narrower: `strings that are not ${other.format ?? ''}` })
      facetNote('minLength', boundChange(mock.minLength, other.minLength, (a, b) => a - b), describeNumber(mock.minLength), describeNumber(other.minLength), { wider: 'shorter strings', narrower: 'shorter strings' })
      facetNote('maxLength', boundChange(mock.maxLength, other.maxLength, (a, b) => b - a), describeNumber(mock.maxLength), describeNumber(other.maxLength), { wider: 'longer strings', narrower: 'longer strings' })
      const pattern: Change | undefined =
        mock.pattern === other.pattern ? undefined : mock.pattern === undefined ? 'narrower' : other.pattern === undefined ? 'wider' : 'incomparable'
      facetNote('pattern', pattern, mock.pattern ?? '(none)', other.pattern ?? '(none)', { wider: "strings the mock's pattern refuses", narrower: "strings the other side's pattern refuses" })
    }
    if (shared('integer') || shared('number')) {
      facetNote('minimum', boundChange(mock.minimum, other.minimum, compareLower), describeBound(mock.minimum, true), describeBound(other.minimum, true), { wider: 'smaller numbers', narrower: 'smaller numbers' })
      facetNote('maximum', boundChange(mock.maximum, other.maximum, compareUpper), describeBound(mock.maximum, false), describeBound(other.maximum, false), { wider: 'larger numbers', narrower: 'larger numbers' })
    }
    if (shared('array')) {
      facetNote('minItems', boundChange(mock.minItems, other.minItems, (a, b) => a - b), describeNumber(mock.minItems), describeNumber(other.minItems), { wider: 'shorter arrays', narrower: 'shorter arrays' })
      facetNote('maxItems', boundChange(mock.maxItems, other.maxItems, (a, b) => b - a), describeNumber(mock.maxItems), describeNumber(other.maxItems), { wider: 'longer arrays', narrower: 'longer arrays' })
      pair.children.push({ step: '[]', pair: this.pair(mock.items ?? ANY_SLOT, other.items ?? ANY_SLOT, direction) })
    }
    if (shared('object')) this.compareObjects(pair, note)
  }

  /** Two oneOfs (or anyOfs) of as many alternatives: those the same component pair up, the rest in their order. */
  private compareAlternatives(pair: Pair, mockAlternatives: Slot[], otherAlternatives: Slot[]): void {
    const keyOf = (graph: SchemaGraph, slot: Slot) => graph.shape(slot).key
    const unmatched = otherAlternatives.map((slot) => ({ slot, key: keyOf(this.other, slot) }))
    const pending: Slot[] = []
    const match = (mockSlot: Slot, otherSlot: Slot) => pair.children.push({ step: '', pair: this.pair(mockSlot, otherSlot, pair.direction) })
    for (const mockSlot of mockAlternatives) {
      const key = keyOf(this.mock, mockSlot)
      const same = unmatched.findIndex((candidate) => candidate.key === key)
      if (same < 0) pending.push(mockSlot)
      else match(mockSlot, (unmatched.splice(same, 1)[0] as { slot: Slot }).slot)
    }
    pending.forEach((mockSlot, index) => match(mockSlot, (unmatched[index] as { slot: Slot }).slot))
  }

  private compareEnums(pair: Pair, note: (step: string, aspect: string, mock: string, other: string, verdict: Verdict) => void): void {
    const { mock, other, direction } = pair
    if (mock.enumValues === undefined && other.enumValues === undefined) return
    if (mock.enumValues === undefined || other.enumValues === undefined) {
      const change: Change = mock.enumValues === undefined ? 'narrower' : 'wider'
      note('', 'enum', mock.enumValues ? describeValues(mock.enumValues) : '(any value)', other.enumValues ? describeValues(other.enumValues) : '(any value)', facet(direction, change, { wider: 'values beyond the enum', narrower: 'values beyond the enum' }))
      return
    }
    const has = (values: readonly unknown[], value: unknown) => values.some((item) => JSON.stringify(item) === JSON.stringify(value))
    const otherOnly = other.enumValues.filter((value) => !has(mock.enumValues ?? [], value))
    const mockOnly = mock.enumValues.filter((value) => !has(other.enumValues ?? [], value))
    if (otherOnly.length === 0 && mockOnly.length === 0) return
    const change: Change = mockOnly.length === 0 ? 'wider' : otherOnly.length === 0 ? 'narrower' : 'incomparable'
    note('', 'enum', describeValues(mock.enumValues), describeValues(other.enumValues), facet(direction, change, { wider: describeValues(otherOnly), narrower: describeValues(mockOnly) }))
  }

  private compareObjects(pair: Pair, note: (step: string, aspect: string, mock: string, other: string, verdict: Verdict) => void): void {
    const { mock, other, direction } = pair
    // A read-only property is never sent, a write-only one never answered.
    const listed = (graph: SchemaGraph, shape: Shape) =>
      new Map([...shape.properties].filter(([, slot]) => {
        const property = graph.shape(slot)
        return direction === 'request' ? !property.readOnly : !property.writeOnly
      }))
    const mockProperties = listed(this.mock, mock)
    const otherProperties = listed(this.other, other)
    const describeRequired = (required: boolean) => (required ? 'required' : 'optional')
    for (const [name, mockSlot] of mockProperties) {
      const step = propertyStep(name)
      const mockRequires = mock.required.has(name)
      const otherSlot = otherProperties.get(name)
      if (otherSlot === undefined) {
        note(step, 'property', describeRequired(mockRequires), 'absent', propertyOnlyInMock(direction, mockRequires, takesOthers(other)))
        continue
      }
      const otherRequires = other.required.has(name)
      if (mockRequires !== otherRequires) note(step, 'required', describeRequired(mockRequires), describeRequired(otherRequires), requiredDiffers(direction, otherRequires))
      pair.children.push({ step, pair: this.pair(mockSlot, otherSlot, direction) })
    }
    for (const name of otherProperties.keys()) {
      if (mockProperties.has(name)) continue
      const otherRequires = other.required.has(name)
      note(propertyStep(name), 'property', 'absent', describeRequired(otherRequires), propertyOnlyInOther(direction, otherRequires, takesOthers(mock)))
    }
    const mockTakes = takesOthers(mock)
    const otherTakes = takesOthers(other)
    if (mockTakes !== otherTakes) {
      note('', 'additionalProperties', mockTakes ? 'allowed' : 'not allowed', otherTakes ? 'allowed' : 'not allowed', additionalDiffers(direction, otherTakes))
    } else if (mockTakes) {
      const slotOf = (shape: Shape) => (typeof shape.additional === 'object' ? shape.additional.schema : ANY_SLOT)
      pair.children.push({ step: '.*', pair: this.pair(slotOf(mock), slotOf(other), direction) })
    }
  }
}

/** `request body (application/json)`, `response 200 (application/json)`. */
const mediaWhere = (base: string, mediaType: string) => `${base} (${mediaType})`

function compareMedia(
  comparison: SchemaComparison,
  operation: string,
  base: string,
  direction: Direction,
  mockContent: MediaEntry[],
  otherContent: MediaEntry[],
  findings: OperationFinding[],
  roots: Root[],
): void {
  for (const mock of mockContent) {
    const other = otherContent.find((entry) => entry.mediaType === mock.mediaType)
    if (!other) {
      findings.push({ operation, where: mediaWhere(base, mock.mediaType), aspect: 'media type', mock: 'present', other: 'absent', ...mediaTypeOnlyInMock(direction, otherContent.length === 0) })
      continue
    }
    if (mock.schema === undefined && other.schema === undefined) continue
    const pair = comparison.pair(mock.schema ? { at: mock.schema } : ANY_SLOT, other.schema ? { at: other.schema } : ANY_SLOT, direction)
    roots.push({ operation, where: mediaWhere(base, mock.mediaType), pair })
  }
  for (const other of otherContent) {
    if (mockContent.some((entry) => entry.mediaType === other.mediaType)) continue
    findings.push({ operation, where: mediaWhere(base, other.mediaType), aspect: 'media type', mock: 'absent', other: 'present', ...mediaTypeOnlyInOther(direction) })
  }
}

function compareParameters(comparison: SchemaComparison, operation: string, mock: Map<string, ParameterEntry>, other: Map<string, ParameterEntry>, findings: OperationFinding[], roots: Root[]): void {
  const describe = (parameter: ParameterEntry) => (parameter.required ? 'required' : 'optional')
  for (const [key, mockParameter] of mock) {
    const otherParameter = other.get(key)
    const where = mockParameter.label
    if (!otherParameter) {
      findings.push({ operation, where, aspect: 'parameter', mock: describe(mockParameter), other: 'absent', ...parameterOnlyInMock })
      continue
    }
    if (mockParameter.required !== otherParameter.required) {
      findings.push({ operation, where, aspect: 'required', mock: describe(mockParameter), other: describe(otherParameter), ...requiredDiffers('request', otherParameter.required) })
    }
    const pair = comparison.pair(mockParameter.schema ? { at: mockParameter.schema } : ANY_SLOT, otherParameter.schema ? { at: otherParameter.schema } : ANY_SLOT, 'request')
    // How a value is written matters only for arrays and objects: a scalar is written the same in every style.
    const structured = pair.mock.types !== undefined && (pair.mock.types.has('array') || pair.mock.types.has('object'))
    if (structured && (mockParameter.style !== otherParameter.style || mockParameter.explode !== otherParameter.explode)) {
      const describeStyle = (parameter: ParameterEntry) => `${parameter.style}, explode ${String(parameter.explode)}`
      findings.push({ operation, where, aspect: 'style', mock: describeStyle(mockParameter), other: describeStyle(otherParameter), ...styleDiffers })
    }
    roots.push({ operation, where, pair })
  }
  for (const [key, otherParameter] of other) {
    if (mock.has(key)) continue
    findings.push({ operation, where: otherParameter.label, aspect: 'parameter', mock: 'absent', other: describe(otherParameter), ...parameterOnlyInOther(otherParameter.required) })
  }
}

function compareOperation(comparison: SchemaComparison, mock: OperationEntry, other: OperationEntry, findings: OperationFinding[], roots: Root[]): void {
  const operation = mock.label
  compareParameters(comparison, operation, mock.parameters, other.parameters, findings, roots)
  const describeBody = (body: OperationEntry['requestBody']) => (body === undefined ? 'absent' : body.required ? 'required' : 'optional')
  if (mock.requestBody && !other.requestBody) {
    findings.push({ operation, where: 'request body', aspect: 'request body', mock: describeBody(mock.requestBody), other: 'absent', ...bodyOnlyInMock })
  } else if (!mock.requestBody && other.requestBody) {
    findings.push({ operation, where: 'request body', aspect: 'request body', mock: 'absent', other: describeBody(other.requestBody), ...bodyOnlyInOther(other.requestBody.required) })
  } else if (mock.requestBody && other.requestBody) {
    if (mock.requestBody.required !== other.requestBody.required) {
      findings.push({ operation, where: 'request body', aspect: 'required', mock: describeBody(mock.requestBody), other: describeBody(other.requestBody), ...requiredDiffers('request', other.requestBody.required) })
    }
    compareMedia(comparison, operation, 'request body', 'request', mock.requestBody.content, other.requestBody.content, findings, roots)
  }
  for (const [status, mockContent] of mock.responses) {
    const otherContent = other.responses.get(status)
    if (otherContent === undefined) {
      findings.push({ operation, where: `response ${status}`, aspect: 'status', mock: 'documented', other: 'absent', ...statusOnlyInMock })
      continue
    }
    compareMedia(comparison, operation, `response ${status}`, 'response', mockContent, otherContent, findings, roots)
  }
  for (const status of other.responses.keys()) {
    if (mock.responses.has(status)) continue
    findings.push({ operation, where: `response ${status}`, aspect: 'status', mock: 'absent', other: 'documented', ...statusOnlyInOther })
  }
}

/** Compares the mock's document with another: every operation, and every schema pair they lead to. */
export function compareDocuments(mockDocument: Record<string, unknown>, otherDocument: Record<string, unknown>): Comparison {
  const mockGraph = new SchemaGraph(mockDocument)
  const otherGraph = new SchemaGraph(otherDocument)
  const mockOperations = operationsOf(mockDocument, mockGraph)
  const otherOperations = operationsOf(otherDocument, otherGraph)
  const comparison = new SchemaComparison(mockGraph, otherGraph)
  const operationFindings: OperationFinding[] = []
  const roots: Root[] = []
  for (const [key, mock] of mockOperations) {
    const other = otherOperations.get(key)
    if (other) compareOperation(comparison, mock, other, operationFindings, roots)
    else operationFindings.push({ operation: mock.label, where: 'operation', aspect: 'operation', mock: 'served', other: 'absent', ...operationOnlyInMock })
  }
  for (const [key, other] of otherOperations) {
    if (!mockOperations.has(key)) operationFindings.push({ operation: other.label, where: 'operation', aspect: 'operation', mock: 'absent', other: 'served', ...operationOnlyInOther })
  }
  comparison.run()
  return { mockOperations, otherOperations, operationFindings, roots, mockWarnings: [...mockGraph.warnings], otherWarnings: [...otherGraph.warnings] }
}
