// What a scenario leaves on a real target, and how the runner leaves nothing. Each thing a POST made
// that a DELETE undoes is deleted at the scenario's end, in reverse order (a refused delete is tried
// again once the rest is gone: an attachment is deletable once the client holding it is). What has
// no DELETE of its own (records, cases) is looked up again: it must have gone with its client. The
// user and the team, which a scenario may change but nobody deletes, get back what they said before
// its first change. Organisations, which the API can neither delete nor archive, become spares: the
// next run finds them by their reference and uses one where a scenario would create one, so a
// second run adds none, and lists none: a run lists only what it made. What stays anyway (the
// credit history's debits) is listed with why. A delete the maker's role may not do is done again
// with the team owner's token.
import type { AjvContracts } from '../contracts/ajv.ts'
import type { OperationContract } from '../contracts/load.ts'
import type { Answer, HttpClient } from './http.ts'

export interface LeftBehind {
  /** What stays: "organisation 12", "3 credit history entries". */
  what: string
  why: string
}

/** The reference and name a spare organisation carries between runs. */
export const SPARE_REFERENCE = 'ivs-mock-verify-spare'
export const SPARE_NAME = 'ivs-mock verify: spare organisation'

/** An id as the API answers it. */
type Id = number | string

/** An organisation as a create without those fields makes it: what a spare is reset to before its reuse. */
const FRESH_ORGANISATION = { status: null, company_number: null, jurisdiction: null, reference: null, incorporated_at: null, address: null }

/** Pages of spares read at most (100 each). */
const SPARE_PAGES = 10

const templateShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}')
const fill = (template: string, values: unknown[]) => {
  let index = 0
  return template.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(values[index++])))
}

/** The DELETE that undoes what a POST made: the POST's path plus one parameter (/clients/{id}/files -> /clients/{clientId}/files/{fileId}). */
export function undoOperationOf(contracts: AjvContracts, created: OperationContract): OperationContract | undefined {
  if (created.method !== 'POST') return undefined
  const shape = `${templateShape(created.path)}/{}`
  return [...contracts.operations.values()].find((op) => op.surface === 'api' && op.method === 'DELETE' && templateShape(op.path) === shape)
}

/** The detail GET of what a POST made, for what has no DELETE of its own (POST /records -> GET /records/{id}). */
function detailOperationOf(contracts: AjvContracts, created: OperationContract): OperationContract | undefined {
  if (created.method !== 'POST') return undefined
  const shape = `${templateShape(created.path)}/{}`
  return [...contracts.operations.values()].find((op) => op.surface === 'api' && op.method === 'GET' && templateShape(op.path) === shape)
}

