// What the contracts say about one HTTP exchange: which operation it reached, whether the request is
// one the operation accepts, and whether the answer is one the operation documents. The scenario
// runner, the validating proxy and the Pact check all judge exchanges here, so they agree with each
// other and with the mock's own gate (which validates requests with the same schemas).
import type { ErrorObject } from 'ajv'
import type { AjvContracts } from '../contracts/ajv.ts'
import { describeErrors, SURFACES, type OperationContract, type Surface } from '../contracts/load.ts'
import { normalizeInput, queryShapeOf, readQuery, validateBody } from '../contracts/request.ts'

/** One way an exchange breaks its contract. `at` says where: `status`, `body.name.first_name`, `header Retry-After`, `query.limit`, `request body.steps.0.type`. */
export interface Violation {
  at: string
  message: string
}

export interface OperationMatch {
  op: OperationContract
  /** Path parameters as they appeared in the path. */
  params: Record<string, string>
}

export interface RequestToCheck {
  /** The query string (with or without its leading '?') or its parameters. */
  query?: string | URLSearchParams
  /** The parsed body (JSON, or a form-encoded body's fields as an object of strings), or undefined when there was none. */
  body?: unknown
  /** The request's Content-Type, when it had a body. */
  contentType?: string | null
  /** The body was not read (too large, or streamed past unread): only the query is checked. */
  bodyUnread?: boolean
  /** The body is text that is no JSON (as contracts/body.ts reads it), which a JSON operation refuses whole. */
  notJson?: boolean
}

export interface ResponseToCheck {
  status: number
  headers: Headers | Record<string, string | undefined>
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: unknown
  /** The body as text ('' when empty; for binary answers it may be left out). */
  text?: string
  /** The body was not read (too large to keep): its schema is not checked, its Content-Type is. */
  bodyUnread?: boolean
}

/** How much of an answer is there to judge. */
export interface ResponseCheckOptions {
  /**
   * The exchange lists only what its consumer relies on, as a Pact interaction does: headers and a
   * body it leaves out, and properties it leaves out of the body, are not judged; what it lists is.
   */
  partial?: boolean
}

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining'] as const
const RATE_LIMITED_HEADERS = ['Retry-After', 'X-RateLimit-Reset'] as const

function header(headers: ResponseToCheck['headers'], name: string): string | null {
  if (headers instanceof Headers) return headers.get(name)
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted && value !== undefined) return value
  return null
}

/** Whether a Content-Type is one of a contract's binary media types (wildcards such as image/* allowed). */
export function mediaTypeListed(contentType: string | null, listed: readonly string[]): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return listed.some((media) => media === '*/*' || media === type || (media.endsWith('/*') && type.startsWith(media.slice(0, -1))))
}

/**
 * A partial body's errors without those about properties it leaves out: `required` (also when
 * ajv-errors wrapped it in a custom message), and then the `if` errors that only announced them.
 */
function withoutMissingProperties(errors: ErrorObject[]): ErrorObject[] {
  const missing = (error: ErrorObject): boolean =>
    error.keyword === 'required' || (error.keyword === 'errorMessage' && ((error.params as { errors?: ErrorObject[] }).errors ?? []).every(missing))
  const rest = errors.filter((error) => !missing(error))
  return rest.every((error) => error.keyword === 'if') ? [] : rest
}

const isWholeNumber = (value: string | null) => value !== null && /^\d+$/.test(value.trim())

export class Conformance {
  private readonly matchers: { op: OperationContract; pattern: RegExp; names: string[] }[]
  private readonly errorValidator

  constructor(readonly contracts: AjvContracts) {
    this.matchers = [...contracts.operations.values()]
      .map((op) => ({
        op,
        names: op.pathParams,
        pattern: new RegExp(
          `^${op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => (contracts.parameters[name]?.type === 'integer' ? '([0-9]+)' : '([^/]+)'))}/?$`,
        ),
      }))
      // Static paths before parameterised ones (/records/{id}/steps before /records/{id}).
      .sort((a, b) => a.names.length - b.names.length)
    this.errorValidator = contracts.schemaValidator('error')
  }

