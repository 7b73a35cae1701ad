// The list indexes (the clients' search trigrams, the records by status, the active and archived
// parts, the clients by status, reference and deletion date, the parts by assignee, the records by
// maker and by their client's visibility, the stored order of the default lists) answer exactly
// what a scan of every row would: after changes that move a row in or out of them (a name, status,
// reference or deletion date changed, a client deleted or archived, a correction accepted, a step
// completed, assignees added, replaced or removed, the clock passing an expiry or set back, a
// snapshot restored), and over seeded random runs of such changes against a brute-force answer.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../support/api.ts'
import { createTestMock, type TestMock } from '../support/mock.ts'
import { ACCEPTED, upload } from '../support/uploads.ts'

const DAY_SECONDS = 86_400

/** The UTC date of a moment, as the API writes dates. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

type NewTeam = ReturnType<TestMock['newTeam']>

let emails = 0

async function createClient(api: ApiClient, first: string, last: string, extra: Record<string, unknown> = {}): Promise<number> {
  emails += 1
  const res = await api.post('/clients', { name: { first_name: first, last_name: last }, email: `indexed${emails}@example.com`, ...extra })
  expect(res.status, res.text).toBe(201)
  return res.body.id
}

/** Every page of a list, in order, with the total the first page gave. */
async function everyPage(api: ApiClient, path: string, query: Record<string, string | number> = {}): Promise<{ ids: number[]; total: number; rows: any[] }> {
  const rows: any[] = []
  let total = 0
  for (let page = 1; page <= 50; page++) {
    const res = await api.get(path, { ...query, limit: 100, page })
    expect(res.status, res.text).toBe(200)
    if (page === 1) total = res.body.total
    rows.push(...res.body.data)
    if (res.body.links === null || res.body.links.next === null) break
  }
  return { ids: rows.map((row) => row.id), total, rows }
}

const searchIds = async (api: ApiClient, search: string, sortBy = 'name.last_name') => (await everyPage(api, '/clients', { search, sort_by: sortBy })).ids

async function createRecord(api: ApiClient, client: number): Promise<number> {
  const res = await api.post('/records', { client, steps: [{ type: 'check.identity' }], notification: false })
  expect(res.status, res.text).toBe(201)
  return res.body.id
}

const statusIds = async (api: ApiClient, status: string, query: Record<string, string> = {}) => (await everyPage(api, '/records', { status, ...query })).ids

/** What the status filter must give: every record whose presented status is `status`, in the list's order. */
async function statusByScan(api: ApiClient, status: string, query: Record<string, string> = {}): Promise<number[]> {
  const all = await everyPage(api, '/records', query)
  return all.rows.filter((record) => record.status === status).map((record) => record.id)
}

describe('the clients search index', () => {
  it('follows a PATCH of the name, a delete, and a correction accepted', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam()
    const api = team.api()
    const smith = await createClient(api, 'Ann', 'Smith')
    const jones = await createClient(api, 'Bob', 'Jones')
    const smithson = await createClient(api, 'Cy', 'Smithson')
    expect(await searchIds(api, 'smith')).toEqual([smith, smithson])

    expect((await api.patch(`/clients/${jones}`, { name: { last_name: 'Aasmith' } })).status).toBe(200)
    expect(await searchIds(api, 'smith')).toEqual([jones, smith, smithson])
    expect(await searchIds(api, 'jones')).toEqual([])

    expect((await api.patch(`/clients/${smith}`, { name: { last_name: 'Brown' } })).status).toBe(200)
    expect(await searchIds(api, 'smith')).toEqual([jones, smithson])
    expect(await searchIds(api, 'ann brown')).toEqual([smith])

    expect((await api.delete(`/clients/${smithson}`)).status).toBe(204)
    expect(await searchIds(api, 'smith')).toEqual([jones])

    // The client proposes another last name on a record; the team accepts it.
    const record = await createRecord(api, smith)
    expect((await mock.control.post(`/records/${record}/corrections`, { first_name: 'Ann', last_name: 'Zedsmith' })).status).toBe(201)
    const correction = (await api.get(`/clients/${smith}/corrections`)).body.data[0]
    expect((await api.patch(`/clients/${smith}/corrections/${correction.id}`, { status: 'accepted' })).status).toBe(200)
    expect(await searchIds(api, 'smith')).toEqual([jones, smith])
    expect(await searchIds(api, 'brown')).toEqual([])
  })

  it('matches a reference and an organisation name, and words shorter than three letters', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam()
    const api = team.api()
    const referenced = await createClient(api, 'Dee', 'Able', { reference: 'REF-991' })
    const member = await createClient(api, 'Eve', 'Baker')
    const organisation = await api.post('/organisations', { name: 'Smithfield Holdings' })
    expect(organisation.status, organisation.text).toBe(201)
    expect((await api.post(`/clients/${member}/organisations`, [organisation.body.id])).status).toBe(201)
    expect(await searchIds(api, 'ref-99')).toEqual([referenced])
    expect(await searchIds(api, 'smithfield eve')).toEqual([member])
    expect(await searchIds(api, 'ev ba')).toEqual([member])
    expect((await api.patch(`/organisations/${organisation.body.id}`, { name: 'Other Ltd' })).status).toBe(200)
    expect(await searchIds(api, 'smithfield')).toEqual([])
  })

  it('keeps the sort order by last name after a PATCH moves a client, with a search and without', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const a = await createClient(api, 'Al', 'Adams')
    const b = await createClient(api, 'Bo', 'Baker')
    const c = await createClient(api, 'Cy', 'Carter')
    expect(await searchIds(api, 'a')).toEqual([a, b, c])
    expect((await everyPage(api, '/clients', { sort_by: 'name.last_name' })).ids).toEqual([a, b, c])
    expect((await api.patch(`/clients/${a}`, { name: { last_name: 'Zane' } })).status).toBe(200)
    expect(await searchIds(api, 'a')).toEqual([b, c, a])
    // The list by last name without a search: the index of clients by name moves the client too.
    expect((await everyPage(api, '/clients', { sort_by: 'name.last_name' })).ids).toEqual([b, c, a])
    expect((await everyPage(api, '/clients', { sort_by: 'name.last_name', order_by: 'desc' })).ids).toEqual([a, c, b])
  })
})

