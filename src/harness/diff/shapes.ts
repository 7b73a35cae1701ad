// How `ivs-mock diff` reads a schema of an OpenAPI document: through $ref (chains followed in a
// loop), allOf (merged: what every member asks), oneOf and anyOf (their envelope: what any
// alternative allows), OpenAPI 3.0's `nullable` and 3.1's type arrays, down to the facets it
// compares. A shape is built one level at a time: its properties, items and additional properties
// are slots, built when the comparison reaches them, and shapes are kept by the place they come
// from, so a circular schema is a finite graph and a component is built once however often it is
// used.

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'

/** A component and the JSON path in it (`client`, `$.name`). */
export interface Place {
  home: string | undefined
  local: string
}

/**
 * Where a schema comes from: a place in the document, or what all (allOf) or any (oneOf, anyOf) of
 * several ask. The properties of a oneOf's alternatives written in different components are placed
 * where the oneOf is (`place`).
 */
export type Slot = { at: string } | { all: Slot[] } | { any: Slot[]; place?: Place }

export interface Bound {
  value: number
  exclusive: boolean
}

/** Properties beyond those listed: unspecified (read as none: see docs/keeping-the-mock-honest.md), none, any, or those of a schema. */
export type Additional = 'unspecified' | 'closed' | 'open' | { schema: Slot }

export interface Shape {
  key: string
  /** The component the shape is written in (`client`, `common/$defs/email`), when it is one. */
  home: string | undefined
  /** The JSON path of the shape in its component (`$`, `$.name`, `$.data[]`). */
  local: string
  /** The JSON types allowed; undefined: any. */
  types: ReadonlySet<JsonType> | undefined
  /** The values allowed besides null (null is a type); undefined: no enum. */
  enumValues: readonly unknown[] | undefined
  format: string | undefined
  minimum: Bound | undefined
  maximum: Bound | undefined
  minLength: number | undefined
  maxLength: number | undefined
  minItems: number | undefined
  maxItems: number | undefined
  pattern: string | undefined
  properties: ReadonlyMap<string, Slot>
  required: ReadonlySet<string>
  additional: Additional
  items: Slot | undefined
  readOnly: boolean
  writeOnly: boolean
  /**
   * The alternatives of a schema that is only a oneOf or an anyOf: two such schemas with as many
   * alternatives are compared alternative by alternative, so a difference inside one (the client,
   * among the sources of a file) is found there, once.
   */
  alternatives: Slot[] | undefined
}

/** Keywords beside a $ref that do not change what it allows: such a $ref is the schema it points at. */
const ANNOTATIONS = new Set(['description', 'summary', 'title', 'example', 'examples', 'default', 'deprecated', '$comment', 'externalDocs', 'xml', 'discriminator'])

/** allOf, oneOf and anyOf nested deeper than this in one schema are read as any value (a generated document, not a hand-written one). */
const MAX_NESTING = 64

const NUMERIC_FORMATS = new Set(['int32', 'int64', 'float', 'double'])

export const ANY_SLOT: Slot = { any: [] }

const EMPTY_SET: ReadonlySet<string> = new Set()
const EMPTY_MAP: ReadonlyMap<string, Slot> = new Map()

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

export function childPointer(pointer: string, ...tokens: (string | number)[]): string {
  return `${pointer}${tokens.map((token) => `/${escapeToken(String(token))}`).join('')}`
}

const unescapeToken = (token: string) => (token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token)

/** The tokens of a pointer as this module writes them ('#/paths/~1clients/get'). */
function tokensOf(pointer: string): string[] {
  if (pointer === '#' || pointer === '#/') return []
  return pointer.slice(2).split('/').map(unescapeToken)
}

function safeDecode(token: string): string {
  try {
    return decodeURIComponent(token)
  } catch {
    return token
  }
}

/** A $ref's target (a URI fragment, so percent-encoded) as a pointer as this module writes them, or undefined for one outside the document. */
export function refPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined
  const fragment = ref.includes('%') ? safeDecode(ref) : ref
  return fragment === '#' || fragment === '#/' ? '#' : fragment
}

export class UnresolvableRefError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function slotKey(slot: Slot): string {
  if ('at' in slot) return slot.at
  if ('all' in slot) return `all(${slot.all.map(slotKey).join(',')})`
  return `any(${slot.any.map(slotKey).join(',')})`
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value as JsonType
}

/** Whether a set of types allows values of type `type` (number allows integers). */
export function allowsType(types: ReadonlySet<JsonType> | undefined, type: JsonType): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'))
}

