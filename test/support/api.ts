// A test client over app.request() that checks EVERY response against the contract of the
// operation the request reached: the status must be one the contract lists, the body must match
// its schema (or be empty), and on the API the rate-limit headers must be there. A test cannot
// forget it.
import { describeErrors, SURFACES, type OperationContract } from '../../src/contracts/load.ts'
import { contracts } from './contracts.ts'

export const API = SURFACES.api.base
export const CONTROL = SURFACES.control.base

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
  /** The body's bytes (downloads). */
  bytes: Uint8Array
  /** The contract operation the request matched, or undefined for an unknown route. */
  operation: OperationContract | undefined
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | Array<string | number>>
  /** JSON body, or a FormData sent as multipart/form-data; use raw for anything else. */
  body?: unknown
  /** A body sent as it is (a stream is sent as it is read). */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>
  headers?: Record<string, string>
}

const matchers = [...contracts.operations.values()]
  .map((op) => ({
    op,
    pattern: new RegExp(`^${SURFACES[op.surface].base}${op.path.replace(/\{[A-Za-z]+\}/g, (name) => (contracts.parameters[name.slice(1, -1)]?.type === 'integer' ? '[0-9]+' : '[^/]+'))}$`),
  }))
  // Static paths before parameterised ones.
  .sort((a, b) => a.op.pathParams.length - b.op.pathParams.length)

/** The operation a request reached, by method and full path (/api/v2/... or /_mock/...). */
export function operationFor(method: string, path: string): OperationContract | undefined {
  return matchers.find(({ op, pattern }) => op.method === method && pattern.test(path))?.op
}

const errorValidator = contracts.schemaValidator('error')

/** Whether a Content-Type is one of a contract's binary media types (wildcards such as image/star allowed). */
function mediaTypeListed(contentType: string | null, listed: readonly string[]): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return listed.some((media) => media === '*/*' || media === type || (media.endsWith('/*') && type.startsWith(media.slice(0, -1))))
}

/** Throws, naming the operation, status and failing paths, when a response breaks its contract. */
export function checkResponse(method: string, path: string, response: Omit<ApiResponse, 'operation' | 'bytes'>): OperationContract | undefined {
  const where = `${method} ${path} -> ${response.status}`
  const op = operationFor(method, path)
  const limited = op ? SURFACES[op.surface].authenticated : path.startsWith(API)
  if (limited && (!response.headers.get('X-RateLimit-Limit') || !response.headers.get('X-RateLimit-Remaining'))) {
    throw new Error(`${where}: missing X-RateLimit-Limit / X-RateLimit-Remaining headers`)
  }
  if (!op) {
    if (response.status !== 404 || !errorValidator(response.body)) throw new Error(`${where}: an unknown route must answer 404 {"error": ...}, got ${response.text}`)
    return undefined
  }
  const documented = op.responses[String(response.status)]
  if (!documented) {
    throw new Error(`${where}: status ${response.status} is not in the contract of ${op.id} (${Object.keys(op.responses).join(', ')}); body ${response.text}`)
  }
  if (documented.body) {
    const validate = contracts.responseValidator(op.id, response.status)
    if (validate && !validate(response.body)) {
      const problems = describeErrors(validate.errors).map((e) => `  ${e.path || '(root)'}: ${e.message}`)
      throw new Error(`${where}: body breaks the contract of ${op.id}:\n${problems.join('\n')}\nbody: ${response.text.slice(0, 2000)}`)
    }
  } else if (documented.binary) {
    const type = response.headers.get('content-type')
    if (!mediaTypeListed(type, documented.binary)) throw new Error(`${where}: ${op.id} answers ${response.status} as ${documented.binary.join(', ')}, got ${type}`)
  } else if (response.text !== '') {
    throw new Error(`${where}: ${op.id} answers ${response.status} without a body, got ${response.text}`)
  }
  return op
}

export class ApiClient {
  constructor(
    private readonly app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> },
    readonly token: string | undefined,
    /** Where paths are relative to: the API, or the control API. */
    readonly base: string = API,
  ) {}

  /** The same client with another token (or none). */
  as(token: string | undefined): ApiClient {
    return new ApiClient(this.app, token, this.base)
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item))
    }
    const url = `${this.base}${path}${search.size > 0 ? `?${search.toString()}` : ''}`
    const headers: Record<string, string> = { ...options.headers }
    if (this.token !== undefined) headers.Authorization ??= `Bearer ${this.token}`
    let body: RequestInit['body'] = options.raw
    if (options.body instanceof FormData) {
      // fetch writes the multipart body and its Content-Type with the boundary.
      body = options.body
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['Content-Type'] ??= 'application/json'
    }
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body }
    if (body instanceof ReadableStream) init.duplex = 'half'
    const res = await this.app.request(url, init)
    const bytes = new Uint8Array(await res.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = text
    }
    const response = { status: res.status, headers: res.headers, body: parsed as T, text }
    const operation = checkResponse(method, `${this.base}${path.split('?')[0] as string}`, response)
    return { ...response, bytes, operation }
  }

  get<T = any>(path: string, query?: RequestOptions['query']) {
    return this.request<T>('GET', path, { query })
  }

  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, { body })
  }

  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, { body })
  }

  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, { body })
  }

  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path)
  }
}