describe('the records status index', () => {
  it('follows a completed record, a result coming back, an expiry the clock passes, and a snapshot restored', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam()
    const api = team.api()
    const client = await createClient(api, 'Fay', 'Green')
    const first = await createRecord(api, client)
    const second = await createRecord(api, client)
    expect(await statusIds(api, 'pending')).toEqual([first, second])

    const snapshot = await mock.control.post(`/teams/${team.team.id}/snapshots`, {})
    expect(snapshot.status).toBe(201)

    expect((await mock.control.post(`/records/${first}/complete`, {})).status).toBe(200)
    expect(await statusIds(api, 'pending')).toEqual([second])
    expect(await statusIds(api, 'waiting')).toEqual([first])

    // The check's result comes back after the check delay: waiting -> complete.
    expect((await mock.control.post('/clock/advance', { seconds: 120 })).status).toBe(200)
    expect(await statusIds(api, 'waiting')).toEqual([])
    expect(await statusIds(api, 'complete')).toEqual([first])

    // The second record expires with its step left: pending -> empty.
    expect((await mock.control.post('/clock/advance', { seconds: 31 * DAY_SECONDS })).status).toBe(200)
    expect(await statusIds(api, 'pending')).toEqual([])
    expect(await statusIds(api, 'empty')).toEqual([second])
    expect(await statusIds(api, 'empty', { order_by: 'desc' })).toEqual([second])

    expect((await mock.control.post(`/teams/${team.team.id}/restore`, { snapshot: snapshot.body.id })).status).toBe(200)
    for (const status of ['pending', 'waiting', 'complete', 'empty']) expect(await statusIds(api, status)).toEqual(await statusByScan(api, status))
  })
})

describe('the default lists, stored rows in their sort order', () => {
  it('list clients by id both ways, deletes and filters included', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const made = [await createClient(api, 'Al', 'Adams'), await createClient(api, 'Bo', 'Baker'), await createClient(api, 'Cy', 'Carter'), await createClient(api, 'Di', 'Dunn')]
    expect((await api.delete(`/clients/${made[1]}`)).status).toBe(204)
    const kept = [made[0], made[2], made[3]] as number[]
    expect(await everyPage(api, '/clients')).toMatchObject({ ids: kept, total: 3 })
    expect((await everyPage(api, '/clients', { order_by: 'desc' })).ids).toEqual([...kept].reverse())
    const page = await api.get('/clients', { limit: 1, page: 2, order_by: 'desc' })
    expect(page.body).toMatchObject({ total: 3, data: [{ id: made[2] }] })
    expect((await everyPage(api, '/clients', { visibility: 'active', sort_by: 'created_at', order_by: 'desc' })).ids).toEqual([...kept].reverse())
  })

  it('list records by created_at, and sort again once one was made after the clock was set back', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const client = await createClient(api, 'Fay', 'Green')
    const first = await createRecord(api, client)
    mock.clock.advance(60_000)
    const second = await createRecord(api, client)
    expect(await everyPage(api, '/records')).toMatchObject({ ids: [first, second], total: 2 })
    expect((await everyPage(api, '/records', { order_by: 'desc' })).ids).toEqual([second, first])

    mock.clock.advance(-3_600_000)
    const earliest = await createRecord(api, client)
    expect(await everyPage(api, '/records')).toMatchObject({ ids: [earliest, first, second], total: 3 })
    expect((await everyPage(api, '/records', { order_by: 'desc' })).ids).toEqual([second, first, earliest])
    expect((await everyPage(api, '/records', { visibility: 'active' })).ids).toEqual([earliest, first, second])
  })
})