const resourceName = (path: string) => {
  const segment = path.split('/').filter((part) => part && !part.startsWith('{')).at(-1) ?? path
  return segment.replace(/-/g, ' ').replace(/s$/, '')
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The spare organisations of the target, shared by the run's scenarios. A spare is claimed by
 * writing a reference of this run's into it and reading it back: of two runs that claim the same
 * spare at once, the one whose write came last keeps it and the other takes another or creates one.
 */
export class SpareOrganisations {
  private found: Promise<Id[]> | undefined
  private claims = 0

  constructor(
    private readonly http: HttpClient,
    private readonly base: string,
    private readonly runId: string,
  ) {}

  /** An organisation to use instead of creating one, reset to a fresh one's fields, or undefined when there is no spare. */
  async claim(token: string | undefined): Promise<Id | undefined> {
    const spares = await (this.found ??= this.list(token))
    while (spares.length > 0) {
      const id = spares.splice(Math.floor(Math.random() * spares.length), 1)[0] as Id
      const claim = `ivs-mock-verify-claim-${this.runId}-${++this.claims}`
      const patched = await this.request('PATCH', `/organisations/${String(id)}`, token, { name: SPARE_NAME, reference: claim })
      if (patched?.status !== 200) continue
      const read = await this.request('GET', `/organisations/${String(id)}`, token)
      if ((read?.body as { reference?: unknown } | undefined)?.reference !== claim) continue
      await this.request('DELETE', `/organisations/${String(id)}/assignees`, token)
      const clients = await this.request('GET', `/organisations/${String(id)}/clients?limit=100`, token)
      for (const client of ((clients?.body as { data?: { id: Id }[] } | undefined)?.data ?? [])) {
        await this.request('DELETE', `/clients/${String(client.id)}/organisations/${String(id)}`, token)
      }
      return id
    }
    return undefined
  }

  /** The body that makes a claimed spare what a create with `body` would have made. */
  static reuseBody(body: unknown): unknown {
    return isObject(body) ? { ...FRESH_ORGANISATION, ...body } : body
  }

  /**
   * Makes an organisation a spare again: no assignees, the spare's name and reference, nothing else.
   * What the run left: an organisation it made, kept as a spare; one it reused only when it could
   * not be made a spare again (it was there before the run).
   */
  async release(id: Id, token: string | undefined, made: boolean): Promise<LeftBehind | undefined> {
    await this.request('DELETE', `/organisations/${String(id)}/assignees`, token)
    const patched = await this.request('PATCH', `/organisations/${String(id)}`, token, { ...FRESH_ORGANISATION, name: SPARE_NAME, reference: SPARE_REFERENCE })
    if (patched?.status === 200) {
      return made ? { what: `organisation ${String(id)}`, why: `the API cannot delete organisations: kept as a spare (reference ${SPARE_REFERENCE}), which the next run uses instead of creating one` } : undefined
    }
    return { what: `organisation ${String(id)}`, why: `the API cannot delete organisations, and making it a spare ${made ? '' : 'again '}failed (PATCH answered ${patched?.status ?? 'nothing'}): rename it by hand` }
  }

  private async list(token: string | undefined): Promise<Id[]> {
    const ids: Id[] = []
    for (let page = 1; page <= SPARE_PAGES; page++) {
      const answer = await this.request('GET', `/organisations?search=${SPARE_REFERENCE}&limit=100&page=${page}`, token)
      const list = answer?.body as { data?: { id: Id; reference?: unknown; archived_at?: unknown }[]; total_pages?: number } | undefined
      for (const organisation of list?.data ?? []) {
        if (organisation.reference === SPARE_REFERENCE && organisation.archived_at === null) ids.push(organisation.id)
      }
      if (!list || page >= (list.total_pages ?? 1)) break
    }
    return ids
  }

  private async request(method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer | undefined> {
    const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    return (await this.http.send(method, `${this.base}${path}`, { headers, body: body === undefined ? undefined : JSON.stringify(body) })).answer
  }
}

interface Made {
  /** "client 12" */
  what: string
  /** The DELETE that undoes it, or the GET that must find it gone. */
  undo?: string
  check?: string
  token: string | undefined
  /** The team owner's token, for what the maker's role may not delete (an assigned-only member's client with records). */
  owner: string | undefined
}

/** One scenario's residue on a real target: what it made, changed and reused, and how to take each back. */
export class ScenarioResidue {
  private readonly made: Made[] = []
  /** Organisations it made (made) or reused (a spare an earlier run, or another scenario, left). */
  private readonly spares: { id: Id; token: string | undefined; made: boolean }[] = []
  /** The user's and team's fields before the scenario's first change, by path and token. */
  private readonly before = new Map<string, { path: string; token: string | undefined; body: Record<string, unknown>; changed: Set<string> }>()
  /** Credit history entries the scenario's paid steps added. */
  private debits = 0

  constructor(
    private readonly contracts: AjvContracts,
    private readonly http: HttpClient,
    private readonly base: string,
    private readonly spareOrganisations: SpareOrganisations,
  ) {}

  /** After a 201: what it made, and how it goes again. */
  created(op: OperationContract, params: Record<string, unknown>, answer: Answer, token: string | undefined, owner: string | undefined): void {
    const body = answer.body
    if (isObject(body)) {
      for (const step of Array.isArray(body.steps) ? body.steps : []) if (isObject(step) && typeof step.cost === 'number' && step.cost > 0) this.debits++
    }
    const values = op.pathParams.map((name) => params[name])
    const undo = undoOperationOf(this.contracts, op)
    const key = (target: OperationContract): Id | undefined => {
      const value = isObject(body) ? (body[target.pathParams.at(-1) as string] ?? body.id) : undefined
      return typeof value === 'number' || typeof value === 'string' ? value : undefined
    }
    if (undo) {
      const id = key(undo)
      if (id !== undefined) this.made.push({ what: `${resourceName(op.path)} ${String(id)}`, undo: fill(undo.path, [...values, id]), token, owner })
      return
    }
    if (op.id === 'organisations.create') {
      if (isObject(body) && (typeof body.id === 'number' || typeof body.id === 'string')) this.spares.push({ id: body.id, token, made: true })
      return
    }
    const detail = detailOperationOf(this.contracts, op)
    const id = detail && key(detail)
    if (detail && id !== undefined) this.made.push({ what: `${resourceName(op.path)} ${String(id)}`, check: fill(detail.path, [...values, id]), token, owner })
  }

  /** A spare organisation the scenario uses in place of one it would have created. */
  reused(id: Id, token: string | undefined): void {
    this.spares.push({ id, token, made: false })
  }

  /** Before a PATCH of the user or the team (no path parameters: nothing deletes them): what they say now, once per token. */
  async changing(op: OperationContract, token: string | undefined): Promise<void> {
    if (op.method !== 'PATCH' || op.pathParams.length > 0) return
    const key = `${op.path} ${token ?? ''}`
    if (this.before.has(key)) return
    const answer = (await this.http.send('GET', `${this.base}${op.path}`, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } })).answer
    if (answer?.status === 200 && isObject(answer.body)) this.before.set(key, { path: op.path, token, body: answer.body, changed: new Set() })
  }

  /** After such a PATCH succeeded: the fields it changed, to be given back. */
  changed(op: OperationContract, body: unknown, token: string | undefined): void {
    const entry = this.before.get(`${op.path} ${token ?? ''}`)
    if (!entry || !isObject(body)) return
    for (const field of Object.keys(body)) if (field in entry.body) entry.changed.add(field)
  }

  /** Takes back what the scenario made and changed; answers what is left, and why. */
  async takeBack(): Promise<LeftBehind[]> {
    const left: LeftBehind[] = []
    const refused: Made[] = []
    for (const made of [...this.made].reverse()) {
      if (!made.undo) continue
      const status = await this.status('DELETE', made.undo, made.token)
      if (status !== undefined && status !== 404 && (status < 200 || status >= 300)) refused.push(made)
    }
    for (const made of refused) {
      const status = await this.status('DELETE', made.undo as string, made.owner ?? made.token)
      if (status !== undefined && status !== 404 && (status < 200 || status >= 300)) left.push({ what: made.what, why: `DELETE ${made.undo as string} answered ${status}` })
      else if (status === undefined) left.push({ what: made.what, why: `DELETE ${made.undo as string} got no answer` })
    }
    for (const { id, token, made } of this.spares) {
      const stays = await this.spareOrganisations.release(id, token, made)
      if (stays) left.push(stays)
    }
    for (const { path, token, body, changed } of this.before.values()) {
      if (changed.size === 0) continue
      const restore = Object.fromEntries([...changed].map((field) => [field, body[field]]))
      const status = await this.status('PATCH', path, token, restore)
      if (status !== 200) left.push({ what: `${path.slice(1)}: ${[...changed].join(', ')}`, why: `changed by the scenario; PATCH ${path} to restore it answered ${status ?? 'nothing'}` })
    }
    for (const made of this.made) {
      if (!made.check) continue
      const status = await this.status('GET', made.check, made.owner ?? made.token)
      if (status !== 404) left.push({ what: made.what, why: `the API cannot delete it, and it did not go with its client (GET ${made.check} answered ${status ?? 'nothing'})` })
    }
    if (this.debits > 0) left.push({ what: `${this.debits} credit history ${this.debits === 1 ? 'entry' : 'entries'}`, why: 'the debits of paid check steps: the team\'s credit history keeps every entry' })
    return left
  }

  /** What the scenario made, kept as it is (--keep). */
  kept(): LeftBehind[] {
    const left: LeftBehind[] = [...this.made.map(({ what }) => what), ...this.spares.filter(({ made }) => made).map(({ id }) => `organisation ${String(id)}`)].map((what) => ({ what, why: 'kept (--keep)' }))
    for (const { id } of this.spares.filter(({ made }) => !made)) left.push({ what: `organisation ${String(id)}`, why: 'kept (--keep) as the scenario left it: a spare an earlier run made, reused' })
    if (this.debits > 0) left.push({ what: `${this.debits} credit history ${this.debits === 1 ? 'entry' : 'entries'}`, why: "the debits of paid check steps: the team's credit history keeps every entry" })
    return left
  }

  private async status(method: string, path: string, token: string | undefined, body?: unknown): Promise<number | undefined> {
    const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    return (await this.http.send(method, `${this.base}${path}`, { headers, body: body === undefined ? undefined : JSON.stringify(body) })).answer?.status
  }
}

/** A run's residue in a few lines: entries with the same reason as one, credit entries counted together. */
export function mergeLeftBehind(entries: LeftBehind[]): LeftBehind[] {
  const byWhy = new Map<string, string[]>()
  for (const { what, why } of entries) byWhy.set(why, [...(byWhy.get(why) ?? []), what])
  return [...byWhy].map(([why, whats]) => {
    const counted = whats.map((what) => /^(\d+) credit history entr(y|ies)$/.exec(what))
    if (counted.every(Boolean)) {
      const total = counted.reduce((sum, match) => sum + Number(match?.[1]), 0)
      return { what: `${total} credit history ${total === 1 ? 'entry' : 'entries'}`, why }
    }
    return { what: whats.join(', '), why }
  })
}
