// GET answers kept whole (kernel/answer-cache.ts): through the API, an answer asked again is the
// same until its team's rows (or the world's own) have changed, the clock has moved to another
// second, or someone else asks. A change made behind the store's back, which no product path can
// make (a row is read-only but through its table), shows that the answer was kept.
import { describe, expect, it } from 'vitest'
import { AnswerCache, ChangeCount, ChangeCounts } from '../../src/kernel/answer-cache.ts'
import { createTestMock } from '../support/mock.ts'

/** A client's name changed behind the store's back: nothing counts it. */
function renameUncounted(mock: ReturnType<typeof createTestMock>, team: ReturnType<ReturnType<typeof createTestMock>['newTeam']>, id: number, lastName: string): void {
  const row = team.team.clients.get(id)
  if (!row) throw new Error(`no client ${id}`)
  ;(row.name as { last_name: string }).last_name = lastName
}

async function teamWithClient() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const created = await team.api().post('/clients', { name: { first_name: 'Nell', last_name: 'Gwyn' }, email: 'nell@example.com' })
  expect(created.status).toBe(201)
  return { mock, team, id: created.body.id as number }
}

const lastNames = (body: { data: Array<{ name: { last_name: string } }> }) => body.data.map((client) => client.name.last_name)

describe('a GET answer asked again', () => {
  it('is the same answer while nothing counted has changed, and the new one once a change is counted', async () => {
    const { mock, team, id } = await teamWithClient()
    const api = team.api()
    const first = await api.get(`/clients/${id}`)
    expect(first.body.name.last_name).toBe('Gwyn')
    const firstList = await api.get('/clients')
    expect(lastNames(firstList.body)).toEqual(['Gwyn'])
    renameUncounted(mock, team, id, 'Stuart')
    expect((await api.get(`/clients/${id}`)).text).toBe(first.text)
    expect((await api.get('/clients')).text).toBe(firstList.text)
    // Another URL was never kept: made now, it shows the row as it is.
    expect(lastNames((await api.get('/clients', { limit: 10 })).body)).toEqual(['Stuart'])
    team.team.changes.bump()
    expect((await api.get(`/clients/${id}`)).body.name).toMatchObject({ last_name: 'Stuart', full_name: 'Nell Stuart' })
    expect(lastNames((await api.get('/clients')).body)).toEqual(['Stuart'])
  })

  it('is made again once the clock has moved to another second', async () => {
    const { mock, team, id } = await teamWithClient()
    const api = team.api()
    await api.get(`/clients/${id}`)
    renameUncounted(mock, team, id, 'Stuart')
    mock.clock.advance(999)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Gwyn')
    mock.clock.advance(1)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Stuart')
  })

  it('is kept through a refused write and through reads of the control API and the dashboard, and made again after a write', async () => {
    const { mock, team, id } = await teamWithClient()
    const api = team.api()
    const first = await api.get(`/clients/${id}`)
    renameUncounted(mock, team, id, 'Stuart')
    expect((await api.patch(`/clients/${id}`, { email: 'not an email' })).status).toBe(422)
    expect((await mock.control.get('/clock')).status).toBe(200)
    expect((await mock.control.get(`/teams/${team.team.id}/snapshots`)).status).toBe(200)
    expect((await mock.control.get('/journal', { team: team.team.id })).status).toBe(200)
    // The dashboard's poll, every 2 seconds while a team's page is open.
    expect((await mock.app.request(`/_mock/ui/teams/${team.team.id}/version`)).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).text).toBe(first.text)
    expect((await api.patch(`/clients/${id}`, { name: { last_name: 'Villiers' } })).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Villiers')
  })

  it("is kept while another team is made and writes, and made again once its own team writes", async () => {
    const { mock, team, id } = await teamWithClient()
    const other = mock.newTeam()
    const api = team.api()
    const first = await api.get(`/clients/${id}`)
    const firstList = await api.get('/clients')
    renameUncounted(mock, team, id, 'Stuart')
    // A team made meanwhile (a pipeline starting on a shared mock) changes nothing this team shows.
    mock.newTeam()
    const written = await other.api().post('/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' })
    expect(written.status).toBe(201)
    expect((await other.api().patch(`/clients/${written.body.id}`, { name: { last_name: 'Byron' } })).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).text).toBe(first.text)
    expect((await api.get('/clients')).text).toBe(firstList.text)
    // A write of its own team, to another row: the team's answers are made anew.
    expect((await api.post('/clients', { name: { first_name: 'Kit', last_name: 'Marlowe' }, email: 'kit@example.com' })).status).toBe(201)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Stuart')
    expect(lastNames((await api.get('/clients')).body)).toEqual(['Stuart', 'Marlowe'])
  })

  it("is made again in every team a shared user is in once the user's own row changes (PATCH /me)", async () => {
    const mock = createTestMock()
    const acme = mock.api('ivs_shared_acme')
    const globex = mock.api('ivs_shared_globex')
    const before = (await globex.get('/team/members')).text
    expect((await acme.patch('/me', { name: 'Sam Carter-Jones' })).status).toBe(200)
    const after = await globex.get('/team/members')
    expect(after.text).not.toBe(before)
    expect(after.text).toContain('Sam Carter-Jones')
  })

  it('is made again once due jobs have run, within the same second of the clock', async () => {
    const mock = createTestMock()
    // Half a second past the second, so the check's result (a minute after it is submitted) falls due mid-second.
    mock.clock.advance(500)
    const team = mock.newTeam()
    const api = team.api()
    const client = await api.post('/clients', { name: { first_name: 'Nell', last_name: 'Gwyn' }, email: 'nell@example.com' })
    const record = await api.post('/records', { client: client.body.id, steps: [{ type: 'check.identity' }], notification: false })
    expect(record.status, record.text).toBe(201)
    expect((await mock.control.post(`/records/${record.body.id}/complete`)).status).toBe(200)
    mock.clock.advance(59_900)
    const waiting = await api.get(`/records/${record.body.id}`)
    expect(waiting.body.status).toBe('waiting')
    // The same second: the result falls due now and runs before the answer is looked for.
    mock.clock.advance(100)
    expect((await api.get(`/records/${record.body.id}`)).body.status).not.toBe('waiting')
  })

  it('is kept for each caller: an assigned-only member and the owner ask the same URL in turn', async () => {
    const { team } = await teamWithClient()
    for (let round = 0; round < 2; round++) {
      expect((await team.api('owner').get('/clients')).body.total).toBe(1)
      expect((await team.api('assigned-only').get('/clients')).body.total).toBe(0)
    }
  })

  it('shows a write that ended while it was being asked: made during the write, it is not used after it', async () => {
    const { team, id } = await teamWithClient()
    const api = team.api()
    let sendRest: () => void = () => undefined
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":{"last_name":'))
        sendRest = () => {
          controller.enqueue(new TextEncoder().encode('"Stuart"}}'))
          controller.close()
        }
      },
    })
    const writing = api.request('PATCH', `/clients/${id}`, { raw: body, headers: { 'Content-Type': 'application/json' } })
    // Asked (and kept) while the write waits for the rest of its body.
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Gwyn')
    sendRest()
    expect((await writing).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Stuart')
  })
})

