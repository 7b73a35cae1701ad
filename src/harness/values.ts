// Variables and matchers of the scenario format: {{name}} interpolation, dot paths into JSON, and
// the matchers of `expect` (contracts/scenario.schema.json#/$defs/matcher).
import { isDeepStrictEqual } from 'node:util'
import type { Matcher, MatcherObject } from '../contracts/scenario.generated.ts'

/** A step used a variable that no earlier step or built-in defines. */
export class VariableError extends Error {
  constructor(readonly variable: string) {
    super(`unknown variable {{${variable}}}`)
  }
}

export type Variables = Record<string, unknown>

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/
const ANY = /\{\{\s*([\w.-]+)\s*\}\}/g

/**
 * The value at a dot path (data.0.id) of a JSON value; `$` or '' is the value itself. Keys may hold
 * dots themselves (a 422's "name.first_name"): at each level the longest key that fits wins.
 */
export function valueAt(value: unknown, path: string): { found: boolean; value: unknown } {
  if (path === '$' || path === '') return { found: value !== undefined, value }
  const parts = path.split('.')
  let current = value
  let index = 0
  while (index < parts.length) {
    if (typeof current !== 'object' || current === null) return { found: false, value: undefined }
    let length = parts.length - index
    while (length > 0 && !Object.hasOwn(current, parts.slice(index, index + length).join('.'))) length--
    if (length === 0) return { found: false, value: undefined }
    current = (current as Record<string, unknown>)[parts.slice(index, index + length).join('.')]
    index += length
  }
  return { found: true, value: current }
}

function variable(name: string, variables: Variables): unknown {
  // Variable names themselves may hold dots (run.id, users.read-only.id): the longest defined prefix wins.
  const parts = name.split('.')
  for (let length = parts.length; length > 0; length--) {
    const head = parts.slice(0, length).join('.')
    if (Object.hasOwn(variables, head)) {
      const found = valueAt(variables[head], parts.slice(length).join('.'))
      if (found.found) return found.value
    }
  }
  throw new VariableError(name)
}

/** Replaces {{name}} in every string of a JSON value; a string that is exactly one {{name}} becomes the variable's value. */
export function interpolate(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value)
    if (whole) return variable(whole[1] as string, variables)
    return value.replace(ANY, (_, name: string) => {
      const found = variable(name, variables)
      return typeof found === 'string' ? found : JSON.stringify(found)
    })
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, variables))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, variables)]))
  }
  return value
}

/** A short JSON excerpt of a value for messages. */
export function excerpt(value: unknown, max = 200): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function isType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value)
  return jsonType(value) === type
}

/** Objects: each expected key holds its value recursively; arrays: item by item; anything else: equality. */
export function isSubset(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length <= actual.length && expected.every((item, index) => isSubset(actual[index], item))
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    return Object.entries(expected).every(([key, item]) => Object.hasOwn(actual, key) && isSubset((actual as Record<string, unknown>)[key], item))
  }
  return isDeepStrictEqual(actual, expected)
}

function sizeOf(value: unknown): number | undefined {
  if (Array.isArray(value) || typeof value === 'string') return value.length
  if (typeof value === 'object' && value !== null) return Object.keys(value).length
  return undefined
}

const isMatcherObject = (matcher: Matcher): matcher is MatcherObject => typeof matcher === 'object' && matcher !== null && !Array.isArray(matcher)

/**
 * Why a value (found or not at its path) does not match, or undefined when it does. Every keyword of
 * a matcher object must hold; the first that does not is named.
 */
export function mismatch(actual: { found: boolean; value: unknown }, matcher: Matcher): string | undefined {
  const got = actual.found ? excerpt(actual.value) : 'nothing (absent)'
  if (!isMatcherObject(matcher)) {
    return actual.found && isDeepStrictEqual(actual.value, matcher) ? undefined : `expected ${excerpt(matcher)}, got ${got}`
  }
  const value = actual.value
  for (const [keyword, expected] of Object.entries(matcher) as [keyof MatcherObject, unknown][]) {
    if (keyword === 'absent') {
      if (expected === true && actual.found) return `expected absent, got ${got}`
      if (expected === false && !actual.found) return 'expected present, got nothing (absent)'
      continue
    }
    if (keyword === 'not') {
      if (mismatch(actual, expected as Matcher) === undefined) return `expected not ${excerpt(expected)}, got ${got}`
      continue
    }
    if (!actual.found) return `expected ${keyword} ${typeof expected === 'string' ? expected : excerpt(expected)}, got nothing (absent)`
    const problem = keywordMismatch(keyword, expected, value)
    if (problem) return `${problem}, got ${got}`
  }
  return undefined
}

function keywordMismatch(keyword: keyof MatcherObject, expected: unknown, value: unknown): string | undefined {
  switch (keyword) {
    case 'equals':
      return isDeepStrictEqual(value, expected) ? undefined : `expected ${excerpt(expected)}`
    case 'subset':
      return isSubset(value, expected) ? undefined : `expected a superset of ${excerpt(expected)}`
    case 'contains':
      return Array.isArray(value) && value.some((item) => isSubset(item, expected)) ? undefined : `expected an array containing ${excerpt(expected)}`
    case 'oneOf':
      return (expected as unknown[]).some((option) => isDeepStrictEqual(value, option)) ? undefined : `expected one of ${excerpt(expected)}`
    case 'type': {
      const types = Array.isArray(expected) ? (expected as string[]) : [expected as string]
      return types.some((type) => isType(value, type)) ? undefined : `expected type ${types.join(' or ')}`
    }
    case 'pattern':
      return typeof value === 'string' && new RegExp(expected as string).test(value) ? undefined : `expected a string matching /${expected as string}/`
    case 'length': {
      const size = sizeOf(value)
      const { min, max } = typeof expected === 'number' ? { min: expected, max: expected } : (expected as { min?: number; max?: number })
      const fits = size !== undefined && (min === undefined || size >= min) && (max === undefined || size <= max)
      const wanted = min === max ? `${min}` : [min !== undefined && `at least ${min}`, max !== undefined && `at most ${max}`].filter(Boolean).join(' and ')
      return fits ? undefined : `expected length ${wanted} (length ${size ?? 'none'})`
    }
    case 'gte':
      return typeof value === 'number' && value >= (expected as number) ? undefined : `expected a number >= ${expected as number}`
    case 'lte':
      return typeof value === 'number' && value <= (expected as number) ? undefined : `expected a number <= ${expected as number}`
    default:
      return `unknown matcher ${String(keyword)}`
  }
}