describe('the visibility filter, by the active and archived parts', () => {
  it('follows clients archived, unarchived and deleted, and records archived and unarchived, both ways', async () => {
    const mock = createTestMock()
    const api = mock.newTeam().api()
    const clients = [await createClient(api, 'Al', 'Adams'), await createClient(api, 'Bo', 'Baker'), await createClient(api, 'Cy', 'Carter'), await createClient(api, 'Di', 'Dunn')] as number[]
    const records = [await createRecord(api, clients[0] as number), await createRecord(api, clients[0] as number), await createRecord(api, clients[2] as number)] as number[]
    // The answer of a scan: every row of the unfiltered list whose archived_at says so, in its order.
    const scan = async (path: string, visibility: string, order = 'asc') =>
      (await everyPage(api, path, { order_by: order })).rows.filter((row) => (row.archived_at !== null) === (visibility === 'archived')).map((row) => row.id)
    const expectBoth = async () => {
      for (const path of ['/clients', '/records'])
        for (const visibility of ['active', 'archived'])
          for (const order of ['asc', 'desc']) {
            const listed = await everyPage(api, path, { visibility, order_by: order })
            expect(listed.ids, `${path} ${visibility} ${order}`).toEqual(await scan(path, visibility, order))
            expect(listed.total).toBe(listed.ids.length)
          }
    }
    await expectBoth()
    expect((await mock.control.post(`/clients/${clients[1]}/archive`, {})).status).toBe(204)
    expect((await mock.control.post(`/clients/${clients[3]}/archive`, {})).status).toBe(204)
    expect((await api.patch(`/records/${records[1]}`, { is_archived: true })).status).toBe(200)
    expect((await everyPage(api, '/clients', { visibility: 'archived' })).ids).toEqual([clients[1], clients[3]])
    expect((await everyPage(api, '/records', { visibility: 'active' })).ids).toEqual([records[0], records[2]])
    await expectBoth()
    expect((await mock.control.post(`/clients/${clients[1]}/unarchive`, {})).status).toBe(204)
    expect((await api.delete(`/clients/${clients[3]}`)).status).toBe(204)
    expect((await api.patch(`/records/${records[1]}`, { is_archived: false })).status).toBe(200)
    expect((await everyPage(api, '/clients', { visibility: 'active' })).ids).toEqual([clients[0], clients[1], clients[2]])
    expect((await everyPage(api, '/clients', { visibility: 'archived' })).ids).toEqual([])
    await expectBoth()
  })
})

describe('lists by created_at kept in order apart from the table (credits, forms) and files by id', () => {
  /** created_at, then id: the lists' order for timestamps of the mock's one shape. */
  const byCreation = (a: any, b: any) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id)

  it('answer what sorting every row gives, both ways, after new rows and a deleted client', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam({ generate: { clients: 30, records: 40, credit_entries: 20 } })
    const api = team.api()
    const expectLists = async () => {
      const credits = team.team.credits.all().map((row) => ({ id: row.id, created_at: row.created_at }))
      for (const order of ['asc', 'desc']) {
        const sorted = [...credits].sort(byCreation).map((row) => row.id)
        expect((await everyPage(api, '/credits', { order_by: order })).ids, `credits ${order}`).toEqual(order === 'asc' ? sorted : sorted.reverse())
        const forms = (await everyPage(api, '/forms', { sort_by: 'updated_at' })).rows
        const formsSorted = [...forms].sort(byCreation).map((row) => row.id)
        expect((await everyPage(api, '/forms', { order_by: order })).ids, `forms ${order}`).toEqual(order === 'asc' ? formsSorted : formsSorted.reverse())
        const internal = [...forms].filter((form) => form.type === 'internal').sort(byCreation).map((row) => row.id)
        expect((await everyPage(api, '/forms', { order_by: order, type: 'internal' })).ids, `internal forms ${order}`).toEqual(order === 'asc' ? internal : internal.reverse())
        const files = (await everyPage(api, '/files', { sort_by: 'created_at' })).rows.map((row) => row.id).sort((a, b) => a - b)
        expect((await everyPage(api, '/files', { order_by: order })).ids, `files ${order}`).toEqual(order === 'asc' ? files : files.reverse())
      }
    }
    // A generated team's charges come after purchases dated later: the credits table is out of order.
    const stored = team.team.credits.all()
    expect(stored.some((row, index) => index > 0 && byCreation(stored[index - 1], row) > 0)).toBe(true)
    await expectLists()
    const client = await createClient(api, 'Gil', 'Hart')
    await createRecord(api, client)
    const someone = (await everyPage(api, '/clients')).rows.find((row) => row.is_deletable && row.id !== client) as { id: number }
    expect((await api.delete(`/clients/${someone.id}`)).status).toBe(204)
    await expectLists()
  })

  it('order a created_at of another shape as the sort does', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam({ generate: { credit_entries: 5 } })
    const api = team.api()
    await everyPage(api, '/credits')
    // A lower-case t: the sort (case-insensitive) puts it first, the characters' order ("t" after "T") last.
    team.team.credits.insert({ id: mock.store.nextId('credit'), credits: 5, reason: 'Goodwill adjustment', causer: null, created_at: '2020-01-01T00:00:01Z' })
    team.team.credits.insert({ id: mock.store.nextId('credit'), credits: 5, reason: 'Goodwill adjustment', causer: null, created_at: '2020-01-01t00:00:00Z' })
    // Such a row (a data file edited by hand) breaks the contract's timestamp, so the answer is read
    // as it comes, not through the contract-checking client: what matters here is its order.
    const res = await mock.app.request('http://localhost/api/v2/credits?limit=2', { headers: { Authorization: `Bearer ${team.tokens.owner}` } })
    expect(res.status).toBe(200)
    const listed = ((await res.json()) as { data: Array<{ created_at: string }> }).data
    expect(listed.map((row) => row.created_at)).toEqual(['2020-01-01t00:00:00Z', '2020-01-01T00:00:01Z'])
  })
})

