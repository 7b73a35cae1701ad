// fast-check arbitraries written from the contracts' JSON Schemas, for the fuzz (test/app/fuzz.test.ts,
// npm run fuzz): instances a schema accepts, and mutants of one that break exactly one of its
// constraints (a required property left out, a wrong type, a value outside an enum, a length, bound,
// format or pattern broken, too few or too many items, a duplicate, an unknown property where none is
// allowed). It covers the keywords contracts/ uses for request bodies and queries: $ref, allOf, anyOf,
// oneOf, if/then/else, const, enum, type, properties, required, additionalProperties, items, the
// length, bound, format and pattern keywords, minProperties and propertyNames. Anything it cannot
// make precise (a `not`, a conditional it guessed wrong) is settled by the contract's own validator:
// every instance is checked after it is made, so "valid" and "invalid" are the contract's word.
import fc from 'fast-check'
import type { ValidateFunction } from 'ajv'
import type { Contracts, JsonSchema } from '../../src/contracts/load.ts'
import { normalizeInput } from '../../src/contracts/request.ts'

/** A schema and the URI its relative $refs resolve against. */
export interface Located {
  schema: JsonSchema | boolean
  base: string
}

/**
 * A value filled in when the request is sent, because only the world it is sent to knows it: the
 * index-th id (or reference) of a pool of the caller's team (see test/support/fuzz/world.ts).
 */
export class PoolRef {
  constructor(
    readonly pool: string,
    readonly index: number,
    /** The JSON type the filled-in value has. */
    readonly type: 'integer' | 'string',
  ) {}

  toJSON(): string {
    return `<${this.pool}#${this.index}>`
  }

  [fc.toStringMethod](): string {
    return this.toJSON()
  }
}

/** Replaces every PoolRef in a value by what `fill` gives for it. */
export function fillPoolRefs(value: unknown, fill: (ref: PoolRef) => unknown): unknown {
  if (value instanceof PoolRef) return fill(value)
  if (Array.isArray(value)) return value.map((item) => fillPoolRefs(item, fill))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, fillPoolRefs(child, fill)]))
  return value
}

/** A stand-in for every PoolRef when a value is checked against its schema before it is sent. */
const STAND_IN = { integer: 1, string: '00000000-0000-4000-8000-000000000000' } as const
const withStandIns = (value: unknown) => fillPoolRefs(value, (ref) => STAND_IN[ref.type])

/**
 * Whether a value (PoolRefs standing for ids) passes a contract validator as the server reads it:
 * strings trimmed, blank ones null (Laravel's TrimStrings and ConvertEmptyStringsToNull).
 */
export function passes(validate: ValidateFunction, value: unknown): boolean {
  return validate(normalizeInput(withStandIns(value)))
}

/**
 * Arbitraries for some places in an instance instead of what the schema alone would give: ids that
 * exist in the caller's team, URLs that stay on this machine, small counts. `path` is the place's
 * property names from the root (array items as '*'); `fromSchema` makes what the schema would, for
 * a hint that only sometimes steps in.
 */
export type Hint = (path: readonly string[], fromSchema: () => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined

/** One way an instance breaks its schema: the instance, where, and what it breaks. */
export interface Mutant {
  value: unknown
  /** Dot path of the broken place ('' for the whole instance; undefined when it is not known). */
  at: string | undefined
  breaks: string
}

const REMOVE = Symbol('remove')

/** How deep an instance goes. */
const MAX_DEPTH = 12

/** What the conjuncts of a place say, read together. */
interface Facts {
  types: Set<string> | undefined
  choices: unknown[] | undefined
  properties: Map<string, Located[]>
  required: Set<string>
  forbidden: Set<string>
  additionalFalse: boolean
  additional: Located[]
  propertyNamePattern: string | undefined
  items: Located[]
  minItems: number
  maxItems: number | undefined
  uniqueItems: boolean
  minLength: number
  maxLength: number | undefined
  patterns: string[]
  format: string | undefined
  minimum: number | undefined
  maximum: number | undefined
  multipleOf: number | undefined
  minProperties: number
  alternatives: Located[][]
  conditionals: Array<{ if: Located; then: Located | undefined; else: Located | undefined }>
  impossible: boolean
}

const JSON_TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const

/** JSON Schema's type of a value ('integer' for whole numbers; a PoolRef has its filled-in type). */
export function jsonType(value: unknown): string {
  if (value instanceof PoolRef) return value.type
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

const typeAllows = (types: Set<string>, type: string) => types.has(type) || (type === 'integer' && types.has('number'))

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Strings a format accepts, kept short; the contract's validator has the last word. */
function formatArbitrary(format: string): fc.Arbitrary<string> {
  switch (format) {
    case 'email':
      return fc.oneof(
        fc.emailAddress({ size: 'xsmall' }),
        fc.tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,10}[a-z0-9]$/), fc.constantFrom('example.com', 'example.co.uk', 'com')).map(([local, domain]) => `${local}@${domain}`),
      )
    case 'uuid':
      return fc.uuid()
    case 'date':
      return fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))
    case 'date-time':
      return fc
        .tuple(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), fc.constantFrom('Z', '+00:00', '+02:00', '-05:30'))
        .map(([date, zone]) => `${date.toISOString().slice(0, 19)}${zone}`)
    case 'uri':
      return fc.webUrl({ size: 'xsmall' })
    default:
      return fc.string({ maxLength: 12 })
  }
}

