// How a request's query string and JSON body read against an operation's contract, as Laravel's
// middleware and rules read them. Shared by the mock's gate (kernel/validate.ts) and the harness, which checks requests
// it sees on the wire against the same contracts.

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

/**
 * A query string value as the contract's type wants it, as strictly as Laravel's rules read it:
 * integers only from plain digits (not 1e1 or 0x10) within PHP's 64-bit range (beyond 2^53 they
 * lose precision, which only matters past any real page or id), booleans from true/false/1/0.
 * Anything else stays a string for the validator to reject with the right message.
 */
function coerce(value: string, types: readonly string[]): unknown {
  if (types.includes('integer') && /^[+-]?\d+$/.test(value)) {
    const integer = BigInt(value)
    if (integer >= PHP_INT_MIN && integer <= PHP_INT_MAX) return Number(integer)
  }
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
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, normalizeInput(child)]))
  }
  return value
}