/** The ids of the clients `user` is assigned to, by asking each of the team's clients for its assignees (no index). */
async function assignedByScan(api: ApiClient, user: number): Promise<number[]> {
  const assigned: number[] = []
  for (const id of (await everyPage(api, '/clients')).ids) {
    const res = await api.get(`/clients/${id}/assignees`, { limit: 100 })
    expect(res.status, res.text).toBe(200)
    if (res.body.data.some((row: { team_member: { id: number } }) => row.team_member.id === user)) assigned.push(id)
  }
  return assigned
}

describe('the index by assignee', () => {
  it('follows assignees added, replaced, removed and removed all at once: the assignee filter and an assigned-only member\'s lists', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam()
    const api = team.api()
    const own = team.api('assigned-only')
    const member = team.users.member.id
    const assignedOnly = team.users['assigned-only'].id
    const clients = [await createClient(api, 'Ann', 'Able'), await createClient(api, 'Bob', 'Baker'), await createClient(api, 'Cy', 'Cole')]
    const records = [await createRecord(api, clients[0] as number), await createRecord(api, clients[1] as number), await createRecord(api, clients[2] as number)]
    const lists = async () => ({
      own: (await everyPage(own, '/clients')).ids,
      ownDesc: (await everyPage(own, '/clients', { order_by: 'desc' })).ids,
      members: (await everyPage(api, '/clients', { assignee: member })).ids,
      ownRecords: (await everyPage(own, '/records')).ids,
      memberRecords: (await everyPage(api, '/records', { assignee: member })).ids,
      pendingOwnRecords: (await everyPage(own, '/records', { status: 'pending' })).ids,
    })
    // Asked for first: the index is built, and every change below moves rows in it.
    expect(await lists()).toEqual({ own: [], ownDesc: [], members: [], ownRecords: [], memberRecords: [], pendingOwnRecords: [] })

    const assign = (parent: string, users: number[]) => api.post(`/${parent}/assignees`, users.map((user) => ({ type: 'team_member', team_member: user })))
    expect((await assign(`clients/${clients[2]}`, [assignedOnly])).status).toBe(201)
    expect((await assign(`clients/${clients[0]}`, [assignedOnly, member])).status).toBe(201)
    expect((await assign(`records/${records[1]}`, [assignedOnly])).status).toBe(201)
    expect((await assign(`records/${records[2]}`, [member, assignedOnly])).status).toBe(201)
    expect(await lists()).toEqual({
      own: [clients[0], clients[2]],
      ownDesc: [clients[2], clients[0]],
      members: [clients[0]],
      ownRecords: [records[1], records[2]],
      memberRecords: [records[2]],
      pendingOwnRecords: [records[1], records[2]],
    })
    expect((await everyPage(api, '/clients', { assignee: assignedOnly, sort_by: 'name.last_name', order_by: 'desc' })).ids).toEqual([clients[2], clients[0]])

    // A replace that only takes an assignee away, one assignee deleted, and all of a record's.
    expect((await api.put(`/clients/${clients[0]}/assignees`, [{ type: 'team_member', team_member: member }])).status).toBe(204)
    const cole = (await api.get(`/clients/${clients[2]}/assignees`)).body.data[0].id
    expect((await api.delete(`/clients/${clients[2]}/assignees/${cole}`)).status).toBe(204)
    expect((await api.delete(`/records/${records[2]}/assignees`)).status).toBe(204)
    expect((await mock.control.post(`/records/${records[1]}/complete`, {})).status).toBe(200)
    expect(await lists()).toEqual({ own: [], ownDesc: [], members: [clients[0]], ownRecords: [records[1]], memberRecords: [], pendingOwnRecords: [] })
    expect(await assignedByScan(api, assignedOnly)).toEqual([])
    expect(await assignedByScan(api, member)).toEqual([clients[0]])

    // What an assigned-only member makes is assigned to them, and a client deleted leaves the index.
    const made = await createClient(own, 'Di', 'Dent')
    expect((await everyPage(own, '/clients')).ids).toEqual([made])
    expect((await own.delete(`/clients/${made}`)).status).toBe(204)
    expect((await everyPage(own, '/clients')).ids).toEqual([])
  })

  it('gives an assigned-only member of a generated team the clients, files and forms a scan gives, as clients are assigned and unassigned', async () => {
    const mock = createTestMock()
    const team: NewTeam = mock.newTeam({ generate: { clients: 30, records: 40 } })
    const api = team.api()
    const own = team.api('assigned-only')
    const user = team.users['assigned-only'].id
    const byCreation = (a: any, b: any) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id)
    const expectAssignedLists = async () => {
      const clients = await assignedByScan(api, user)
      expect((await everyPage(own, '/clients')).ids).toEqual(clients)
      expect((await everyPage(api, '/clients', { assignee: user })).ids).toEqual(clients)
      // Some were assigned when they were made (a random member each), archived since.
      const archived = (await everyPage(api, '/clients', { visibility: 'archived' })).ids.filter((id) => clients.includes(id))
      expect((await everyPage(own, '/clients', { visibility: 'archived', order_by: 'desc' })).ids).toEqual(archived.reverse())
      const files: number[] = []
      const forms: any[] = []
      for (const client of clients) {
        files.push(...(await everyPage(api, `/clients/${client}/files`)).ids)
        forms.push(...(await everyPage(api, `/clients/${client}/forms`)).rows)
      }
      files.sort((a, b) => a - b)
      expect((await everyPage(own, '/files')).ids).toEqual(files)
      expect((await everyPage(own, '/files', { order_by: 'desc' })).ids).toEqual([...files].reverse())
      expect((await everyPage(own, '/forms')).ids).toEqual([...forms].sort(byCreation).map((form) => form.id))
      expect((await everyPage(own, '/forms', { type: 'internal', order_by: 'desc' })).ids).toEqual(
        forms.filter((form) => form.type === 'internal').sort(byCreation).map((form) => form.id).reverse(),
      )
      return { clients, files, forms }
    }
    const before = await expectAssignedLists()
    expect(before.clients.length).toBeGreaterThanOrEqual(3)
    expect(before.files.length).toBeGreaterThan(0)
    expect(before.forms.length).toBeGreaterThan(0)

    // The client with the most files is taken away from the member, and one with files and forms they did not have is given to them.
    const fileCount = async (client: number) => (await everyPage(api, `/clients/${client}/files`)).ids.length
    const counts = await Promise.all(before.clients.map(async (client) => [client, await fileCount(client)] as const))
    const taken = counts.reduce((most, next) => (next[1] > most[1] ? next : most))[0]
    expect((await api.delete(`/clients/${taken}/assignees`)).status).toBe(204)
    const others = (await everyPage(api, '/forms')).rows.map((form) => (typeof form.client === 'number' ? form.client : form.client.id)).filter((client) => !before.clients.includes(client))
    const given = others.find((client) => client !== taken) as number
    expect(given).toBeDefined()
    expect((await api.post(`/clients/${given}/assignees`, [{ type: 'team_member', team_member: user }])).status).toBe(201)
    const after = await expectAssignedLists()
    expect(after.clients).toContain(given)
    expect(after.clients).not.toContain(taken)
    // A file made for a client of theirs is theirs to list at once, and goes with the client.
    const attachment = await upload(api, 'contract.pdf', (ACCEPTED[0] as { bytes: Uint8Array }).bytes)
    expect(attachment.status, attachment.text).toBe(201)
    const file = await api.post(`/clients/${given}/files`, { attachment: attachment.body.id })
    expect(file.status, file.text).toBe(201)
    expect((await everyPage(own, '/files', { order_by: 'desc' })).ids[0]).toBe(file.body.id)
    expect((await api.delete(`/clients/${given}/assignees`)).status).toBe(204)
    expect((await everyPage(own, '/files')).ids).not.toContain(file.body.id)
    await expectAssignedLists()
  })
})