/** A string a format refuses (and that trimming leaves non-blank). */
const BAD_FORMAT: Record<string, string> = {
  email: 'not-an-email',
  uuid: 'not-a-uuid',
  date: '2026-02-30',
  'date-time': 'yesterday at noon',
  uri: 'not a url',
}

const texts = new Map<string, fc.Arbitrary<string>>()

/** Text of any kind: mostly plain, sometimes any code point, sometimes a lone UTF-16 surrogate. */
function textArbitrary(minLength: number, maxLength: number | undefined): fc.Arbitrary<string> {
  const key = `${minLength}:${maxLength}`
  const known = texts.get(key)
  if (known) return known
  const max = Math.min(maxLength ?? 64, minLength + 24)
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { weight: 18, arbitrary: fc.string({ minLength, maxLength: max, unit: 'grapheme-ascii' }) },
    { weight: 6, arbitrary: fc.string({ minLength, maxLength: max, unit: 'binary' }) },
    { weight: 3, arbitrary: fc.constantFrom('\ud800', 'a\udc00b', 'O\u2019Brien', ' padded ', 'é'.normalize('NFD'), '%00', '../../etc/passwd', '<script>') },
  ]
  if (maxLength !== undefined && maxLength <= 5000) choices.push({ weight: 1, arbitrary: fc.constant('x'.repeat(maxLength)) })
  if (minLength > 0) choices.push({ weight: 1, arbitrary: fc.constant('x'.repeat(minLength)) })
  const text = fc.oneof(...choices)
  texts.set(key, text)
  return text
}

export class SchemaArbitraries {
  private readonly documents = new Map<string, JsonSchema>()

  constructor(
    contracts: Contracts,
    private readonly hint: Hint = () => undefined,
  ) {
    for (const schema of contracts.schemas.values()) this.documents.set(schema.$id as string, schema)
  }

