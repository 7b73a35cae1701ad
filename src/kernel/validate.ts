// Request validation against the contracts: query strings and JSON bodies become typed values
// or a 422 keyed by dot path with Laravel-style messages (docs/specification-notes.md "Status codes and bodies").
import type { ErrorObject, ValidateFunction } from 'ajv'
import { readJsonBody } from '../contracts/body.ts'
import { dotPath } from '../contracts/load.ts'
import { normalizeInput, trim, validateBody, type Query } from '../contracts/request.ts'
import { invalid, invalidBody, type ValidationErrors } from './errors.ts'

/** 'name.first_name' -> 'first name'; 'steps.0.type' -> 'type'. */
export function attributeName(path: string): string {
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
 * is (for a missing property the message names, the object's path plus the property; for the body
 * as a whole, errors); placeholders like {country} are filled from the object holding that key.
 */
function describeCustom(error: ErrorObject, data: unknown): [string, string] {
  const original = (error.params as { errors?: ErrorObject[] }).errors?.[0]
  const missing =
    original?.keyword === 'required' && original.instancePath === error.instancePath
      ? (original.params as { missingProperty: string }).missingProperty
      : undefined
  const key = [dotPath(error.instancePath), missing].filter(Boolean).join('.') || 'errors'
  const holder = valueAt(data, key.split('.').slice(0, -1).join('.'))
  const message = (error.message ?? 'The value is invalid.').replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[name] : undefined
    return typeof value === 'string' || typeof value === 'number' ? String(value) : placeholder
  })
  return [key, message]
}

/** A message about the request body as a whole (it goes under the key errors). */
function describeBody(keyword: string, params: Record<string, unknown>): string {
  const items = (n: unknown) => `${String(n)} item${n === 1 ? '' : 's'}`
  switch (keyword) {
    case 'minProperties':
      return 'At least one property is required'
    case 'type':
      return `The request body must be a JSON ${String(params.type)}.`
    case 'minItems':
      return `The request body must have at least ${items(params.limit)}.`
    case 'maxItems':
      return `The request body must not have more than ${items(params.limit)}.`
    case 'uniqueItems':
      return 'The request body has a duplicate value.'
    default:
      return 'The request body is invalid.'
  }
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
  // Before the body-wide messages: a key the body may not have is named wherever it is, the top level included.
  if (error.keyword === 'additionalProperties') {
    const key = [path, params.additionalProperty as string].filter(Boolean).join('.')
    return [key, `The ${attributeName(key)} field is not allowed.`]
  }
  if (path === '') return ['errors', describeBody(error.keyword, params)]
  const attribute = attributeName(path)
  switch (error.keyword) {
    case 'type':
      // Laravel's required rule fails on null (and on blank strings, which become null first).
      if (valueAt(data, path) === null) return [path, `The ${attribute} field is required.`]
      return [path, typeMessage(attribute, params.type)]
    case 'enum':
    case 'const':
      return [path, `The selected ${attribute} is invalid.`]
    case 'format':
      return [path, (formatMessages[params.format as string] ?? ((a: string) => `The ${a} field format is invalid.`))(attribute)]
    case 'pattern': {
      // A required string of only whitespace: what Laravel reports once it has trimmed it away.
      const value = valueAt(data, path)
      return [path, typeof value === 'string' && trim(value) === '' ? `The ${attribute} field is required.` : `The ${attribute} field format is invalid.`]
    }
    case 'minLength':
      return [path, params.limit === 1 ? `The ${attribute} field is required.` : `The ${attribute} field must be at least ${String(params.limit)} characters.`]
    case 'maxLength':
      return [path, `The ${attribute} field must not be greater than ${String(params.limit)} characters.`]
    case 'minimum':
      return [path, `The ${attribute} field must be at least ${String(params.limit)}.`]
    case 'maximum':
      return [path, `The ${attribute} field must not be greater than ${String(params.limit)}.`]
    case 'multipleOf':
      return [path, `The ${attribute} field must be a multiple of ${String(params.multipleOf)}.`]
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
 * Ajv reports a failing anyOf/oneOf as every branch's errors plus its own (and a failing if/then
 * with an extra "if" error). For a value where a combinator failed, one message a caller can act
 * on is kept: what failed beyond the type (the date format, the allowed values), or else the first
 * type the value could have had. "must be null" never helps. Branch errors are found by the value
 * they are about, since Ajv's schema paths behind a $ref are relative to the referenced document.
 */
function usefulErrors(errors: ErrorObject[]): ErrorObject[] {
  const combined = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath))
  const isNullType = (e: ErrorObject) => e.keyword === 'type' && (e.params as { type: unknown }).type === 'null'
  const kept = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if' && !isNullType(e))
  return kept.filter((error) => {
    if (!combined.has(error.instancePath) || error.keyword !== 'type') return true
    const sameValue = kept.filter((e) => e.instancePath === error.instancePath)
    return sameValue.every((e) => e.keyword === 'type') && sameValue[0] === error
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

/** Validates a query object (filling in defaults such as page and limit); throws 422 on failure. */
export function checkQuery(validate: ValidateFunction, query: Query): Query {
  if (!validate(query)) throw invalid(toValidationErrors(validate.errors, query))
  return query
}

/** Reads (contracts/body.ts) and normalizes a JSON body; an empty body is an empty object. Throws 422 on malformed JSON. */
export function parseJsonBody(text: string): unknown {
  const body = readJsonBody(text)
  if (body.kind === 'malformed') throw invalidBody('The request body must be valid JSON.')
  return body.kind === 'none' ? {} : normalizeInput(body.value)
}

/**
 * The 422 errors of a parsed body, empty when it is valid. Valid or not, the body is left as the
 * rules read it: integers and booleans coerced the way Laravel's rules take them (validateBody).
 */
export function bodyErrors(validate: ValidateFunction, body: unknown): ValidationErrors {
  return validateBody(validate, body) ? {} : toValidationErrors(validate.errors, body)
}

export function checkBody(validate: ValidateFunction, body: unknown): unknown {
  const errors = bodyErrors(validate, body)
  if (Object.keys(errors).length > 0) throw invalid(errors)
  return body
}

/**
 * Whether a key of the body passed the schema: no error is keyed by it, inside it or by what
 * holds it. Laravel skips its exists and unique rules for a key that already failed, and a rule
 * may only read a part of the body that has the contract's shape.
 */
export function passedSchema(errors: ValidationErrors): (key: string) => boolean {
  const failed = Object.keys(errors)
  if (failed.includes('errors')) return () => false
  return (key) => !failed.some((failure) => failure === key || failure.startsWith(`${key}.`) || key.startsWith(`${failure}.`))
}

/**
 * The schema's errors and the rules' errors as one 422 body, keyed in Laravel's order: its rules
 * are listed in the order of the body's properties (`order`), array items by index; keys under
 * one property keep the order they were found in, the schema's first.
 */
export function mergeErrors(schema: ValidationErrors, rules: ValidationErrors, order: readonly string[]): ValidationErrors {
  const merged: ValidationErrors = { ...schema }
  for (const [key, messages] of Object.entries(rules)) merged[key] = [...(merged[key] ?? []), ...messages.filter((message) => !merged[key]?.includes(message))]
  const rank = (key: string): number => {
    const head = key.split('.')[0] as string
    const position = order.indexOf(head)
    if (position !== -1) return position
    return /^\d+$/.test(head) ? order.length + Number(head) : Number.MAX_SAFE_INTEGER
  }
  // Array.prototype.sort is stable: keys of equal rank keep their order.
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => rank(a) - rank(b)))
}