const NAMES = ['Smith', 'Smithson', 'Jones', 'Ødegård', 'Brown', 'Lee', 'Ngata', 'Müller']
const SEARCHES = ['smith', 'son', 'ode', 'odegard', 'mull', 'lee', 'n', 'br ow', 'xyz', 'mi', 'le son', 'ng']
const CLIENT_STATUSES = ['pending', 'approved', 'rejected']
const REFERENCES = ['CL-1', 'cl-1', 'CL-2', null]
const STATUSES = ['pending', 'started', 'waiting', 'complete', 'incomplete', 'empty', 'reviewed', 'amendments']

type Operation =
  | { kind: 'create'; first: number; last: number }
  | { kind: 'rename'; client: number; last: number }
  | { kind: 'delete'; client: number }
  | { kind: 'record'; client: number; steps: number; byMember: boolean }
  | { kind: 'deletion'; client: number; days: number | null }
  | { kind: 'complete'; record: number }
  | { kind: 'review'; record: number }
  | { kind: 'advance'; hours: number }
  | { kind: 'archive'; client: number; record: number }
  | { kind: 'status'; client: number; status: number }
  | { kind: 'reference'; client: number; reference: number }
  | { kind: 'assign'; parent: 'clients' | 'records'; at: number; how: 'add' | 'replace' | 'remove'; users: number }