/** The component and the JSON path in it of a place in the document; no component for a place outside components/schemas. */
function placeOf(pointer: string): Place {
  const tokens = tokensOf(pointer)
  if (tokens[0] !== 'components' || tokens[1] !== 'schemas' || tokens[2] === undefined) return { home: undefined, local: '$' }
  let home = tokens[2]
  let local = '$'
  for (let index = 3; index < tokens.length; index++) {
    const token = tokens[index] as string
    const next = tokens[index + 1]
    if ((token === '$defs' || token === 'definitions') && next !== undefined) {
      home = `${home}/${token}/${next}`
      local = '$'
      index++
    } else if ((token === 'properties' || token === 'patternProperties') && next !== undefined) {
      local += propertyStep(next)
      index++
    } else if (token === 'items') {
      local += '[]'
    } else if (token === 'additionalProperties') {
      local += '.*'
    } else if (['allOf', 'oneOf', 'anyOf', 'prefixItems'].includes(token) && next !== undefined) {
      index++
    }
  }
  return { home, local }
}

/** The JSON path step to a property: `.name`, or `['odd name']`. */
export function propertyStep(name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`
}

function typesOf(node: Record<string, unknown>, enumRaw: unknown[] | undefined): Set<JsonType> | undefined {
  const declared = node.type
  if (typeof declared === 'string') return new Set([declared as JsonType])
  if (Array.isArray(declared)) return new Set(declared.filter((type): type is JsonType => typeof type === 'string'))
  if (enumRaw) return new Set(enumRaw.map(jsonTypeOf))
  // A schema that lists properties or items without a type is read as the object or array it describes.
  if (isObject(node.properties) || Array.isArray(node.required) || 'additionalProperties' in node || isObject(node.patternProperties)) return new Set(['object'])
  if ('items' in node) return new Set(['array'])
  return undefined
}

function lowerBound(node: Record<string, unknown>): Bound | undefined {
  const minimum = typeof node.minimum === 'number' ? node.minimum : undefined
  if (typeof node.exclusiveMinimum === 'number') {
    return minimum !== undefined && minimum > node.exclusiveMinimum ? { value: minimum, exclusive: false } : { value: node.exclusiveMinimum, exclusive: true }
  }
  return minimum === undefined ? undefined : { value: minimum, exclusive: node.exclusiveMinimum === true }
}

function upperBound(node: Record<string, unknown>): Bound | undefined {
  const maximum = typeof node.maximum === 'number' ? node.maximum : undefined
  if (typeof node.exclusiveMaximum === 'number') {
    return maximum !== undefined && maximum < node.exclusiveMaximum ? { value: maximum, exclusive: false } : { value: node.exclusiveMaximum, exclusive: true }
  }
  return maximum === undefined ? undefined : { value: maximum, exclusive: node.exclusiveMaximum === true }
}

const numberOrUndefined = (value: unknown) => (typeof value === 'number' ? value : undefined)

/** Which of two lower bounds lets fewer values through (`tighter`) or more (the other). */
export function compareLower(a: Bound, b: Bound): number {
  return a.value !== b.value ? a.value - b.value : Number(a.exclusive) - Number(b.exclusive)
}

export function compareUpper(a: Bound, b: Bound): number {
  return a.value !== b.value ? b.value - a.value : Number(a.exclusive) - Number(b.exclusive)
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The schemas of one OpenAPI document, as shapes. */
export class SchemaGraph {
  private readonly shapes = new Map<string, Shape>()
  private readonly building = new Set<string>()
  private readonly canonicals = new Map<string, string>()
  private readonly values = new Map<string, unknown>()
  /** Where a schema was read as any value, once each. */
  readonly warnings = new Set<string>()

  constructor(private readonly root: unknown) {}

  /** The value at a pointer, walked from the nearest place already found; throws UnresolvableRefError when there is none. */
  resolve(pointer: string): unknown {
    if (this.values.has(pointer)) return this.values.get(pointer)
    let start = pointer.length
    let value: unknown = this.root
    for (;;) {
      start = pointer.lastIndexOf('/', start - 1)
      if (start <= 1) {
        start = 1
        break
      }
      const prefix = pointer.slice(0, start)
      if (this.values.has(prefix)) {
        value = this.values.get(prefix)
        break
      }
    }
    let at = pointer.slice(0, start)
    for (const raw of pointer.slice(start + 1).split('/')) {
      if (raw === '' && at === '#') break
      const token = unescapeToken(raw)
      if (Array.isArray(value) && /^\d+$/.test(token)) value = value[Number(token)]
      else if (isObject(value) && Object.hasOwn(value, token)) value = value[token]
      else throw new UnresolvableRefError(`${pointer} points nowhere`)
      at = `${at}/${raw}`
      this.values.set(at, value)
    }
    return value
  }

  /**
   * The place a chain of $refs ends at, followed in a loop (a chain of any length costs no stack):
   * a $ref whose siblings are only annotations is the schema it points at. A chain that comes back
   * on itself ends where it turns.
   */
  canonical(pointer: string): string {
    const known = this.canonicals.get(pointer)
    if (known !== undefined) return known
    const seen = new Set<string>()
    let at = pointer
    for (;;) {
      seen.add(at)
      const node = this.resolve(at)
      if (!isObject(node) || typeof node.$ref !== 'string' || Object.keys(node).some((key) => key !== '$ref' && !ANNOTATIONS.has(key) && !key.startsWith('x-'))) break
      const target = refPointer(node.$ref)
      if (target === undefined) throw new UnresolvableRefError(`$ref ${node.$ref} at ${at} is outside the document`)
      this.resolve(target)
      if (seen.has(target)) break
      at = target
    }
    for (const visited of seen) this.canonicals.set(visited, at)
    return at
  }

  shape(slot: Slot, depth = 0): Shape {
    const key = 'at' in slot ? this.canonical(slot.at) : slotKey(slot)
    const known = this.shapes.get(key)
    if (known) return known
    if (this.building.has(key) || depth > MAX_NESTING) {
      this.warnings.add(`${key}: ${depth > MAX_NESTING ? `allOf, oneOf or anyOf nested deeper than ${MAX_NESTING} levels` : 'a $ref or allOf that leads back to itself'}, read as any value`)
      return anyShape(key)
    }
    this.building.add(key)
    try {
      const built = 'at' in slot ? this.shapeAt(key, depth) : 'all' in slot ? this.merged(key, slot.all, depth) : this.envelope(key, slot.any, depth, slot.place)
      this.shapes.set(key, built)
      return built
    } finally {
      this.building.delete(key)
    }
  }

  private merged(key: string, slots: Slot[], depth: number): Shape {
    const shapes = slots.map((slot) => this.shape(slot, depth + 1))
    const homed = shapes.find((shape) => shape.home !== undefined)
    return merge(key, shapes, homed?.home, homed?.local ?? '$')
  }

  private envelope(key: string, slots: Slot[], depth: number, place: Place | undefined): Shape {
    if (slots.length === 0) return anyShape(key)
    const shapes = slots.map((slot) => this.shape(slot, depth + 1))
    const first = shapes[0] as Shape
    const shared = shapes.every((shape) => shape.home === first.home && shape.local === first.local)
    return envelope(key, shapes, shared ? first : (place ?? { home: undefined, local: '$' }))
  }

  private shapeAt(pointer: string, depth: number): Shape {
    const node = this.resolve(pointer)
    const place = placeOf(pointer)
    if (node === false) return { ...anyShape(pointer), ...place, types: new Set() }
    if (!isObject(node)) return { ...anyShape(pointer), ...place }
    const own = ownShape(pointer, node, place)
    const parts: Slot[] = []
    if (typeof node.$ref === 'string') {
      const target = refPointer(node.$ref)
      if (target === undefined) throw new UnresolvableRefError(`$ref ${node.$ref} at ${pointer} is outside the document`)
      parts.push({ at: target })
    }
    if (Array.isArray(node.allOf)) node.allOf.forEach((_, index) => parts.push({ at: childPointer(pointer, 'allOf', index) }))
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const alternatives = node[keyword]
      if (Array.isArray(alternatives)) parts.push({ any: alternatives.map((_, index) => ({ at: childPointer(pointer, keyword, index) })), place })
    }
    if (parts.length === 0) return own
    const unions = (['oneOf', 'anyOf'] as const).filter((keyword) => Array.isArray(node[keyword]))
    const members = [own, ...parts.map((part) => this.shape(part, depth + 1))]
    // A $ref with siblings, written outside the components (an operation's list narrowing the paged
    // list's items), belongs where its $ref points: what it says differently is said there.
    const borrowed = place.home === undefined ? members.slice(1).find((member) => member.home !== undefined) : undefined
    const result = merge(pointer, members, borrowed?.home ?? place.home, borrowed?.local ?? place.local)
    // OpenAPI 3.0 documents often write `nullable: true` beside an allOf or a $ref rather than beside a type.
    if (node.nullable === true && node.type === undefined && result.types !== undefined) return { ...result, types: new Set([...result.types, 'null']) }
    const onlyUnion = unions.length === 1 && Object.keys(node).every((key) => key === unions[0] || ANNOTATIONS.has(key) || key.startsWith('x-'))
    return onlyUnion ? { ...result, alternatives: (node[unions[0] as 'oneOf'] as unknown[]).map((_, index) => ({ at: childPointer(pointer, unions[0] as string, index) })) } : result
  }
}

function anyShape(key: string): Shape {
  return {
    key,
    home: undefined,
    local: '$',
    types: undefined,
    enumValues: undefined,
    format: undefined,
    minimum: undefined,
    maximum: undefined,
    minLength: undefined,
    maxLength: undefined,
    minItems: undefined,
    maxItems: undefined,
    pattern: undefined,
    properties: EMPTY_MAP,
    required: EMPTY_SET,
    additional: 'open',
    items: undefined,
    readOnly: false,
    writeOnly: false,
    alternatives: undefined,
  }
}

function ownShape(pointer: string, node: Record<string, unknown>, place: Place): Shape {
  const enumRaw = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined
  const types = typesOf(node, enumRaw)
  if (types && node.nullable === true) types.add('null')
  const enumValues = enumRaw?.filter((value) => value !== null)
  const properties = new Map<string, Slot>()
  if (isObject(node.properties)) for (const name of Object.keys(node.properties)) properties.set(name, { at: childPointer(pointer, 'properties', name) })
  const additional: Additional =
    node.additionalProperties === false || node.unevaluatedProperties === false
      ? 'closed'
      : isObject(node.additionalProperties)
        ? { schema: { at: childPointer(pointer, 'additionalProperties') } }
        : node.additionalProperties === true || isObject(node.patternProperties)
          ? 'open'
          : 'unspecified'
  const format = typeof node.format === 'string' && !NUMERIC_FORMATS.has(node.format) ? node.format : undefined
  return {
    key: pointer,
    ...place,
    types,
    enumValues: enumValues && enumValues.length > 0 ? enumValues : undefined,
    format,
    minimum: lowerBound(node),
    maximum: upperBound(node),
    minLength: numberOrUndefined(node.minLength),
    maxLength: numberOrUndefined(node.maxLength),
    minItems: numberOrUndefined(node.minItems),
    maxItems: numberOrUndefined(node.maxItems),
    pattern: typeof node.pattern === 'string' ? node.pattern : undefined,
    properties,
    required: new Set(Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : []),
    additional,
    items: isObject(node.items) || typeof node.items === 'boolean' ? { at: childPointer(pointer, 'items') } : undefined,
    readOnly: node.readOnly === true,
    writeOnly: node.writeOnly === true,
    alternatives: undefined,
  }
}

function joinSlots(kind: 'all' | 'any', slots: Slot[], place?: Place): Slot {
  return slots.length === 1 ? (slots[0] as Slot) : kind === 'all' ? { all: slots } : { any: slots, place }
}

function intersectTypes(a: ReadonlySet<JsonType> | undefined, b: ReadonlySet<JsonType> | undefined): ReadonlySet<JsonType> | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return new Set([...[...a].filter((type) => allowsType(b, type)), ...[...b].filter((type) => allowsType(a, type))])
}

/** The value `better` prefers among those given (the tightest bound for allOf, the widest for oneOf). */
function best<T>(values: (T | undefined)[], better: (a: T, b: T) => boolean): T | undefined {
  return values.reduce<T | undefined>((kept, value) => (value === undefined ? kept : kept === undefined || better(value, kept) ? value : kept), undefined)
}

/** allOf: what every member asks. */
function merge(key: string, shapes: Shape[], home: string | undefined, local: string): Shape {
  const properties = new Map<string, Slot[]>()
  for (const shape of shapes) for (const [name, slot] of shape.properties) properties.set(name, [...(properties.get(name) ?? []), slot])
  const enums = shapes.map((shape) => shape.enumValues).filter((values) => values !== undefined)
  const additionals = shapes.map((shape) => shape.additional)
  const schemas = additionals.flatMap((additional) => (typeof additional === 'object' ? [additional.schema] : []))
  const items = shapes.flatMap((shape) => (shape.items ? [shape.items] : []))
  return {
    key,
    home,
    local,
    types: shapes.reduce<ReadonlySet<JsonType> | undefined>((types, shape) => intersectTypes(types, shape.types), undefined),
    enumValues: enums.length === 0 ? undefined : enums.reduce((kept, values) => kept.filter((value) => values.some((other) => sameValue(value, other)))),
    format: shapes.find((shape) => shape.format !== undefined)?.format,
    minimum: best(shapes.map((shape) => shape.minimum), (a, b) => compareLower(a, b) > 0),
    maximum: best(shapes.map((shape) => shape.maximum), (a, b) => compareUpper(a, b) > 0),
    minLength: best(shapes.map((shape) => shape.minLength), (a, b) => a > b),
    maxLength: best(shapes.map((shape) => shape.maxLength), (a, b) => a < b),
    minItems: best(shapes.map((shape) => shape.minItems), (a, b) => a > b),
    maxItems: best(shapes.map((shape) => shape.maxItems), (a, b) => a < b),
    pattern: shapes.find((shape) => shape.pattern !== undefined)?.pattern,
    properties: new Map([...properties].map(([name, slots]) => [name, joinSlots('all', slots)])),
    required: new Set(shapes.flatMap((shape) => [...shape.required])),
    additional: additionals.includes('closed') ? 'closed' : schemas.length > 0 ? { schema: joinSlots('all', schemas) } : additionals.includes('open') ? 'open' : 'unspecified',
    items: items.length > 0 ? joinSlots('all', items) : undefined,
    readOnly: shapes.some((shape) => shape.readOnly),
    writeOnly: shapes.some((shape) => shape.writeOnly),
    alternatives: undefined,
  }
}

/** oneOf, anyOf: what any alternative allows (a property required only when every object alternative requires it). */
function envelope(key: string, shapes: Shape[], { home, local }: Place): Shape {
  const nullOnly = (shape: Shape) => shape.types !== undefined && [...shape.types].every((type) => type === 'null')
  const values = shapes.filter((shape) => !nullOnly(shape))
  const objects = shapes.filter((shape) => allowsType(shape.types, 'object'))
  const arrays = shapes.filter((shape) => allowsType(shape.types, 'array'))
  const every = <T>(pick: (shape: Shape) => T | undefined, wider: (a: T, b: T) => boolean): T | undefined => {
    const picked = values.map(pick)
    return picked.length > 0 && picked.every((value) => value !== undefined) ? best(picked, wider) : undefined
  }
  const same = <T>(pick: (shape: Shape) => T | undefined): T | undefined => {
    const picked = values.map(pick)
    return picked.length > 0 && picked.every((value) => value !== undefined && value === picked[0]) ? picked[0] : undefined
  }
  const properties = new Map<string, Slot[]>()
  for (const shape of objects) for (const [name, slot] of shape.properties) properties.set(name, [...(properties.get(name) ?? []), slot])
  const additionals = objects.map((shape) => shape.additional)
  const schemas = additionals.flatMap((additional) => (typeof additional === 'object' ? [additional.schema] : []))
  const enumValues = values.length > 0 && values.every((shape) => shape.enumValues !== undefined) ? values.flatMap((shape) => shape.enumValues ?? []) : undefined
  return {
    key,
    home,
    local,
    types: shapes.some((shape) => shape.types === undefined) ? undefined : new Set(shapes.flatMap((shape) => [...(shape.types ?? [])])),
    enumValues: enumValues?.filter((value, index) => enumValues.findIndex((other) => sameValue(value, other)) === index),
    format: same((shape) => shape.format),
    minimum: every((shape) => shape.minimum, (a, b) => compareLower(a, b) < 0),
    maximum: every((shape) => shape.maximum, (a, b) => compareUpper(a, b) < 0),
    minLength: every((shape) => shape.minLength, (a, b) => a < b),
    maxLength: every((shape) => shape.maxLength, (a, b) => a > b),
    minItems: every((shape) => shape.minItems, (a, b) => a < b),
    maxItems: every((shape) => shape.maxItems, (a, b) => a > b),
    pattern: same((shape) => shape.pattern),
    properties: new Map([...properties].map(([name, slots]) => [name, joinSlots('any', slots, { home, local: `${local}${propertyStep(name)}` })])),
    required: new Set(objects.length === 0 ? [] : [...(objects[0] as Shape).required].filter((name) => objects.every((shape) => shape.required.has(name)))),
    additional: additionals.includes('open') ? 'open' : schemas.length > 0 ? { schema: joinSlots('any', schemas, { home, local: `${local}.*` }) } : additionals.includes('unspecified') ? 'unspecified' : 'closed',
    items: arrays.length > 0 && arrays.every((shape) => shape.items !== undefined) ? joinSlots('any', arrays.flatMap((shape) => (shape.items ? [shape.items] : [])), { home, local: `${local}[]` }) : undefined,
    readOnly: shapes.every((shape) => shape.readOnly),
    writeOnly: shapes.every((shape) => shape.writeOnly),
    alternatives: undefined,
  }
}
