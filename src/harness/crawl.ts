// `verify --read-only` crawls the team as it is, with GET requests only: every list and singleton,
// then items of those lists, their sub-resources and downloads, each answer judged by its contract.
// What it reads next comes from what it has read (a client's id from GET /clients, a form's
// reference and client from GET /forms); where the team holds nothing an operation could answer
// about (no webhook, no completed form), its step is skipped saying so. Every GET operation of the
// contracts has its way here (test/harness/lived-in.test.ts fails for one the seeded team does not reach).
import type { AjvContracts } from '../contracts/ajv.ts'
import type { OperationContract } from '../contracts/load.ts'
import type { Conformance } from './conformance.ts'
import type { HttpClient } from './http.ts'
import type { ScenarioReport, StepReport } from './report.ts'

type Item = Record<string, unknown>
type Params = Record<string, unknown>

/** How an operation with path parameters is reached from the answers of another. */
export interface Reach {
  /** The operation whose answers (the items of a list, or the object of a singleton) name the parameters. */
  from: string
  /** The parameters one item gives (several for an item holding several: a record's checks), with the parameters it was read with. */
  params: (item: Item, parent: Params) => Params | Params[] | undefined
  /** What an item must be for the operation to have something to answer; `what` says what the team lacks otherwise. */
  needs?: { test: (item: Item) => boolean; what: string }
  /** Items tried first: those likely to give a list with data. */
  prefer?: (item: Item) => boolean
}

const isObject = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value)
const present = (value: unknown) => value !== null && value !== undefined && value !== false
const idOf = (value: unknown) => (isObject(value) ? value.id : value)

/** Operations with path parameters, in the order they are reached (each after its `from`). */
export const REACH: Record<string, Reach> = {
  'clients.get': { from: 'clients.list', params: (client) => ({ id: client.id }) },
  'clients.address.get': { from: 'clients.list', params: (client) => ({ id: client.id }), prefer: (client) => isObject(client.address) },
  'clients.assignees.list': { from: 'clients.list', params: (client) => ({ id: client.id }), prefer: (client) => present(client.assignees) },
  'clients.organisations.list': { from: 'organisations.list', params: (organisation) => (Array.isArray(organisation.clients) ? organisation.clients.map((id) => ({ id })) : undefined) },
  'clients.records.list': { from: 'records.list', params: (record) => ({ id: idOf(record.client) }) },
  'clients.corrections.list': { from: 'records.list', params: (record) => ({ id: idOf(record.client) }), prefer: (record) => record.status === 'amendments' },
  'clients.forms.list': { from: 'forms.list', params: (form) => (present(form.client) ? { id: idOf(form.client) } : undefined) },
  'clients.forms.get': { from: 'forms.list', params: (form) => (present(form.client) ? { id: idOf(form.client), reference: form.reference } : undefined) },
  'clients.forms.download': {
    from: 'forms.list',
    params: (form) => (present(form.client) ? { id: idOf(form.client), reference: form.reference } : undefined),
    needs: { test: (form) => present(form.completed_at), what: 'the team has no completed form (GET /forms)' },
  },
  'clients.files.list': { from: 'files.list', params: (file) => clientOfFile(file) },
  'clients.files.download': {
    from: 'clients.files.list',
    params: (file, parent) => ({ clientId: parent.id, fileId: file.id }),
    needs: { test: (file) => isObject(file.attachment) && file.attachment.av_status === 'clean', what: 'no client file scanned clean (GET /clients/{id}/files)' },
  },
  'organisations.get': { from: 'organisations.list', params: (organisation) => ({ id: organisation.id }) },
  'organisations.clients.list': { from: 'organisations.list', params: (organisation) => ({ id: organisation.id }), prefer: (organisation) => present(organisation.clients) },
  'organisations.assignees.list': { from: 'organisations.list', params: (organisation) => ({ id: organisation.id }), prefer: (organisation) => present(organisation.assignees) },
  'records.get': { from: 'records.list', params: (record) => ({ id: record.id }) },
  'records.download': { from: 'records.list', params: (record) => ({ id: record.id }), prefer: (record) => ['complete', 'reviewed'].includes(String(record.status)) },
  'records.steps.list': { from: 'records.list', params: (record) => ({ id: record.id }) },
  'records.documents.list': { from: 'records.list', params: (record) => ({ id: record.id }), prefer: (record) => stepsOf(record).some((step) => present(step.document)) },
  'records.assignees.list': { from: 'records.list', params: (record) => ({ id: record.id }), prefer: (record) => present(record.assignees) },
  'records.steps.reviews.list': { from: 'records.steps.list', params: (step, parent) => ({ recordId: parent.id, stepId: step.id }), prefer: (step) => present(step.review) },
  'checks.get': { from: 'records.list', params: (record) => stepsOf(record).filter((step) => present(step.check)).map((step) => ({ id: idOf(step.check) })) },
  'cases.get': { from: 'cases.list', params: (item) => ({ id: item.id }) },
  'cases.items.list': { from: 'cases.list', params: (item) => ({ id: item.id }), prefer: (item) => present(item.items) },
  'cases.reviews.list': { from: 'cases.list', params: (item) => ({ id: item.id }), prefer: (item) => item.status !== 'action_required' },
  'cases.assignees.list': { from: 'cases.list', params: (item) => ({ id: item.id }), prefer: (item) => present(item.assignees) },
  'formTemplates.get': { from: 'formTemplates.list', params: (template) => ({ reference: template.reference }) },
  'webhooks.get': { from: 'webhooks.list', params: (webhook) => ({ id: webhook.id }) },
  'webhooks.deliveries.list': { from: 'webhooks.list', params: (webhook) => ({ id: webhook.id }) },
  'teams.members.list': { from: 'me.teams.list', params: (team) => ({ teamId: team.id }) },
  'teams.members.get': { from: 'teams.members.list', params: (member, parent) => ({ teamId: parent.teamId, teamMemberId: member.id }) },
}

