// How a request's query string and JSON body read against an operation's contract, as Laravel's
// middleware and rules read them. Shared by the mock's gate (kernel/validate.ts) and the harness, which checks requests
// it sees on the wire against the same contracts.
import type { ErrorObject, ValidateFunction } from 'ajv'

export type Query = Record<string, unknown>

/**
 * What Laravel's TrimStrings middleware strips from both ends: Unicode whitespace (its pattern's
 * \s under PCRE's Unicode mode, which also covers NEL) and zero-width spaces. JavaScript's \s
 * covers the rest, the no-break space and the byte-order mark included.
 */
const TRIMMED_ENDS = /^[\s\u0085\u200B]+|[\s\u0085\u200B]+$/g

export function trim(value: string): string {
  return value.replace(TRIMMED_ENDS, '')
}

type ParamSchema = { type?: unknown; items?: { type?: unknown } }

/** The JSON types each query parameter's value may take (items' types for arrays). */
export interface QueryShape {
  arrays: ReadonlySet<string>
  types: ReadonlyMap<string, readonly string[]>
}

const typesOf = (schema: ParamSchema | undefined): string[] =>
  schema?.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]

/** The shape of a query from its JSON Schema (see Contracts.querySchema). */
export function queryShapeOf(schema: { properties?: Record<string, ParamSchema> }): QueryShape {
  const entries = Object.entries(schema.properties ?? {})
  return {
    arrays: new Set(entries.filter(([, s]) => s.type === 'array').map(([name]) => name)),
    types: new Map(entries.map(([name, s]) => [name, typesOf(s.type === 'array' ? s.items : s)])),
  }
}

/** PHP's integer range: Laravel's integer rule accepts exactly the values filter_var reads as an int. */
const PHP_INT_MIN = -(2n ** 63n)
const PHP_INT_MAX = 2n ** 63n - 1n

/** A string Laravel's integer rule accepts (filter_var's int: digits with an optional sign, within PHP's range), as a number. */
function integerOf(value: string): number | undefined {
  if (!/^[+-]?\d+$/.test(value)) return undefined
  const integer = BigInt(value)
  return integer >= PHP_INT_MIN && integer <= PHP_INT_MAX ? Number(integer) : undefined
}

/**
 * A query string value as the contract's type wants it, as strictly as Laravel's rules read it:
 * integers only from plain digits (not 1e1 or 0x10) within PHP's 64-bit range (beyond 2^53 they
 * lose precision, which only matters past any real page or id), booleans from true/false/1/0.
 * Anything else stays a string for the validator to reject with the right message.
 */
function coerce(value: string, types: readonly string[]): unknown {
  const integer = types.includes('integer') ? integerOf(value) : undefined
  if (integer !== undefined) return integer
  if (types.includes('boolean')) {
    if (value === 'true' || value === '1') return true
    if (value === 'false' || value === '0') return false
  }
  return value
}

/**
 * Query string -> the object the query validator checks: repeated and comma-separated values
 * for array parameters (expand=a,b or expand=a&expand=b or expand[]=a), the last value for the
 * others, values trimmed and empty ones treated as absent (as Laravel's TrimStrings and
 * ConvertEmptyStringsToNull do).
 */
export function readQuery(params: URLSearchParams, shape: QueryShape): Query {
  const query: Query = {}
  for (const [rawName, rawValue] of params) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
    const value = trim(rawValue)
    if (value === '') continue
    const types = shape.types.get(name) ?? []
    if (shape.arrays.has(name)) {
      const values = value.split(',').map((v) => v.trim()).filter(Boolean).map((v) => coerce(v, types))
      query[name] = [...((query[name] as unknown[] | undefined) ?? []), ...values]
    } else {
      query[name] = coerce(value, types)
    }
  }
  return query
}

/**
 * Laravel's TrimStrings and ConvertEmptyStringsToNull, which the real service's input goes
 * through before validation: strings are trimmed, and blank ones become null.
 */
