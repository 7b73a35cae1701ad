// Seeded records on a generated team (src/seed/records.ts): a team asked for more records than
// its history has room for at the usual spacing still makes every one of them before it was made,
// and its open records are still open (their histories play side by side on the seed's clock).
import { describe, expect, it } from 'vitest'
import { createTestMock, TEST_NOW } from '../support/mock.ts'

describe('generated records on a new team', () => {
  it("makes a crowded history within its team's past: every record made before the team, the open ones still open", async () => {
    const mock = createTestMock()
    const made = await mock.control.post('/teams', { generate: { clients: 20, records: 600 } })
    expect(made.status, made.text).toBe(201)
    const api = mock.api(made.body.tokens.owner)
    const records: Array<{ status: string; created_at: string; expired_at: string }> = []
    for (let page = 1; records.length < 600; page++) {
      const res = await api.get('/records', { limit: 100, page })
      expect(res.status).toBe(200)
      expect(res.body.data.length).toBeGreaterThan(0)
      records.push(...res.body.data)
    }
    const now = TEST_NOW.toISOString().replace('.000Z', 'Z')
    const sixtyDaysBefore = new Date(TEST_NOW.getTime() - 60 * 86_400_000).toISOString().replace('.000Z', 'Z')
    expect(records.filter((record) => record.created_at > now || record.created_at < sixtyDaysBefore)).toEqual([])
    const open = records.filter((record) => ['pending', 'started', 'waiting', 'paused'].includes(record.status))
    // About 36% of the scenarios are open; each stays open for five years from when it was made.
    expect(open.length).toBeGreaterThan(150)
    expect(open.filter((record) => record.expired_at <= now)).toEqual([])
  })
})
