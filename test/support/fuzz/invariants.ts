// After a run that changed something, the world must still hang together, as seen through the API
// (the caller's team, as its owner): every list's total is what walking all its pages finds, with no
// item twice; a listed item answers GET by id with the same body; a client's records are the
// records of /records that name it, and its organisations those whose clients include it; a case's
// items point at records that exist and match its item list; a resource's embedded ids match its
// own lists; the case status counts match the cases.
import { isDeepStrictEqual } from 'node:util'
import type { ApiClient } from '../api.ts'
import { contracts } from '../contracts.ts'
import type { FuzzWorld } from './world.ts'

/** The API's paged lists that need no path id: walked whole on every check. */
const TOP_LISTS = [...contracts.operations.values()].filter((op) => op.surface === 'api' && op.paged && op.pathParams.length === 0).map((op) => op.path)

/** The list and get of a resource whose list items are the same objects as its get answers. */
const SAME_AS_GET: Record<string, (item: any) => string> = {
  '/clients': (item) => `/clients/${item.id}`,
  '/organisations': (item) => `/organisations/${item.id}`,
  '/records': (item) => `/records/${item.id}`,
  '/cases': (item) => `/cases/${item.id}`,
  '/webhooks': (item) => `/webhooks/${item.id}`,
  '/form-templates': (item) => `/form-templates/${item.reference}`,
}

export class Inconsistency extends Error {}

function fail(message: string): never {
  throw new Inconsistency(message)
}

/** Walks every page of a list with `limit` items a page; checks the pages agree with each other. */
export async function walk(api: ApiClient, path: string, limit: number, query: Record<string, string> = {}): Promise<any[]> {
  const items: any[] = []
  let total: number | undefined
  for (let page = 1; page <= 1000; page++) {
    const res = await api.get(path, { ...query, page, limit })
    if (res.status !== 200) fail(`GET ${path} page ${page} answered ${res.status}: ${res.text.slice(0, 300)}`)
    const body = res.body
    total ??= body.total as number
    const where = `GET ${path}?limit=${limit}&page=${page}`
    if (body.total !== total) fail(`${where}: total ${body.total} after ${total} on page 1`)
    if (body.count !== body.data.length) fail(`${where}: count ${body.count} but ${body.data.length} items`)
    if (body.current_page !== page) fail(`${where}: current_page ${body.current_page}`)
    const pages = Math.max(1, Math.ceil(total / limit))
    if (body.total_pages !== pages) fail(`${where}: total_pages ${body.total_pages}, expected ${pages} for ${total} items`)
    if ((body.links === null) !== (pages === 1)) fail(`${where}: links ${JSON.stringify(body.links)} with ${pages} page(s)`)
    items.push(...body.data)
    if (page >= pages) break
  }
  if (items.length !== total) fail(`GET ${path}: total ${total} but ${items.length} items on its pages (limit ${limit})`)
  const keys = items.map((item) => (item && typeof item === 'object' && 'id' in item ? `${item.object ?? ''}:${item.id}` : JSON.stringify(item)))
  const twice = keys.find((key, index) => keys.indexOf(key) !== index)
  if (twice !== undefined) fail(`GET ${path}: ${twice} listed twice (limit ${limit})`)
  return items
}

const idOf = (value: any): number => (typeof value === 'object' && value !== null ? value.id : value)
const sorted = (values: Iterable<number>) => [...values].sort((a, b) => a - b)
const sameSet = (a: Iterable<number>, b: Iterable<number>) => isDeepStrictEqual(sorted(a), sorted(b))

/**
 * Checks the caller's team hangs together. `limit` is the page size lists are walked with; `pick`
 * chooses which items of each list are fetched by id, and which clients, organisations, records
 * and cases get their own lists walked (all of them would cost a request or more each; the choice
 * changes from run to run).
 */
