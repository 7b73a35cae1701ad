// A test client over app.request() that checks EVERY response against the contract of the
// operation the request reached: the status must be one the contract lists, the body must match
// its schema (or be empty), and on the API the rate-limit headers must be there. A test cannot
// forget it.
import { SURFACES, type OperationContract } from '../../src/contracts/load.ts'
import { Conformance } from '../../src/harness/conformance.ts'
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

const conformance = new Conformance(contracts)

/** The operation a request reached, by method and full path (/api/v2/... or /_mock/...). */
export function operationFor(method: string, path: string): OperationContract | undefined {
  return conformance.matchFullPath(method, path)?.op
}

/** Throws, naming the operation, status and failing places, when a response breaks its contract. */
export function checkResponse(method: string, path: string, response: Omit<ApiResponse, 'operation' | 'bytes'>): OperationContract | undefined {
  const where = `${method} ${path} -> ${response.status}`
  const op = operationFor(method, path)
  const violations = op ? conformance.checkResponse(op, response) : conformance.checkUnknownRoute(response)
  if (!op && path.startsWith(API)) {
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining']) {
      if (!response.headers.get(name)) violations.push({ at: `header ${name}`, message: 'missing' })
    }
  }
  if (violations.length > 0) {
    const problems = violations.map((v) => `  ${v.at}: ${v.message}`)
    throw new Error(`${where}: breaks the contract of ${op?.id ?? 'an unknown route'}:\n${problems.join('\n')}\nbody: ${response.text.slice(0, 2000)}`)
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
