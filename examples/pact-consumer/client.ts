// A small typed client of the IVS API, as a consumer would write it: fetch, a base URL ending in
// /api/v2 and a bearer token. Its types come from the contracts (src/contracts/generated.ts).
import type { CaseJson, ClientCreateJson, ClientJson, ErrorJson, MessageJson, RecordJson, ValidationErrorJson } from '../../src/contracts/generated.ts'

/** An answer other than the one the client asked for: its status and error body. */
export class IvsError extends Error {
  constructor(
    readonly status: number,
    /** {error} (404), {message} (401, 403) or the invalid fields with their messages (422). */
    readonly body: ErrorJson | MessageJson | ValidationErrorJson | undefined,
  ) {
    super(`IVS answered ${status}`)
  }
}

export class IvsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  getClient(id: number): Promise<ClientJson> {
    return this.request('GET', `/clients/${id}`)
  }

  createClient(input: ClientCreateJson): Promise<ClientJson> {
    return this.request('POST', '/clients', input)
  }

  getRecord(id: number): Promise<RecordJson> {
    return this.request('GET', `/records/${id}`)
  }

  /** The team's cases, first page. */
  async listCases(): Promise<CaseJson[]> {
    const page = await this.request<{ data: CaseJson[] }>('GET', '/cases')
    return page.data
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${this.token}` }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await response.text()
    const parsed: unknown = text === '' ? undefined : JSON.parse(text)
    if (!response.ok) throw new IvsError(response.status, parsed as IvsError['body'])
    return parsed as T
  }
}