  /** The schema a $ref names, relative to base. */
  resolve(ref: string, base: string): Located {
    const url = new URL(ref, base)
    const document = url.href.replace(/#.*$/, '')
    let node: unknown = this.documents.get(document)
    if (node === undefined) throw new Error(`schema-arbitrary: no schema ${document}`)
    for (const part of decodeURIComponent(url.hash.slice(1)).split('/').slice(1)) {
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    }
    if (node === undefined) throw new Error(`schema-arbitrary: nothing at ${url.href}`)
    return { schema: node as JsonSchema | boolean, base: document }
  }

  /** A schema as the conjuncts it means: itself, what its $ref names and its allOf, flattened. */
  conjuncts(node: Located): Located[] {
    if (typeof node.schema === 'boolean') return [node]
    const { $ref, allOf, ...rest } = node.schema as JsonSchema & { $ref?: string; allOf?: JsonSchema[] }
    const out: Located[] = [{ schema: rest, base: node.base }]
    if ($ref !== undefined) out.push(...this.conjuncts(this.resolve($ref, node.base)))
    for (const sub of allOf ?? []) out.push(...this.conjuncts({ schema: sub, base: node.base }))
    return out
  }

  private facts(parts: readonly Located[]): Facts {
    const facts: Facts = {
      types: undefined,
      choices: undefined,
      properties: new Map(),
      required: new Set(),
      forbidden: new Set(),
      additionalFalse: false,
      additional: [],
      propertyNamePattern: undefined,
      items: [],
      minItems: 0,
      maxItems: undefined,
      uniqueItems: false,
      minLength: 0,
      maxLength: undefined,
      patterns: [],
      format: undefined,
      minimum: undefined,
      maximum: undefined,
      multipleOf: undefined,
      minProperties: 0,
      alternatives: [],
      conditionals: [],
      impossible: false,
    }
    const narrowChoices = (values: unknown[]) => {
      facts.choices = facts.choices === undefined ? values : facts.choices.filter((choice) => values.some((value) => same(value, choice)))
    }
    for (const { schema, base } of parts) {
      if (schema === false) facts.impossible = true
      if (typeof schema === 'boolean') continue
      const s = schema as Record<string, any>
      if (s.type !== undefined) {
        const types = new Set<string>(Array.isArray(s.type) ? s.type : [s.type])
        facts.types = facts.types === undefined ? types : new Set([...facts.types].filter((type) => typeAllows(types, type)))
      }
      if ('const' in s) narrowChoices([s.const])
      if (Array.isArray(s.enum)) narrowChoices(s.enum)
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema | boolean>)) {
        if (property === false) facts.forbidden.add(name)
        const list = facts.properties.get(name) ?? []
        list.push(...this.conjuncts({ schema: property, base }))
        facts.properties.set(name, list)
      }
      for (const name of (s.required ?? []) as string[]) facts.required.add(name)
      if (s.additionalProperties === false) facts.additionalFalse = true
      else if (typeof s.additionalProperties === 'object') facts.additional.push(...this.conjuncts({ schema: s.additionalProperties, base }))
      if (typeof s.propertyNames?.pattern === 'string') facts.propertyNamePattern = s.propertyNames.pattern
      if (s.items !== undefined) facts.items.push(...this.conjuncts({ schema: s.items, base }))
      if (typeof s.minItems === 'number') facts.minItems = Math.max(facts.minItems, s.minItems)
      if (typeof s.maxItems === 'number') facts.maxItems = Math.min(facts.maxItems ?? Infinity, s.maxItems)
      if (s.uniqueItems === true) facts.uniqueItems = true
      if (typeof s.minLength === 'number') facts.minLength = Math.max(facts.minLength, s.minLength)
      if (typeof s.maxLength === 'number') facts.maxLength = Math.min(facts.maxLength ?? Infinity, s.maxLength)
      if (typeof s.pattern === 'string') facts.patterns.push(s.pattern)
      if (typeof s.format === 'string') facts.format = s.format
      if (typeof s.minimum === 'number') facts.minimum = Math.max(facts.minimum ?? -Infinity, s.minimum)
      if (typeof s.maximum === 'number') facts.maximum = Math.min(facts.maximum ?? Infinity, s.maximum)
      if (typeof s.multipleOf === 'number') facts.multipleOf = s.multipleOf
      if (typeof s.minProperties === 'number') facts.minProperties = Math.max(facts.minProperties, s.minProperties)
      for (const key of ['anyOf', 'oneOf']) {
        if (Array.isArray(s[key])) facts.alternatives.push((s[key] as JsonSchema[]).map((alternative) => ({ schema: alternative, base })))
      }
      if (s.if !== undefined) {
        facts.conditionals.push({
          if: { schema: s.if, base },
          then: s.then === undefined ? undefined : { schema: s.then, base },
          else: s.else === undefined ? undefined : { schema: s.else, base },
        })
      }
    }
    if (facts.choices?.length === 0 || facts.types?.size === 0) facts.impossible = true
    return facts
  }

  /**
   * Instances the schema means to accept: nearly all are valid, but a guess the generator cannot
   * make precise (a `not`, a conditional) may not be, so whoever sends one asks `passes` (the
   * contract's own validator) rather than trusting it. Never filtered: a filter that rejects
   * everything would spin for ever.
   */
  valid(node: Located): fc.Arbitrary<unknown> {
    return this.value(this.conjuncts(node), [])
  }

  /**
   * Mutants of instances, each breaking one constraint of the schema (checked with `validate`);
   * `at` is undefined when the instance it came from was not valid to begin with.
   */
  invalid(node: Located, validate: ValidateFunction): fc.Arbitrary<Mutant> {
    return this.valid(node).map((value) => {
      if (!passes(validate, value)) return [{ value, at: undefined, breaks: 'the generator missed a constraint' }]
      return this.mutants(node, value).filter((mutant) => !passes(validate, mutant.value))
    }).chain((mutants) => (mutants.length > 0 ? fc.constantFrom(...mutants) : fc.constant({ value: [], at: '', breaks: 'the type of the whole body' })))
  }

  /** Whether a value matches a schema, for the keywords an `if` uses (anything else counts as a match). */
  matches(node: Located, value: unknown): boolean {
    return this.conjuncts(node).every(({ schema, base }) => {
      if (typeof schema === 'boolean') return schema
      const s = schema as Record<string, any>
      if ('const' in s && !same(s.const, value)) return false
      if (Array.isArray(s.enum) && !s.enum.some((choice: unknown) => same(choice, value))) return false
      if (s.type !== undefined && !typeAllows(new Set(Array.isArray(s.type) ? s.type : [s.type]), jsonType(value))) return false
      const isObject = jsonType(value) === 'object'
      if (isObject && ((s.required ?? []) as string[]).some((name) => !(name in (value as object)))) return false
      if (isObject) {
        for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) {
          const child = (value as Record<string, unknown>)[name]
          if (child !== undefined && !this.matches({ schema: property, base }, child)) return false
        }
      }
      for (const key of ['anyOf', 'oneOf']) {
        if (Array.isArray(s[key]) && !(s[key] as JsonSchema[]).some((alternative) => this.matches({ schema: alternative, base }, value))) return false
      }
      return true
    })
  }

  private value(parts: readonly Located[], path: readonly string[]): fc.Arbitrary<unknown> {
    const hinted = this.hint(path, () => this.fromSchema(parts, path))
    return hinted ?? this.fromSchema(parts, path)
  }

  private fromSchema(parts: readonly Located[], path: readonly string[]): fc.Arbitrary<unknown> {
    // Recursive schemas (rich text) end here; the few instances that reach so deep are refused by the validator.
    if (path.length > MAX_DEPTH) return fc.constant(null)
    const facts = this.facts(parts)
    const owner = parts.findIndex((part) => typeof part.schema === 'object' && (Array.isArray(part.schema.anyOf) || Array.isArray(part.schema.oneOf)))
    const ownerPart = parts[owner]
    if (ownerPart && typeof ownerPart.schema === 'object') {
      // Take the first anyOf/oneOf apart: one branch per alternative, the rest of the place kept.
      const key = Array.isArray(ownerPart.schema.anyOf) ? 'anyOf' : 'oneOf'
      const { [key]: alternatives, ...rest } = ownerPart.schema as Record<string, JsonSchema[]>
      const remaining = parts.with(owner, { schema: rest, base: ownerPart.base })
      const branches = (alternatives ?? []).map((alternative) => [...remaining, ...this.conjuncts({ schema: alternative, base: ownerPart.base })]).filter((branch) => !this.facts(branch).impossible)
      if (branches.length === 0) return fc.constant(null)
      return fc.oneof(...branches.map((branch) => this.value(branch, path)))
    }
    if (facts.choices !== undefined) return facts.choices.length > 0 ? fc.constantFrom(...facts.choices) : fc.constant(null)
    const types = [...(facts.types ?? inferTypes(facts))]
    if (types.length === 0) return fc.jsonValue({ maxDepth: 2 })
    return fc.oneof(...types.map((type) => ({ weight: type === 'null' ? 1 : 4, arbitrary: this.ofType(type, facts, parts, path) })))
  }

  private ofType(type: string, facts: Facts, parts: readonly Located[], path: readonly string[]): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null)
      case 'boolean':
        return fc.boolean()
      case 'integer':
      case 'number':
        return integerArbitrary(facts)
      case 'string':
        return stringArbitrary(facts)
      case 'array':
        return this.arrayArbitrary(facts, path)
      case 'object':
        return this.objectArbitrary(facts, parts, path)
      default:
        throw new Error(`schema-arbitrary: unknown type ${type}`)
    }
  }

  private arrayArbitrary(facts: Facts, path: readonly string[]): fc.Arbitrary<unknown[]> {
    const item = facts.items.length > 0 ? this.value(facts.items, [...path, '*']) : fc.jsonValue({ maxDepth: 1 })
    const constraints = { minLength: facts.minItems, maxLength: Math.min(facts.maxItems ?? Infinity, facts.minItems + 3) }
    return facts.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (value) => JSON.stringify(value) }) : fc.array(item, constraints)
  }

  private objectArbitrary(facts: Facts, parts: readonly Located[], path: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
    const names = [...new Set([...facts.properties.keys(), ...facts.required])].filter((name) => !facts.forbidden.has(name))
    const model = Object.fromEntries(names.map((name) => [name, this.value(facts.properties.get(name) ?? [], [...path, name])]))
    const requiredKeys = names.filter((name) => facts.required.has(name))
    let object: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys })
    if (facts.additional.length > 0) {
      const key = facts.propertyNamePattern ? fc.stringMatching(new RegExp(facts.propertyNamePattern)) : fc.string({ minLength: 1, maxLength: 8 })
      const extra = fc.dictionary(key, this.value(facts.additional, [...path, '*']), { maxKeys: 3 })
      object = fc.tuple(object, extra).map(([known, more]) => ({ ...more, ...known }))
    } else if (!facts.additionalFalse) {
      // Properties the contract does not name are ignored by the service: send one now and then.
      object = fc.tuple(object, fc.option(fc.jsonValue({ maxDepth: 1 }), { freq: 8 })).map(([known, extra]) => (extra === null ? known : { ...known, zz_unknown_field: extra }))
    }
    if (facts.conditionals.length === 0) return object
    // Conditionals: make the object, see which `if`s it meets, then make it again under their
    // `then`s (or the `else`s of those it does not meet) with the properties the `if`s read kept.
    const unconditional = parts.map((part) => (typeof part.schema === 'object' ? withoutConditional(part) : part))
    return object.chain((first) => {
      const extra: Located[] = []
      const read = new Set<string>()
      for (const conditional of facts.conditionals) {
        for (const name of readBy(conditional.if)) read.add(name)
        const branch = this.matches(conditional.if, first) ? conditional.then : conditional.else
        if (branch) extra.push(...this.conjuncts(branch))
      }
      if (extra.length === 0) return fc.constant(first)
      const pins: Located[] = [...read].map((name) => ({
        schema: name in first ? { properties: { [name]: { const: first[name] } }, required: [name] } : { properties: { [name]: false } },
        base: parts[0]?.base ?? '',
      }))
      const again = this.facts([...unconditional, ...extra, ...pins])
      return again.impossible ? fc.constant(first) : this.objectArbitrary({ ...again, conditionals: [] }, [...unconditional, ...extra, ...pins], path)
    })
  }

  /** Every single-constraint mutant of an instance (before the validator weeds out those still valid). */
  mutants(node: Located, value: unknown): Mutant[] {
    const out: Mutant[] = []
    this.collect(this.conjuncts(node), value, [], false, out, (mutated) => mutated)
    return out
  }

  /** Everything a place's conjuncts could mean: its own, its alternatives' and its branches'. */
  private widened(parts: readonly Located[]): Located[] {
    const facts = this.facts(parts)
    const more = [
      ...facts.alternatives.flat().flatMap((alternative) => this.conjuncts(alternative)),
      ...facts.conditionals.flatMap((conditional) => [conditional.then, conditional.else].filter((branch) => branch !== undefined).flatMap((branch) => this.conjuncts(branch))),
    ]
    return more.length === 0 ? [...parts] : this.widened([...parts.map((part) => (typeof part.schema === 'object' ? withoutConditional(withoutAlternatives(part)) : part)), ...more])
  }

  private collect(parts: readonly Located[], value: unknown, path: string[], required: boolean, out: Mutant[], rebuild: (replacement: unknown) => unknown): void {
    const facts = this.facts(this.widened(parts))
    const at = path.join('.')
    const add = (replacement: unknown, breaks: string) => out.push({ value: rebuild(replacement), at, breaks })
    if (required) add(REMOVE, 'required')
    const types = facts.types ?? inferTypes(facts)
    const wrong = [{ zz: 1 }, ['zz'], 'zz-text', 12345, true, 1.5, null].find((candidate) => !typeAllows(types, jsonType(candidate)) && !(candidate === null && types.has('null')))
    if (wrong !== undefined && types.size > 0) add(wrong, 'type')
    if (facts.choices !== undefined) add('zz-not-one-of-them', 'enum')
    const type = jsonType(value)
    if (type === 'string') {
      const text = value instanceof PoolRef ? STAND_IN.string : (value as string)
      if (facts.maxLength !== undefined && facts.maxLength < 10_000) add('x'.repeat(facts.maxLength + 1), 'maxLength')
      if (facts.minLength > 1) add('x'.repeat(facts.minLength - 1), 'minLength')
      if (facts.minLength === 1 || facts.patterns.length > 0) add('   ', 'blank')
      if (facts.format !== undefined) add(BAD_FORMAT[facts.format] ?? 'zz bad format', 'format')
      if (facts.patterns.length > 0) add(`ftp://${text.replace(/^\w+:\/\//, '') || 'x'}`, 'pattern')
    }
    if (type === 'integer' || type === 'number') {
      const number = value instanceof PoolRef ? STAND_IN.integer : (value as number)
      if (facts.minimum !== undefined) add(facts.minimum - 1, 'minimum')
      if (facts.maximum !== undefined) add(facts.maximum + 1, 'maximum')
      if (facts.multipleOf !== undefined && facts.multipleOf > 1) add(number + 1, 'multipleOf')
      if (!types.has('number')) add(number + 0.5, 'integer')
    }
    if (Array.isArray(value)) {
      if (facts.minItems > 0) add([], 'minItems')
      if (facts.maxItems !== undefined && value.length > 0) add(Array.from({ length: facts.maxItems + 1 }, () => value[0]), 'maxItems')
      if (facts.uniqueItems && value.length > 0) add([...value, value[0]], 'uniqueItems')
      value.slice(0, 2).forEach((item, index) => {
        this.collect(facts.items, item, [...path, String(index)], false, out, (replacement) => rebuild(value.map((old, i) => (i === index ? replacement : old)).filter((kept) => kept !== REMOVE)))
      })
    }
    if (type === 'object') {
      const object = value as Record<string, unknown>
      if (facts.minProperties > 0) add({}, 'minProperties')
      if (facts.additionalFalse) add({ ...object, zz_not_allowed: 1 }, 'additionalProperties')
      for (const [name, child] of Object.entries(object)) {
        const childParts = facts.properties.get(name) ?? (facts.additional.length > 0 ? facts.additional : undefined)
        if (!childParts) continue
        this.collect(childParts, child, [...path, name], facts.required.has(name), out, (replacement) => {
          const copy = { ...object }
          if (replacement === REMOVE) delete copy[name]
          else copy[name] = replacement
          return rebuild(copy)
        })
      }
    }
  }
}