// Clients made and renamed more often than the rest: most changes need a few clients to act on.
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), first: fc.nat(NAMES.length - 1), last: fc.nat(NAMES.length - 1) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('rename' as const), client: fc.nat(20), last: fc.nat(NAMES.length - 1) }), weight: 3 },
  fc.record({ kind: fc.constant('delete' as const), client: fc.nat(20) }),
  fc.record({ kind: fc.constant('record' as const), client: fc.nat(20), steps: fc.integer({ min: 1, max: 2 }), byMember: fc.boolean() }),
  // A deletion date some days from the mock's today (null: none), so every bucket fills and the clock moves dates between them.
  fc.record({ kind: fc.constant('deletion' as const), client: fc.nat(20), days: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }) }),
  fc.record({ kind: fc.constant('complete' as const), record: fc.nat(20) }),
  fc.record({ kind: fc.constant('review' as const), record: fc.nat(20) }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 24 * 40 }) }),
  fc.record({ kind: fc.constant('archive' as const), client: fc.nat(20), record: fc.nat(20) }),
  fc.record({ kind: fc.constant('status' as const), client: fc.nat(20), status: fc.nat(CLIENT_STATUSES.length - 1) }),
  fc.record({ kind: fc.constant('reference' as const), client: fc.nat(20), reference: fc.nat(REFERENCES.length - 1) }),
  // users: which of the member and the assigned-only member (bits 1 and 2) the body names.
  {
    arbitrary: fc.record({
      kind: fc.constant('assign' as const),
      parent: fc.constantFrom('clients' as const, 'records' as const),
      at: fc.nat(20),
      how: fc.constantFrom('add' as const, 'add' as const, 'replace' as const, 'remove' as const),
      users: fc.integer({ min: 0, max: 3 }),
    }),
    weight: 4,
  },
)

/** The search as a scan would do it (the names here fold by dropping their accents). */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{Diacritic}/gu, '').replace(/ø/g, 'o').replace(/Ø/g, 'O').toLowerCase()