  /** The operation of a surface that a method and a path within it (`/clients/12`, no base) reach. */
  match(method: string, path: string, surface: Surface = 'api'): OperationMatch | undefined {
    const upper = method.toUpperCase()
    for (const { op, pattern, names } of this.matchers) {
      if (op.surface !== surface || op.method !== upper) continue
      const found = pattern.exec(path)
      if (found) return { op, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')])) }
    }
    return undefined
  }

  /** The operation a full path (`/api/v2/clients/12`, `/_mock/clock`, `/oauth/token`) reaches, on whichever surface its base names. */
  matchFullPath(method: string, fullPath: string): (OperationMatch & { surface: Surface }) | undefined {
    for (const [surface, { base }] of Object.entries(SURFACES) as [Surface, (typeof SURFACES)[Surface]][]) {
      if (fullPath === base || fullPath.startsWith(`${base}/`)) {
        const found = this.match(method, fullPath.slice(base.length) || '/', surface)
        return found && { ...found, surface }
      }
    }
    return undefined
  }

  /** Ways a request breaks what its operation accepts: its query parameters and its JSON or form-encoded body. */
  checkRequest(op: OperationContract, request: RequestToCheck): Violation[] {
    const violations: Violation[] = []
    const params = typeof request.query === 'string' ? new URLSearchParams(request.query.replace(/^\?/, '')) : (request.query ?? new URLSearchParams())
    const query = readQuery(params, queryShapeOf(this.contracts.querySchema(op.id)))
    const validateQuery = this.contracts.queryValidator(op.id)
    if (!validateQuery(query)) {
      for (const error of describeErrors(validateQuery.errors)) violations.push({ at: error.path ? `query.${error.path}` : 'query', message: error.message })
    }
    if (request.bodyUnread) return violations
    if (op.body !== undefined) {
      const validate = this.contracts.bodyValidator(op.id)
      const body = request.body === undefined ? {} : normalizeInput(request.body)
      if (request.body !== undefined && request.contentType && !/json/i.test(request.contentType)) {
        violations.push({ at: 'request header Content-Type', message: `${op.id} takes a JSON body, sent as ${request.contentType}` })
      }
      if (request.notJson) violations.push({ at: 'request body', message: 'must be valid JSON' })
      else if (validate && !validateBody(validate, body)) {
        for (const error of describeErrors(validate.errors)) violations.push({ at: error.path ? `request body.${error.path}` : 'request body', message: error.message })
      }
    } else if (op.form !== undefined) {
      if (request.body !== undefined && request.contentType && !/x-www-form-urlencoded/i.test(request.contentType)) {
        violations.push({ at: 'request header Content-Type', message: `${op.id} takes a form-encoded body, sent as ${request.contentType}` })
      }
      const validateForm = this.contracts.formValidator(op.id)
      if (validateForm && !validateForm(request.body ?? {})) {
        for (const error of describeErrors(validateForm.errors)) violations.push({ at: error.path ? `request body.${error.path}` : 'request body', message: error.message })
      }
    } else if (op.multipart === undefined && request.body !== undefined) {
      violations.push({ at: 'request body', message: `${op.id} takes no body` })
    }
    return violations
  }

  /**
   * Ways an answer breaks what its operation documents: a status the operation does not list, a
   * body that breaks its schema (or a body where none is documented), a binary answer of another
   * media type, and on the API the rate-limit headers (and on a 429 Retry-After and X-RateLimit-Reset).
   */
  checkResponse(op: OperationContract, response: ResponseToCheck, options: ResponseCheckOptions = {}): Violation[] {
    const violations: Violation[] = []
    const unlisted = (name: string) => options.partial === true && header(response.headers, name) === null
    if (SURFACES[op.surface].authenticated) {
      for (const name of RATE_LIMIT_HEADERS) {
        if (unlisted(name)) continue
        if (!isWholeNumber(header(response.headers, name))) violations.push({ at: `header ${name}`, message: `missing or not a whole number (${header(response.headers, name) ?? 'absent'})` })
      }
      if (response.status === 429) {
        for (const name of RATE_LIMITED_HEADERS) {
          if (unlisted(name)) continue
          if (!isWholeNumber(header(response.headers, name))) violations.push({ at: `header ${name}`, message: `a 429 must carry ${name} (${header(response.headers, name) ?? 'absent'})` })
        }
      }
    }
    const documented = op.responses[String(response.status)]
    if (!documented) {
      violations.push({ at: 'status', message: `${response.status} is not a status ${op.id} documents (${Object.keys(op.responses).join(', ')})` })
      return violations
    }
    const contentType = header(response.headers, 'Content-Type')
    const noBody = (response.text ?? '') === '' && response.body === undefined
    // A response with both answers JSON unless the request asked for one of its binary types.
    const negotiatedBinary = documented.body !== undefined && documented.binary !== undefined && mediaTypeListed(contentType, documented.binary)
    if (documented.body && !negotiatedBinary) {
      if (options.partial && noBody) return violations
      if (!unlisted('Content-Type') && !/json/i.test(contentType ?? '')) violations.push({ at: 'header Content-Type', message: `a ${response.status} of ${op.id} is JSON, got ${contentType ?? 'none'}` })
      const validate = response.bodyUnread ? undefined : this.contracts.responseValidator(op.id, response.status)
      if (validate && !validate(response.body)) {
        const errors = options.partial ? withoutMissingProperties(validate.errors ?? []) : validate.errors
        for (const error of describeErrors(errors)) violations.push({ at: error.path ? `body.${error.path}` : 'body', message: error.message })
      }
    } else if (documented.binary) {
      if (!unlisted('Content-Type') && !mediaTypeListed(contentType, documented.binary)) {
        violations.push({ at: 'header Content-Type', message: `a ${response.status} of ${op.id} is ${documented.binary.join(' or ')}, got ${contentType ?? 'none'}` })
      }
    } else if (!noBody) {
      violations.push({ at: 'body', message: `a ${response.status} of ${op.id} has no body, got ${(response.text ?? JSON.stringify(response.body)).slice(0, 200)}` })
    }
    return violations
  }

  /** An unknown route on the API answers 404 {"error": ...}, like the real service. */
  checkUnknownRoute(response: ResponseToCheck): Violation[] {
    if (response.status === 404 && this.errorValidator(response.body)) return []
    return [{ at: 'status', message: `no operation has this method and path; the service answers 404 {"error": "Not Found."}, got ${response.status}` }]
  }
}