function withoutAlternatives(part: Located): Located {
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = part.schema as JsonSchema
  return { schema: rest, base: part.base }
}

function withoutConditional(part: Located): Located {
  const { if: _if, then: _then, else: _else, ...rest } = part.schema as JsonSchema
  return { schema: rest, base: part.base }
}

/** The property names an `if` reads (its required ones and those it constrains). */
function readBy(node: Located): string[] {
  if (typeof node.schema === 'boolean') return []
  const schema = node.schema as { required?: string[]; properties?: Record<string, unknown> }
  return [...new Set([...(schema.required ?? []), ...Object.keys(schema.properties ?? {})])]
}

/** The types a place without `type` can have, from its other keywords. */
function inferTypes(facts: Facts): Set<string> {
  if (facts.properties.size > 0 || facts.required.size > 0 || facts.additional.length > 0 || facts.minProperties > 0) return new Set(['object'])
  if (facts.items.length > 0 || facts.minItems > 0) return new Set(['array'])
  if (facts.format !== undefined || facts.patterns.length > 0 || facts.maxLength !== undefined) return new Set(['string'])
  if (facts.minimum !== undefined || facts.maximum !== undefined) return new Set(['integer'])
  return new Set(JSON_TYPES.filter((type) => type !== 'number'))
}

function integerArbitrary(facts: Facts): fc.Arbitrary<number> {
  const min = facts.minimum ?? -(2 ** 31)
  const max = facts.maximum ?? 2 ** 31
  const step = facts.multipleOf ?? 1
  const low = Math.ceil(min / step)
  const high = Math.floor(max / step)
  return fc.oneof(fc.integer({ min: low, max: Math.min(high, low + 20) }), fc.integer({ min: low, max: high })).map((k) => k * step)
}

function stringArbitrary(facts: Facts): fc.Arbitrary<string> {
  const fits = (text: string) => [...text].length >= facts.minLength && (facts.maxLength === undefined || [...text].length <= facts.maxLength)
  if (facts.format !== undefined) return formatArbitrary(facts.format).filter(fits)
  const [pattern] = facts.patterns
  const text = textArbitrary(facts.minLength, facts.maxLength)
  if (pattern === undefined) return text
  const regex = new RegExp(pattern, 'u')
  // A pattern of one character class (a non-blank string) is met by most text; others are made from the pattern.
  return /^\[[^\]]*\]$/.test(pattern) ? text.filter((candidate) => regex.test(candidate)) : fc.stringMatching(new RegExp(pattern)).filter(fits)
}
