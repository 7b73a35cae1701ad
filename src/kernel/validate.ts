// Request validation against the contracts: query strings and JSON bodies become typed values
// or a 422 keyed by dot path with Laravel-style messages (FACTS.md "Status codes and bodies").
import type { ErrorObject, ValidateFunction } from 'ajv'
import { dotPath } from '../contracts/load.ts'
import { invalid, invalidBody, type ValidationErrors } from './errors.ts'

export type Query = Record<string, unknown>

/** 'name.first_name' -> 'first name'; 'steps.0.type' -> 'type'. */
function attributeName(path: string): string {
  const named = path.split('.').filter((part) => !/^\d+$/.test(part))
  return (named.at(-1) ?? path).replace(/_/g, ' ')
}

function typeMessage(attribute: string, type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).filter((t) => t !== 'null')
  switch (types[0]) {
    case 'string':
      return `The ${attribute} field must be a string.`
    case 'integer':
      return `The ${attribute} field must be an integer.`
    case 'number':
      return `The ${attribute} field must be a number.`
    case 'boolean':
      return `The ${attribute} field must be true or false.`
    case 'array':
      return `The ${attribute} field must be an array.`
    case 'object':
      return `The ${attribute} field must be an object.`
    default:
      return `The ${attribute} field is invalid.`
  }
}

const formatMessages: Record<string, (attribute: string) => string> = {
  email: (a) => `The ${a} field must be a valid email address.`,
  date: (a) => `The ${a} field must match the format Y-m-d.`,
  'date-time': (a) => `The ${a} field must be a valid date.`,
  uuid: (a) => `The ${a} field must be a valid UUID.`,
  uri: (a) => `The ${a} field must be a valid URL.`,
}

/** The value at a dot path ('' is the value itself). */
function valueAt(data: unknown, path: string): unknown {
  if (path === '') return data
  let value = data
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
  return value
}

/**
 * A custom message from the contract's errorMessage keyword. Its key is where the failing value
 * is (for a missing property, the object's path plus the property); placeholders like {country}
 * are filled from the object holding that key.
 */
function describeCustom(error: ErrorObject, data: unknown): [string, string] {
  const original = (error.params as { errors?: ErrorObject[] }).errors?.[0]
  const missing = original?.keyword === 'required' ? (original.params as { missingProperty: string }).missingProperty : undefined
  const key = [dotPath(error.instancePath), missing].filter(Boolean).join('.')
  const holder = valueAt(data, key.split('.').slice(0, -1).join('.'))
  const message = (error.message ?? 'The value is invalid.').replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[name] : undefined
    return typeof value === 'string' || typeof value === 'number' ? String(value) : placeholder
  })
  return [key, message]
}

/** Key and message of one Ajv error. */
function describe(error: ErrorObject, data: unknown): [string, string] {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'errorMessage') return describeCustom(error, data)
  const path = dotPath(error.instancePath)
  if (error.keyword === 'required') {
    const key = [path, params.missingProperty as string].filter(Boolean).join('.')
    return [key, `The ${attributeName(key)} field is required.`]
  }
  if (path === '') {
    if (error.keyword === 'minProperties') return ['errors', 'At least one property is required']
    if (error.keyword === 'type') return ['errors', `The request body must be a JSON ${String(params.type)}.`]
    return ['errors', `The request body is invalid: ${error.message ?? error.keyword}.`]
  }
  const attribute = attributeName(path)
  switch (error.keyword) {
    case 'type':
      return [path, typeMessage(attribute, params.type)]
    case 'enum':
    case 'const':
      return [path, `The selected ${attribute} is invalid.`]
    case 'format':
      return [path, (formatMessages[params.format as string] ?? ((a: string) => `The ${a} field format is invalid.`))(attribute)]
    case 'pattern':
      return [path, `The ${attribute} field format is invalid.`]
    case 'minLength':
      return [path, params.limit === 1 ? `The ${attribute} field is required.` : `The ${attribute} field must be at least ${String(params.limit)} characters.`]
    case 'maxLength':
      return [path, `The ${attribute} field must not be greater than ${String(params.limit)} characters.`]
    case 'minimum':
      return [path, `The ${attribute} field must be at least ${String(params.limit)}.`]
    case 'maximum':
      return [path, `The ${attribute} field must not be greater than ${String(params.limit)}.`]
    case 'minItems':
      return [path, params.limit === 1 ? `The ${attribute} field is required.` : `The ${attribute} field must have at least ${String(params.limit)} items.`]
    case 'maxItems':
      return [path, `The ${attribute} field must not have more than ${String(params.limit)} items.`]
    case 'uniqueItems':
      return [path, `The ${attribute} field has a duplicate value.`]
    case 'minProperties':
      return [path, `The ${attribute} field must not be empty.`]
    default:
      return [path, `The ${attribute} field is invalid.`]
  }
}