function stepsOf(record: Item): Item[] {
  return Array.isArray(record.steps) ? record.steps.filter(isObject) : []
}

/** The client a team file belongs to, where the file says it: its source is the client, or the client uploaded it. */
function clientOfFile(file: Item): Params | undefined {
  const source = file.source
  if (isObject(source) && source.type === 'client') return { id: source.id }
  const creator = file.created_by
  if (isObject(creator) && creator.type === 'client') return { id: creator.id }
  return undefined
}

/** Answers read per operation: a few items of each list, more for a list that answered empty. */
const SAMPLE = 3
const MAX_TRIES = 10

export interface CrawlOptions {
  http: HttpClient
  base: string
  token: string
  contracts: AjvContracts
  conformance: Conformance
}

interface Read {
  params: Params
  body: unknown
}

const fill = (op: OperationContract, params: Params) => op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])))

/** The crawl as one report: a step per request, a skipped step per operation the team has no data for. */
export async function crawl({ http, base, token, contracts, conformance }: CrawlOptions): Promise<ScenarioReport> {
  const began = performance.now()
  const steps: StepReport[] = []
  const reads = new Map<string, Read[]>()
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` }

  const get = async (op: OperationContract, params: Params, query: Record<string, string>): Promise<unknown> => {
    const search = new URLSearchParams(query)
    const url = `${base}${fill(op, params)}${search.size > 0 ? `?${search.toString()}` : ''}`
    const started = performance.now()
    const exchange = await http.send('GET', url, { headers })
    const step: StepReport = { name: `${op.id} ${url.slice(base.length)}`, kind: 'operation', operationId: op.id, method: 'GET', url, request: exchange.requestExcerpt, status: exchange.answer?.status, outcome: 'passed', failures: [], durationMs: 0 }
    if (!exchange.answer) step.failures.push(`no answer: ${exchange.error ?? 'unknown error'}`)
    else {
      const answer = exchange.answer
      step.response = `${answer.status} ${answer.text.length > 500 ? `${answer.text.slice(0, 500)}…` : answer.text}`.trim()
      for (const violation of conformance.checkResponse(op, answer)) step.failures.push(`contract of ${op.id}: ${violation.at}: ${violation.message}`)
    }
    step.outcome = step.failures.length > 0 ? 'failed' : 'passed'
    step.durationMs = Math.round(performance.now() - started)
    steps.push(step)
    const answer = exchange.answer
    if (answer?.status !== 200) return undefined
    reads.set(op.id, [...(reads.get(op.id) ?? []), { params, body: answer.body }])
    return answer.body
  }
  const skip = (op: OperationContract, reason: string) =>
    steps.push({ name: op.id, kind: 'operation', operationId: op.id, method: 'GET', outcome: 'skipped', failures: [], skipReason: `no data in the team: ${reason}`, skipKind: 'data', durationMs: 0 })

  const gets = [...contracts.operations.values()].filter((op) => op.surface === 'api' && op.method === 'GET')
  // Lists and singletons: a page of 100 to read items from; an expanded page more, judged too.
  for (const op of gets.filter((candidate) => candidate.pathParams.length === 0)) {
    await get(op, {}, op.paged ? { limit: '100' } : {})
    if (op.expand.length > 0) await get(op, {}, { expand: op.expand.join(',') })
  }
  for (const [id, reach] of Object.entries(REACH)) {
    const op = contracts.operation(id)
    const candidates: Params[] = []
    const preferred: Params[] = []
    let lacking = 0
    for (const read of reads.get(reach.from) ?? []) {
      const items = Array.isArray((read.body as { data?: unknown } | undefined)?.data) ? ((read.body as { data: unknown[] }).data) : [read.body]
      for (const item of items.filter(isObject)) {
        if (reach.needs && !reach.needs.test(item)) {
          lacking++
          continue
        }
        const given = reach.params(item, read.params)
        for (const params of [given ?? []].flat()) {
          const key = JSON.stringify(params)
          if ([...candidates, ...preferred].some((known) => JSON.stringify(known) === key)) continue
          ;(reach.prefer?.(item) ? preferred : candidates).push(params)
        }
      }
    }
    const queue = [...preferred, ...candidates]
    if (queue.length === 0) {
      const from = contracts.operation(reach.from)
      skip(op, reach.needs && lacking > 0 ? reach.needs.what : `${from.method} ${from.path} answered nothing to read ${op.path} of`)
      continue
    }
    const query: Record<string, string> = op.expand.length > 0 ? { expand: op.expand.join(',') } : {}
    let read = 0
    let withData = 0
    for (const params of queue) {
      if (withData >= SAMPLE || read >= MAX_TRIES || (!op.paged && read >= SAMPLE)) break
      const body = await get(op, params, query)
      read++
      const data = (body as { data?: unknown } | undefined)?.data
      if (!op.paged || (Array.isArray(data) && data.length > 0)) withData++
    }
  }
  return { ...crawlReport(steps.some((step) => step.outcome === 'failed') ? 'failed' : 'passed'), steps, durationMs: Math.round(performance.now() - began) }
}

/** The crawl's report, its steps to come. */
function crawlReport(outcome: ScenarioReport['outcome']): ScenarioReport {
  return {
    name: 'The team as it is, crawled with GET requests',
    file: '(crawl)',
    description: 'verify --read-only: every list, then items, sub-resources and downloads the team holds, each answer judged by its contract; nothing is changed.',
    tags: ['crawl'],
    outcome,
    failures: [],
    steps: [],
    leftBehind: [],
    durationMs: 0,
  }
}

/** The crawl not run: no token to read a team with. */
export function crawlWithoutToken(): ScenarioReport {
  const reason = 'needs a token to read the team with (--token <token> or IVS_TOKEN_OWNER)'
  return { ...crawlReport('skipped'), skipReason: reason, skipKind: 'token' }
}
