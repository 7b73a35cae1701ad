// GET answers kept whole (kernel/answer-cache.ts): through the API, an answer asked again is the
// same until something that may change the world has run (a write, a control request, due jobs, a
// webhook attempt), the clock has moved to another second, or someone else asks. A change made
// behind the mock's back, which no product path makes, shows that the answer was kept.
import { describe, expect, it } from 'vitest'
import { AnswerCache, ChangeCount } from '../../src/kernel/answer-cache.ts'
import { createTestMock } from '../support/mock.ts'

/** A client's name changed behind the mock's back: no request, job or attempt counts it. */
function renameUncounted(mock: ReturnType<typeof createTestMock>, team: ReturnType<ReturnType<typeof createTestMock>['newTeam']>, id: number, lastName: string): void {
  const row = team.team.clients.get(id)
  if (!row) throw new Error(`no client ${id}`)
  row.name.last_name = lastName
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
    mock.store.changes.bump()
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

  it('is made again after a write through the API, a failed one too, and after any control request', async () => {
    const { mock, team, id } = await teamWithClient()
    const api = team.api()
    await api.get(`/clients/${id}`)
    renameUncounted(mock, team, id, 'Stuart')
    expect((await api.patch(`/clients/${id}`, { email: 'not an email' })).status).toBe(422)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Stuart')
    renameUncounted(mock, team, id, 'Hyde')
    expect((await mock.control.get('/clock')).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Hyde')
    expect((await api.patch(`/clients/${id}`, { name: { last_name: 'Villiers' } })).status).toBe(200)
    expect((await api.get(`/clients/${id}`)).body.name.last_name).toBe('Villiers')
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

describe('ChangeCount', () => {
  it('moves on before work and again when it ends: returned, thrown, resolved or rejected', async () => {
    const changes = new ChangeCount()
    expect(changes.during(() => changes.value)).toBe(1)
    expect(changes.value).toBe(2)
    expect(() =>
      changes.during(() => {
        throw new Error('failed')
      }),
    ).toThrow('failed')
    expect(changes.value).toBe(4)
    const resolving = changes.during(() => Promise.resolve(changes.value))
    expect(changes.value).toBe(5)
    expect(await resolving).toBe(5)
    expect(changes.value).toBe(6)
    await expect(changes.during(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(changes.value).toBe(8)
  })
})

describe('AnswerCache', () => {
  it('keeps at most 4 MiB of answers: past that it starts again', () => {
    const changes = new ChangeCount()
    const cache = new AnswerCache(changes, () => '2026-07-01T12:00:00Z')
    const answer = Buffer.alloc(1024 * 1024)
    for (const key of ['a', 'b', 'c']) cache.keep(key, answer, cache.stamp())
    expect(['a', 'b', 'c'].map((key) => cache.find(key) === answer)).toEqual([true, true, true])
    cache.keep('d', answer, cache.stamp())
    expect(['a', 'b', 'c', 'd'].map((key) => cache.find(key) === answer)).toEqual([false, false, false, true])
    // The same key kept again replaces its answer rather than adding to the total.
    for (let times = 0; times < 8; times++) cache.keep('e', answer, cache.stamp())
    expect(cache.find('d')).toBe(answer)
  })

  it('keeps an answer at the stamp taken before it was made', () => {
    const changes = new ChangeCount()
    const cache = new AnswerCache(changes, () => '2026-07-01T12:00:00Z')
    const stamp = cache.stamp()
    changes.bump()
    cache.keep('made during a change', Buffer.from('{}'), stamp)
    expect(cache.find('made during a change')).toBeUndefined()
  })
})
