// Freezing the mock's clock through the control API (contracts/control/clock.json). The
// system time is faked with vitest's Date mock, so a ticking clock is watched without waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestMock, TEST_NOW } from '../support/mock.ts'

const at = (seconds: number) => `${new Date(TEST_NOW.getTime() + seconds * 1000).toISOString().slice(0, 19)}Z`
const systemAdvance = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms))

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2031-05-06T07:08:09Z'))
})

afterEach(() => {
  vi.useRealTimers()
})

const clockBody = (now: string, frozen: boolean) => ({ object: 'mock_clock', now, frozen, jobs_run: 0, jobs_waiting: expect.any(Number), next_job_at: expect.any(String) })

describe('POST /_mock/clock/unfreeze and /_mock/clock/freeze', () => {
  it('lets the frozen clock tick from where it stood, then stops it again where it stands', async () => {
    const mock = createTestMock()
    const unfrozen = await mock.control.post('/clock/unfreeze')
    expect(unfrozen.status).toBe(200)
    expect(unfrozen.body).toEqual(clockBody(at(0), false))

    systemAdvance(5_000)
    expect((await mock.control.get('/clock')).body).toEqual(clockBody(at(5), false))

    const frozen = await mock.control.post('/clock/freeze')
    expect(frozen.status).toBe(200)
    expect(frozen.body).toEqual(clockBody(at(5), true))
    systemAdvance(3_600_000)
    expect((await mock.control.get('/clock')).body).toEqual(clockBody(at(5), true))

    // Timestamps the API writes follow the frozen clock.
    const client = await mock.api().post('/clients', { name: { first_name: 'Frozen', last_name: 'Time' }, email: 'frozen@example.com' })
    expect(client.status).toBe(201)
    expect(client.body.created_at).toBe(at(5))

    const advanced = await mock.control.post('/clock/advance', { seconds: 60 })
    expect(advanced.body).toEqual({ ...clockBody(at(65), true), jobs_run: expect.any(Number) })
  })

  it('changes nothing when the clock already is as asked', async () => {
    const mock = createTestMock()
    expect((await mock.control.post('/clock/freeze')).body).toEqual(clockBody(at(0), true))
    expect((await mock.control.post('/clock/unfreeze')).body).toEqual(clockBody(at(0), false))
    systemAdvance(2_000)
    expect((await mock.control.post('/clock/unfreeze')).body).toEqual(clockBody(at(2), false))
  })
})
