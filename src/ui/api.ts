// The dashboard is a client of the mock's own API, acting as the user picked on it: it reads and
// writes through the API's operations, in process, through the same gate as any request (the
// role checks, the contract's validation, the services), so a read-only member's write is the
// API's 403 and a bad value its 422. It does not go through the rate limit or the traffic journal,
// which are about a client's traffic. Operations are named by operationId; method and path come
// from the contract, as for the API's own routes.
import type { Operations } from '../contracts/generated.ts'
import { SURFACES, type Contracts } from '../contracts/load.ts'
import type { OperationId } from '../kernel/operation.ts'
import type { Identity } from '../store/world.ts'

/** Sends a request to the API's routes as the identity (app.ts wires it to the gate). */
export type ApiDispatch = (identity: Identity, request: Request) => Promise<Response>

type Scalar = string | number | boolean

export interface CallInput<Id extends OperationId> {
  params?: Operations[Id]['params']
  query?: Record<string, Scalar | readonly Scalar[] | undefined>
  body?: Operations[Id]['body']
}

/** The operation's success body, or the API's error (status and body) as it answered. */
export type Answer<Id extends OperationId> =
  | { ok: true; status: number; body: Exclude<Operations[Id]['success'], void> }
  | { ok: false; status: number; body: Record<string, unknown> }

export class ApiCaller {
  constructor(
    private readonly contracts: Contracts,
    private readonly dispatch: ApiDispatch,
    private readonly identity: Identity,
    /** The origin the browser reached the mock at: links in answers (perform_url) point there. */
    private readonly origin: string,
  ) {}

  async call<Id extends OperationId>(id: Id, input: CallInput<Id> = {}): Promise<Answer<Id>> {
    const op = this.contracts.operation(id)
    const params = (input.params ?? {}) as Record<string, string | number>
    const path = op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])))
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(input.query ?? {})) {
      if (value === undefined) continue
      // Arrays as the API reads them: name[]=a&name[]=b.
      if (Array.isArray(value)) for (const item of value as readonly Scalar[]) search.append(`${name}[]`, String(item))
      else search.set(name, String(value))
    }
    const query = search.size > 0 ? `?${search.toString()}` : ''
    const request = new Request(`${this.origin}${SURFACES.api.base}${path}${query}`, {
      method: op.method,
      headers: { accept: 'application/json', ...(input.body !== undefined && { 'content-type': 'application/json' }) },
      ...(input.body !== undefined && { body: JSON.stringify(input.body) }),
    })
    const response = await this.dispatch(this.identity, request)
    const text = await response.text()
    const body: unknown = text === '' ? {} : JSON.parse(text)
    if (response.ok) return { ok: true, status: response.status, body: body as Exclude<Operations[Id]['success'], void> }
    return { ok: false, status: response.status, body: body as Record<string, unknown> }
  }
}

/** What an error answer says, in one line: the 422's messages, else the error or message. */
export function problemOf(answer: { status: number; body: Record<string, unknown> }): string {
  const { body, status } = answer
  const messages = Object.entries(body).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((message) => (key === 'errors' ? String(message) : `${key}: ${String(message)}`)) : [],
  )
  if (messages.length > 0) return messages.join(' ')
  const said = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : undefined
  return `${status}${said === undefined ? '' : ` ${said}`}`
}