export function normalizeInput(value: unknown): unknown {
  if (typeof value === 'string') {
    const trimmed = trim(value)
    return trimmed === '' ? null : trimmed
  }
  if (Array.isArray(value)) return value.map(normalizeInput)
  if (value !== null && typeof value === 'object') {
    // A loop over the keys: entries, a mapped copy and fromEntries made three arrays per object of every body.
    const normalized: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      const child = normalizeInput((value as Record<string, unknown>)[key])
      // A key "__proto__" (JSON.parse makes it an own property) stays one, as fromEntries kept it.
      if (key === '__proto__') Object.defineProperty(normalized, key, { value: child, enumerable: true, writable: true, configurable: true })
      else normalized[key] = child
    }
    return normalized
  }
  return value
}

/** Laravel's boolean rule: true, false, 1, 0, "1" and "0", nothing else (not "true"). */
const BOOLEANS = new Map<unknown, boolean>([
  [1, true],
  [0, false],
  ['1', true],
  ['0', false],
])

/** A JSON value as Laravel's integer or boolean rule reads it, when the schema wants one of those and the value is not one. */
function coerceBodyValue(value: unknown, types: readonly string[]): unknown {
  if (typeof value === 'string' && types.includes('integer')) {
    const integer = integerOf(value)
    if (integer !== undefined) return integer
  }
  if (types.includes('boolean') && BOOLEANS.has(value)) return BOOLEANS.get(value)
  return value
}

/** The object or array holding the value at a JSON pointer, and the value's key in it (undefined for the root). */
function holderOf(data: unknown, instancePath: string): [Record<string, unknown>, string] | undefined {
  if (instancePath === '') return undefined
  const keys = instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  const last = keys.pop() as string
  let holder = data
  for (const key of keys) holder = (holder as Record<string, unknown>)[key]
  return [holder as Record<string, unknown>, last]
}

const typeErrorTypes = (error: ErrorObject): string[] => {
  const type = (error.params as { type: string | string[] }).type
  return (Array.isArray(type) ? type : [type]).filter((name) => name !== 'null')
}

/** JSON Schema's name for a value's type ('integer' for whole numbers). */
const jsonType = (value: unknown): string =>
  typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value

/** The validator's type errors, those a contract's own message (ajv-errors' errorMessage) stands for included. */
function typeErrors(errors: ErrorObject[] | null | undefined): ErrorObject[] {
  return (errors ?? []).flatMap((error) =>
    error.keyword === 'errorMessage' ? typeErrors((error.params as { errors?: ErrorObject[] }).errors) : error.keyword === 'type' ? [error] : [],
  )
}

/**
 * Validates a normalised JSON body (normalizeInput) as Laravel's rules read it, which is looser
 * than JSON Schema on two types (docs/behaviour-notes.md "Validation (422)"): where the schema wants an integer, a
 * string of digits with an optional sign is one; where it wants a boolean, 1, 0, "1" and "0"
 * are. The schema itself guides it, $refs, combinators and if/then included: a value is coerced
 * only where the validator reports it as the wrong type and wants an integer or a boolean there,
 * and the coercion is kept only when no other part of the schema then finds the new value of the
 * wrong type (so "157" stays a string where a branch takes strings, and is not forced into an
 * integer branch of a oneOf it does not belong to). The body is changed in place, so the values
 * stored and returned are of the contract's types. Returns whether the body is valid; the
 * validator's errors are those of the last run.
 */
export function validateBody(validate: ValidateFunction, body: unknown): boolean {
  const tried = new Set<string>()
  const originals = new Map<string, unknown>()
  // Each run undoes or coerces a value it never touched that way before, or stops: bounded by twice the body's values.
  for (;;) {
    if (validate(body)) return true
    let changed = false
    for (const error of typeErrors(validate.errors)) {
      const place = holderOf(body, error.instancePath)
      if (!place) continue
      const [holder, key] = place
      const value = holder[key]
      const types = typeErrorTypes(error)
      if (originals.has(error.instancePath)) {
        // A coerced value some part of the schema finds of the wrong type did not belong there: undone.
        if (types.length === 0 || types.includes(jsonType(value)) || (types.includes('number') && typeof value === 'number')) continue
        holder[key] = originals.get(error.instancePath)
        originals.delete(error.instancePath)
        changed = true
        continue
      }
      if (tried.has(error.instancePath)) continue
      const next = coerceBodyValue(value, types)
      if (next === value) continue
      tried.add(error.instancePath)
      originals.set(error.instancePath, value)
      holder[key] = next
      changed = true
    }
    if (!changed) return false
  }
}