describe('the list indexes against a brute-force scan', () => {
  it('give the same answers over seeded random changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40, size: 'medium' }), async (operations) => {
        const mock = createTestMock()
        const team = mock.newTeam()
        const api = team.api()
        const own = team.api('assigned-only')
        const member = team.api('member')
        const assignable = [team.users.member.id, team.users['assigned-only'].id]
        const clients: number[] = []
        const records: number[] = []
        /** Who made each record (its JSON does not say). */
        const madeBy = new Map<number, number>()
        // Lists that build an index at their first use, asked for first: every change below then moves rows in them.
        const first: Array<Record<string, string>> = [{ sort_by: 'name.last_name' }, { sort_by: 'name.first_name' }, { visibility: 'active' }, { status: 'approved' }, { reference: 'cl-1' }, { deletion_date: 'today' }, { search: 'smith' }, { search: 'mi' }]
        for (const query of first) await everyPage(api, '/clients', query)
        const firstRecords: Array<Record<string, string | number>> = [{ visibility: 'active' }, { created_by: team.users.owner.id }, { assignee: 'true' }, { client_visibility: 'active' }]
        for (const query of firstRecords) await everyPage(api, '/records', query)
        for (const path of ['/clients', '/records']) await everyPage(own, path)
        // Every run starts with a few clients and records, by the owner and by a member, for its
        // changes to act on: a client in each deletion date bucket, two of them in the reverse of id order.
        const baseDays = [2, 1, 0, null, -1, -2]
        for (const [index, days] of baseDays.entries()) {
          const deletion_date = days === null ? null : dayOf(mock.clock.now().getTime() + days * DAY_SECONDS * 1000)
          clients.push(await createClient(api, NAMES[index] as string, NAMES[(index + 3) % NAMES.length] as string, { deletion_date }))
        }
        for (const [index, maker] of [api, member, api, member].entries()) {
          const res = await maker.post('/records', { client: clients[index % clients.length], steps: [{ type: 'check.identity' }], notification: false })
          expect(res.status, res.text).toBe(201)
          records.push(res.body.id)
          madeBy.set(res.body.id, maker === member ? team.users.member.id : team.users.owner.id)
        }
        for (const op of operations) {
          const pick = <T>(rows: readonly T[], at: number) => rows[at % rows.length] as T
          if (op.kind === 'create') clients.push(await createClient(api, pick(NAMES, op.first), pick(NAMES, op.last)))
          else if (op.kind === 'advance') await mock.control.post('/clock/advance', { seconds: op.hours * 3600 })
          else if (op.kind === 'rename' && clients.length > 0) await api.patch(`/clients/${pick(clients, op.client)}`, { name: { last_name: pick(NAMES, op.last) } })
          else if (op.kind === 'status' && clients.length > 0) await api.patch(`/clients/${pick(clients, op.client)}`, { status: pick(CLIENT_STATUSES, op.status) })
          else if (op.kind === 'reference' && clients.length > 0) await api.patch(`/clients/${pick(clients, op.client)}`, { reference: pick(REFERENCES, op.reference) })
          else if (op.kind === 'delete' && clients.length > 0) {
            const client = pick(clients, op.client)
            if ((await api.delete(`/clients/${client}`)).status === 204) clients.splice(clients.indexOf(client), 1)
          } else if (op.kind === 'deletion' && clients.length > 0) {
            const date = op.days === null ? null : dayOf(mock.clock.now().getTime() + op.days * DAY_SECONDS * 1000)
            await api.patch(`/clients/${pick(clients, op.client)}`, { deletion_date: date })
          } else if (op.kind === 'record' && clients.length > 0) {
            const steps = Array.from({ length: op.steps }, () => ({ type: 'check.identity' }))
            const res = await (op.byMember ? member : api).post('/records', { client: pick(clients, op.client), steps, notification: false })
            if (res.status === 201) {
              records.push(res.body.id)
              madeBy.set(res.body.id, op.byMember ? team.users.member.id : team.users.owner.id)
            }
          } else if (op.kind === 'complete' && records.length > 0) await mock.control.post(`/records/${pick(records, op.record)}/complete`, {})
          else if (op.kind === 'review' && records.length > 0) await api.patch(`/records/${pick(records, op.record)}`, { is_reviewed: true })
          else if (op.kind === 'assign' && (op.parent === 'clients' ? clients : records).length > 0) {
            const collection = `/${op.parent}/${pick(op.parent === 'clients' ? clients : records, op.at)}/assignees`
            const body = assignable.filter((_, bit) => (op.users & (1 << bit)) !== 0).map((user) => ({ type: 'team_member', team_member: user }))
            if (op.how === 'remove') await api.delete(collection)
            else if (op.how === 'replace') await api.put(collection, body)
            else if (body.length > 0) await api.post(collection, body)
          } else if (op.kind === 'archive' && clients.length > 0) {
            // Archives a client and a record, or brings them back when they are archived already.
            const client = pick(clients, op.client)
            const archived = (await api.get(`/clients/${client}`)).body.archived_at !== null
            await mock.control.post(`/clients/${client}/${archived ? 'unarchive' : 'archive'}`, {})
            if (records.length > 0) {
              const record = pick(records, op.record)
              await api.patch(`/records/${record}`, { is_archived: (await api.get(`/records/${record}`)).body.archived_at === null })
            }
          }
        }
        // The visibility parts against every row sorted here (the lists sorted by another key scan and sort).
        const everyClient = (await everyPage(api, '/clients', { sort_by: 'updated_at' })).rows.sort((a, b) => a.id - b.id)
        const everyRecord = (await everyPage(api, '/records', { sort_by: 'updated_at' })).rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
        // The clients by name: every client sorted here, as the list's sort compares (case and accents aside, numbers as numbers).
        const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })
        for (const part of ['first_name', 'last_name']) {
          const sorted = [...everyClient].sort((a, b) => collator.compare(a.name[part], b.name[part]) || a.id - b.id).map((row) => row.id)
          expect((await everyPage(api, '/clients', { sort_by: `name.${part}` })).ids, part).toEqual(sorted)
          expect((await everyPage(api, '/clients', { sort_by: `name.${part}`, order_by: 'desc' })).ids, part).toEqual([...sorted].reverse())
        }
        for (const visibility of ['active', 'archived']) {
          const shown = (rows: any[]) => rows.filter((row) => (row.archived_at !== null) === (visibility === 'archived')).map((row) => row.id)
          expect((await everyPage(api, '/clients', { visibility })).ids, visibility).toEqual(shown(everyClient))
          expect((await everyPage(api, '/records', { visibility, order_by: 'desc' })).ids, visibility).toEqual(shown(everyRecord).reverse())
        }
        // The status parts, alone, with a visibility, and sorted by another key (ties by id).
        for (const status of CLIENT_STATUSES) {
          const withStatus = everyClient.filter((row) => row.status === status)
          expect((await everyPage(api, '/clients', { status })).ids, status).toEqual(withStatus.map((row) => row.id))
          expect((await everyPage(api, '/clients', { status, order_by: 'desc' })).ids, status).toEqual(withStatus.map((row) => row.id).reverse())
          const archived = withStatus.filter((row) => row.archived_at !== null).map((row) => row.id)
          expect((await everyPage(api, '/clients', { status, visibility: 'archived' })).ids, status).toEqual(archived)
          const byLastName = [...withStatus].sort((a, b) => collator.compare(a.name.last_name, b.name.last_name) || a.id - b.id).map((row) => row.id)
          expect((await everyPage(api, '/clients', { status, sort_by: 'name.last_name' })).ids, status).toEqual(byLastName)
        }
        // The reference parts (case aside), alone and with a status.
        for (const reference of ['CL-1', 'cl-2', 'CL-3']) {
          const withReference = everyClient.filter((row) => row.reference?.toLowerCase() === reference.toLowerCase())
          expect((await everyPage(api, '/clients', { reference })).ids, reference).toEqual(withReference.map((row) => row.id))
          expect((await everyPage(api, '/clients', { reference, status: 'approved', order_by: 'desc' })).ids, reference).toEqual(
            withReference.filter((row) => row.status === 'approved').map((row) => row.id).reverse(),
          )
        }
        const all = await everyPage(api, '/clients', { sort_by: 'name.last_name' })
        for (const search of SEARCHES) {
          const words = folded(search).split(/\s+/).filter(Boolean)
          const expected = all.rows
            .filter((client) => words.every((word) => [client.name.first_name, client.name.middle_name, client.name.last_name, client.reference].some((field) => field && folded(field).includes(word))))
            .map((client) => client.id)
          const found = await everyPage(api, '/clients', { search, sort_by: 'name.last_name' })
          expect(found.ids, search).toEqual(expected)
          expect(found.total).toBe(expected.length)
        }
        for (const status of STATUSES) {
          expect(await statusIds(api, status), status).toEqual(await statusByScan(api, status))
          expect(await statusIds(api, status, { order_by: 'desc' }), status).toEqual(await statusByScan(api, status, { order_by: 'desc' }))
        }
        // The deletion date buckets against the mock's today, alone and with a status.
        const today = dayOf(mock.clock.now().getTime())
        const buckets: Record<string, (date: string | null) => boolean> = {
          not_set: (date) => date === null,
          today: (date) => date === today,
          upcoming: (date) => date !== null && date > today,
          overdue: (date) => date !== null && date < today,
        }
        for (const [bucket, holds] of Object.entries(buckets)) {
          const inBucket = everyClient.filter((row) => holds(row.deletion_date))
          expect((await everyPage(api, '/clients', { deletion_date: bucket })).ids, bucket).toEqual(inBucket.map((row) => row.id))
          expect((await everyPage(api, '/clients', { deletion_date: bucket, status: 'approved', order_by: 'desc' })).ids, bucket).toEqual(
            inBucket.filter((row) => row.status === 'approved').map((row) => row.id).reverse(),
          )
        }
        // The records by their maker, by having assignees, and by their client's visibility.
        const clientArchived = new Map(everyClient.map((row) => [row.id, row.archived_at !== null]))
        const recordFilters: Array<[Record<string, string | number>, (record: any) => boolean]> = [
          [{ created_by: team.users.owner.id }, (record) => madeBy.get(record.id) === team.users.owner.id],
          [{ creator: team.users.member.id }, (record) => madeBy.get(record.id) === team.users.member.id],
          [{ client_visibility: 'archived' }, (record) => clientArchived.get(record.client) === true],
          [{ client_visibility: 'active' }, (record) => clientArchived.get(record.client) === false],
        ]
        for (const [query, holds] of recordFilters) {
          expect((await everyPage(api, '/records', query)).ids, JSON.stringify(query)).toEqual(everyRecord.filter(holds).map((row) => row.id))
          expect((await everyPage(api, '/records', { ...query, status: 'pending', order_by: 'desc' })).ids, JSON.stringify(query)).toEqual(
            everyRecord.filter((row) => holds(row) && row.status === 'pending').map((row) => row.id).reverse(),
          )
        }
        // The parts by assignee: the filter, and what the assigned-only member sees, against each row's assignees.
        const assigneesOf = async (path: string) => (await api.get(`${path}/assignees`, { limit: 100 })).body.data.map((row: { team_member: { id: number } }) => row.team_member.id)
        for (const user of assignable) {
          const assignedClients: number[] = []
          for (const client of everyClient) if ((await assigneesOf(`/clients/${client.id}`)).includes(user)) assignedClients.push(client.id)
          const assignedRecords: any[] = []
          for (const record of everyRecord) if ((await assigneesOf(`/records/${record.id}`)).includes(user)) assignedRecords.push(record)
          expect((await everyPage(api, '/clients', { assignee: user })).ids, `clients of ${user}`).toEqual(assignedClients)
          expect((await everyPage(api, '/clients', { assignee: user, status: 'approved', order_by: 'desc' })).ids).toEqual(
            everyClient.filter((row) => assignedClients.includes(row.id) && row.status === 'approved').map((row) => row.id).reverse(),
          )
          expect((await everyPage(api, '/records', { assignee: user })).ids, `records of ${user}`).toEqual(assignedRecords.map((row) => row.id))
          const anyAssigned = new Set<number>()
          for (const record of everyRecord) if ((await assigneesOf(`/records/${record.id}`)).length > 0) anyAssigned.add(record.id)
          for (const has of [true, false]) {
            expect((await everyPage(api, '/records', { assignee: String(has) })).ids, `assignee=${has}`).toEqual(everyRecord.filter((row) => anyAssigned.has(row.id) === has).map((row) => row.id))
          }
          if (user !== team.users['assigned-only'].id) continue
          expect((await everyPage(own, '/clients')).ids).toEqual(assignedClients)
          expect((await everyPage(own, '/records', { order_by: 'desc' })).ids).toEqual(assignedRecords.map((row) => row.id).reverse())
          for (const status of ['pending', 'complete']) {
            expect((await everyPage(own, '/records', { status })).ids, status).toEqual(assignedRecords.filter((row) => row.status === status).map((row) => row.id))
          }
        }
      }),
      { seed: 20260601, numRuns: 15, interruptAfterTimeLimit: 60_000 },
    )
  }, 120_000)
})