describe('ChangeCounts', () => {
  it("keeps one count for each team, apart from the world's and from each other's, and forgets a team removed", () => {
    const counts = new ChangeCounts()
    const one = counts.team(1)
    expect(counts.team(1)).toBe(one)
    one.bump()
    one.bump()
    counts.team(2).bump()
    expect([one.value, counts.team(2).value, counts.world.value]).toEqual([2, 1, 0])
    counts.forget(1)
    expect(counts.team(1).value).toBe(0)
  })
})

describe('AnswerCache', () => {
  it('keeps at most 4 MiB of answers: past that it starts again', () => {
    const team = new ChangeCount()
    const cache = new AnswerCache(new ChangeCount(), () => '2026-07-01T12:00:00Z')
    const answer = Buffer.alloc(1024 * 1024)
    for (const key of ['a', 'b', 'c']) cache.keep(key, answer, cache.stamp(team))
    expect(['a', 'b', 'c'].map((key) => cache.find(key, team) === answer)).toEqual([true, true, true])
    cache.keep('d', answer, cache.stamp(team))
    expect(['a', 'b', 'c', 'd'].map((key) => cache.find(key, team) === answer)).toEqual([false, false, false, true])
    // The same key kept again replaces its answer rather than adding to the total.
    for (let times = 0; times < 8; times++) cache.keep('e', answer, cache.stamp(team))
    expect(cache.find('d', team)).toBe(answer)
  })

  it("keeps an answer at the stamp taken before it was made: a change of its team's or of the world's meanwhile makes it stale", () => {
    const team = new ChangeCount()
    const world = new ChangeCount()
    const cache = new AnswerCache(world, () => '2026-07-01T12:00:00Z')
    cache.keep('made during a team change', Buffer.from('{}'), cache.stamp(team))
    team.bump()
    expect(cache.find('made during a team change', team)).toBeUndefined()
    cache.keep('made during a world change', Buffer.from('{}'), cache.stamp(team))
    world.bump()
    expect(cache.find('made during a world change', team)).toBeUndefined()
    cache.keep('kept', Buffer.from('{}'), cache.stamp(team))
    expect(cache.find('kept', new ChangeCount())).toBeUndefined()
    expect(cache.find('kept', team)?.toString()).toBe('{}')
  })
})
