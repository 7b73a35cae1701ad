// The proof of the change log (--data): after a broad workload against a mock on a data file (the
// whole scenario suite, fresh teams, snapshots, restore, reset, the perform page, a dropped team, OAuth grants,
// clock advances, webhook deliveries, compactions on the way), the world read back from its files
// is exactly the world the mock holds in memory.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toServeConfig, serveOptions } from '../../src/config.ts'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { openMock, type RunningMock } from '../../src/mock.ts'
import { dataFilesOf, readWorld } from '../../src/store/data-files.ts'
import { checkWorld } from '../../src/store/world-check.ts'
import { ApiClient } from '../support/api.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { withJobsInOrder } from '../support/mock.ts'

const defaults = () => toServeConfig(Object.fromEntries(serveOptions().map((option) => [option.attributeName(), option.defaultValue as unknown])))

describe('a --data mock under a broad workload', () => {
  let dir: string
  let file: string
  let mock: RunningMock
  let report: RunReport
  let compactions = 0

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ivs-durability-'))
    file = join(dir, 'mock.json')
    // A small threshold: the log is compacted many times while the suite runs.
    mock = await openMock({ ...defaults(), data: file, rateLimit: 1_000_000_000 }, { compactAfterBytes: 512 * 1024 })
    const compact = mock.world.compact.bind(mock.world)
    mock.world.compact = () => {
      compactions++
      return compact()
    }
    const origin = await mock.listen(0, '127.0.0.1')
    report = process.env.SKIP_SUITE ? ({ passed: 0 } as RunReport) : await runScenarios({ base: `${origin}/api/v2`, scenarios: ['scenarios'], contracts, keep: true })

    const control = new ApiClient(mock.app, undefined, '/_mock')
    const expectStatus = async (promise: Promise<{ status: number; text: string }>, status: number) => {
      const res = await promise
      expect(res.status, res.text).toBe(status)
      return res as Awaited<typeof promise> & { body: any }
    }
    // A generated team, a snapshot of it, changes, a restore, more changes, a reset.
    const made = (await expectStatus(control.post('/teams', { generate: { clients: 30, organisations: 3, records: 20, cases: 4 } }), 201)).body
    const team = { id: made.team.id as number, tokens: made.tokens as Record<string, string> }
    const owner = new ApiClient(mock.app, team.tokens.owner)
    const snapshot = (await expectStatus(control.post(`/teams/${team.id}/snapshots`, { name: 'before' }), 201)).body
    const client = (await expectStatus(owner.post('/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }), 201)).body
    await expectStatus(owner.patch(`/clients/${client.id}`, { reference: 'AL-1' }), 200)
    await expectStatus(control.post(`/teams/${team.id}/restore`, { snapshot: snapshot.id }), 200)
    await expectStatus(owner.post('/clients', { name: { first_name: 'Grace', last_name: 'Hopper' }, email: 'grace@example.com' }), 201)
    await expectStatus(control.post(`/teams/${team.id}/reset`), 200)
    await expectStatus(control.post(`/teams/${team.id}/snapshots`, { name: 'after reset' }), 201)
    // The client's perform page: a check step consented to, and a document uploaded.
    const performer = (await expectStatus(owner.post('/clients', { name: { first_name: 'Alan', last_name: 'Turing' }, email: 'alan@example.com' }), 201)).body
    const record = (await expectStatus(owner.post('/records', { client: performer.id, steps: [{ type: 'check.watchlist' }, { type: 'document.request', preferences: { title: 'Proof of address', instructions: 'A recent utility bill.' } }], notification: false }), 201)).body
    const performStep = async (index: number, fields: Record<string, string | File>) => {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) form.append(name, value)
      const res = await mock.app.request(`${new URL(record.perform_url).pathname}/steps/${record.steps[index].id}`, { method: 'POST', body: form })
      expect(res.status, await res.text()).toBe(303)
    }
    await performStep(0, { consent: 'yes' })
    await performStep(1, { document_file: new File([await readFile('fixtures/samples/proof-of-address.pdf')], 'proof-of-address.pdf', { type: 'application/pdf' }) })
    // A team dropped with everything in it.
    const dropped = (await expectStatus(control.post('/teams', { generate: { clients: 5 } }), 201)).body
    await expectStatus(control.delete(`/teams/${dropped.team.id}`), 204)
    // OAuth: a grant redeemed, refreshed, then revoked.
    const ats = fixture.oauth_clients[0] as (typeof fixture.oauth_clients)[number]
    const code = (await expectStatus(control.post('/oauth/authorize', { client_id: ats.client_id, redirect_uri: ats.redirect_uris[0], token: team.tokens.owner }), 201)).body.code
    const root = new ApiClient(mock.app, undefined, '')
    const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
    const secret = { client_id: ats.client_id, client_secret: ats.client_secret, redirect_uri: ats.redirect_uris[0] as string }
    const granted = (await expectStatus(root.request('POST', '/oauth/token', form({ grant_type: 'authorization_code', code, ...secret })), 200)).body
    await expectStatus(root.request('POST', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: granted.refresh_token, ...secret })), 200)
    await expectStatus(control.post('/oauth/revoke', { client_id: ats.client_id, token: team.tokens.owner }), 200)
    // The clock walks 40 days: results, reminders, expiry, retries, each a unit of its own.
    await expectStatus(control.post('/clock/advance', { seconds: 40 * 86_400 }), 200)
    await mock.services.webhooks.idle()
    await mock.world.compact()
  }, 300_000)

  afterAll(async () => {
    await mock.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('ran the suite and compacted the log on the way', () => {
    expect(report.scenarios.filter((scenario) => scenario.outcome === 'failed' && !scenario.tags.includes('known-mock-gap')).map((scenario) => `${scenario.file}: ${scenario.failures.join('; ')}`)).toEqual([])
    expect(report.passed).toBeGreaterThan(50)
    expect(compactions).toBeGreaterThan(1)
  })

  it('reads back from its files the world it holds', () => {
    const read = readWorld(dataFilesOf(file), { check: checkWorld, activeLog: true })
    expect(withJobsInOrder(read?.data)).toEqual(withJobsInOrder(mock.world.store.data))
  })
})