/**
 * Ajv reports a failing "anyOf: [X, null]" as X's errors, a "must be null" error and the anyOf
 * itself; and a failing if/then as the then-errors plus an "if" error. Only X's and then's
 * errors say something useful. When every branch fails on type alone, one type message is kept.
 */
function usefulErrors(errors: ErrorObject[]): ErrorObject[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
  return errors.filter((error) => {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') return false
    const branchOf = combinators.find((c) => error.schemaPath.startsWith(`${c.schemaPath}/`) && error.instancePath === c.instancePath)
    if (!branchOf) return true
    const isNullBranch = error.keyword === 'type' && (error.params as { type: unknown }).type === 'null'
    return !isNullBranch
  })
}

export function toValidationErrors(errors: ErrorObject[] | null | undefined, data: unknown): ValidationErrors {
  const result: ValidationErrors = {}
  for (const error of usefulErrors(errors ?? [])) {
    const [key, message] = describe(error, data)
    const messages = (result[key] ??= [])
    if (!messages.includes(message)) messages.push(message)
  }
  return result
}

/** Which query parameters take several values, and which are plain booleans. */
export interface QueryShape {
  arrays: ReadonlySet<string>
  booleans: ReadonlySet<string>
}

/** The shape of a query from its JSON Schema (see Contracts.querySchema). */
export function queryShapeOf(schema: { properties?: Record<string, { type?: unknown }> }): QueryShape {
  const entries = Object.entries(schema.properties ?? {})
  return {
    arrays: new Set(entries.filter(([, s]) => s.type === 'array').map(([name]) => name)),
    booleans: new Set(entries.filter(([, s]) => s.type === 'boolean').map(([name]) => name)),
  }
}

/**
 * Query string -> object for the query validator to coerce: repeated and comma-separated values
 * for array parameters (expand=a,b or expand=a&expand=b or expand[]=a), the last value for the
 * others, 1 and 0 for booleans (as Laravel's boolean rule), and empty values treated as absent.
 */
export function readQuery(url: URL, shape: QueryShape): Query {
  const query: Query = {}
  for (const [rawName, rawValue] of url.searchParams) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
    const value = rawValue.trim()
    if (value === '') continue
    if (shape.arrays.has(name)) {
      const values = value.split(',').map((v) => v.trim()).filter(Boolean)
      query[name] = [...((query[name] as string[] | undefined) ?? []), ...values]
    } else if (shape.booleans.has(name) && (value === '1' || value === '0')) {
      query[name] = value === '1'
    } else {
      query[name] = value
    }
  }
  return query
}

/** Validates (and coerces, in place) a query object; throws 422 on failure. */
export function checkQuery(validate: ValidateFunction, query: Query): Query {
  if (!validate(query)) throw invalid(toValidationErrors(validate.errors, query))
  return query
}

/** Parses a JSON body; an empty body is an empty object. Throws 422 on malformed JSON. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw invalidBody('The request body must be valid JSON.')
  }
}

export function checkBody(validate: ValidateFunction, body: unknown): unknown {
  if (!validate(body)) throw invalid(toValidationErrors(validate.errors, body))
  return body
}