export async function checkWorld(world: FuzzWorld, limit: number, pick: (count: number) => number[]): Promise<void> {
  const api = world.api('own')
  const lists = new Map<string, any[]>()
  for (const path of TOP_LISTS) lists.set(path, await walk(api, path, limit))

  for (const [path, getPath] of Object.entries(SAME_AS_GET)) {
    const items = lists.get(path) ?? []
    for (const item of pick(items.length).map((index) => items[index])) {
      const res = await api.get(getPath(item))
      if (res.status !== 200) fail(`GET ${getPath(item)} answered ${res.status} for an item GET ${path} lists`)
      if (!isDeepStrictEqual(res.body, item)) fail(`GET ${getPath(item)} differs from its item in GET ${path}:\n  get:  ${res.text.slice(0, 600)}\n  list: ${JSON.stringify(item).slice(0, 600)}`)
    }
  }
  const teamId = world.template.own.id
  const members = lists.get('/team/members') ?? []
  for (const member of pick(members.length).map((index) => members[index])) {
    const res = await api.get(`/teams/${teamId}/members/${member.id}`)
    if (res.status !== 200 || !isDeepStrictEqual(res.body, member)) fail(`GET /teams/${teamId}/members/${member.id} (${res.status}) differs from GET /team/members`)
  }

  const clients = lists.get('/clients') ?? []
  const records = lists.get('/records') ?? []
  const organisations = lists.get('/organisations') ?? []
  const cases = lists.get('/cases') ?? []
  const recordIds = new Set(records.map((record) => record.id as number))

  const aggregate = await api.get('/aggregates/case-status')
  for (const { status, count } of aggregate.body.aggregates as Array<{ status: string; count: number }>) {
    const counted = cases.filter((kase) => kase.status === status).length
    if (count !== counted) fail(`GET /aggregates/case-status counts ${count} ${status} cases, GET /cases lists ${counted}`)
  }

  const membersOf = new Map<number, Set<number>>()
  for (const index of pick(organisations.length)) {
    const organisation = organisations[index]
    const members = await walk(api, `/organisations/${organisation.id}/clients`, limit)
    membersOf.set(organisation.id, new Set(members.map((client) => client.id as number)))
    if (members.length <= 25 && organisation.clients !== null && !sameSet(organisation.clients.map(idOf), membersOf.get(organisation.id) ?? [])) {
      fail(`organisation ${organisation.id} names clients ${JSON.stringify(organisation.clients)}, GET /organisations/${organisation.id}/clients lists ${sorted(membersOf.get(organisation.id) ?? []).join(', ')}`)
    }
    const assignees = await walk(api, `/organisations/${organisation.id}/assignees`, limit)
    if (!sameSet((organisation.assignees ?? []).map(idOf), assignees.map((assignee) => assignee.team_member.id))) {
      fail(`organisation ${organisation.id} names assignees ${JSON.stringify(organisation.assignees)}, its assignees list has ${JSON.stringify(assignees.map((assignee) => assignee.team_member.id))}`)
    }
  }

  for (const index of pick(clients.length)) {
    const client = clients[index]
    const own = await walk(api, `/clients/${client.id}/records`, limit)
    const expected = records.filter((record) => idOf(record.client) === client.id).map((record) => record.id as number)
    if (!sameSet(own.map((record) => record.id), expected)) fail(`GET /clients/${client.id}/records lists ${JSON.stringify(own.map((r) => r.id))}, GET /records has ${JSON.stringify(expected)} for the client`)
    const theirs = await walk(api, `/clients/${client.id}/organisations`, limit)
    for (const [organisation, members] of membersOf) {
      const listed = theirs.some((item) => item.id === organisation)
      if (listed !== members.has(client.id)) fail(`client ${client.id} ${listed ? 'lists' : 'does not list'} organisation ${organisation}, whose clients ${members.has(client.id) ? 'include' : 'do not include'} it`)
    }
    for (const child of ['assignees', 'files', 'forms', 'corrections']) await walk(api, `/clients/${client.id}/${child}`, limit)
  }

  for (const index of pick(records.length)) {
    const record = records[index]
    const steps = await walk(api, `/records/${record.id}/steps`, limit)
    if (!sameSet(steps.map((step) => step.id), (record.steps ?? []).map(idOf))) fail(`record ${record.id} names steps ${JSON.stringify(record.steps)}, GET /records/${record.id}/steps lists ${JSON.stringify(steps.map((s) => s.id))}`)
    for (const child of ['assignees', 'documents']) await walk(api, `/records/${record.id}/${child}`, limit)
  }

  for (const index of pick(cases.length)) {
    const kase = cases[index]
    const items = await walk(api, `/cases/${kase.id}/items`, limit)
    if (!sameSet(items.map((item) => item.id), (kase.items ?? []).map(idOf))) fail(`case ${kase.id} names items ${JSON.stringify(kase.items)}, GET /cases/${kase.id}/items lists ${JSON.stringify(items.map((i) => i.id))}`)
    for (const item of items) {
      const record = idOf(item.entity)
      if (!recordIds.has(record)) {
        const res = await api.get(`/records/${record}`)
        if (res.status !== 200) fail(`case ${kase.id} item ${item.id} points at record ${record}, which answers ${res.status}`)
      }
    }
    if (!clients.some((client) => client.id === idOf(kase.client))) fail(`case ${kase.id} belongs to client ${JSON.stringify(kase.client)}, which GET /clients does not list`)
    const assignees = await walk(api, `/cases/${kase.id}/assignees`, limit)
    if (!sameSet((kase.assignees ?? []).map(idOf), assignees.map((assignee) => assignee.team_member.id))) fail(`case ${kase.id} names assignees ${JSON.stringify(kase.assignees)}, its assignees list has ${JSON.stringify(assignees.map((a) => a.team_member.id))}`)
    await walk(api, `/cases/${kase.id}/reviews`, limit)
  }
}
