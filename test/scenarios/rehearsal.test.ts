// A real-deployment run rehearsed: the whole scenario suite against the mock as `serve --no-control`
// presents it (no /_mock, a ticking clock), in the seeded Acme team, which holds data of every kind,
// while another client and a second run of the suite work in the same team. Nothing may fail;
// nothing but what the API cannot delete may be left; a later run adds nothing; and the runner waits
// out the real rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveOptions, toServeConfig, type ServeConfig } from '../../src/config.ts'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { openMock, type RunningMock } from '../../src/mock.ts'
import { contracts } from '../support/contracts.ts'
import { SEEDED_TOKENS } from '../harness/support.ts'

const SCENARIOS = 'scenarios'


/** Acme's second owner (Sam Carter), who works in the team during the run: an owner deletes a client with records. */
const COLLEAGUE = 'ivs_shared_acme'

/** serve's defaults, without the control API. */
function noControl(overrides: Partial<ServeConfig>): ServeConfig {
  const defaults = toServeConfig(Object.fromEntries(serveOptions().map((option) => [option.attributeName(), option.defaultValue as unknown])))
  return { ...defaults, port: 0, host: '127.0.0.1', cors: false, control: false, ...overrides }
}

async function started(config: ServeConfig): Promise<{ mock: RunningMock; base: string }> {
  const mock = await openMock(config)
  return { mock, base: `${await mock.listen(0, '127.0.0.1')}/api/v2` }
}

async function send(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${COLLEAGUE}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return text === '' ? undefined : JSON.parse(text)
}

/**
 * Another user at work in the team until told to stop: a client, a paid record, a case holding it,
 * the record archived, the client deleted with all of it. Bounded in rounds.
 */
async function anotherUser(base: string, stop: { now: boolean }): Promise<number> {
  let rounds = 0
  while (!stop.now && rounds < 2_000) {
    rounds++
    const client = await send(base, 'POST', '/clients', { name: { first_name: 'Busy', last_name: `Colleague ${rounds}` }, email: `busy${rounds}@example.com` })
    const record = await send(base, 'POST', '/records', { client: client.id, notification: false, steps: [{ type: 'check.watchlist' }] })
    const opened = await send(base, 'POST', '/cases', { client: client.id, name: `Busy ${rounds}` })
    await send(base, 'PATCH', `/cases/${opened.id}/items`, [{ id: record.id, type: 'record' }])
    await send(base, 'PATCH', `/records/${record.id}`, { is_archived: true })
    await send(base, 'DELETE', `/clients/${client.id}`)
  }
  return rounds
}

/** Every list's total, active and archived (credits aside: the API keeps each debit). */
async function totals(base: string): Promise<Record<string, unknown>> {
  const lists = ['/clients', '/clients?visibility=archived', '/records', '/records?visibility=archived', '/cases', '/cases?visibility=archived', '/organisations', '/organisations?visibility=archived', '/webhooks', '/form-templates', '/files', '/forms', '/team/members']
  const read = async (path: string) => [path, ((await (await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${SEEDED_TOKENS.owner}` } })).json()) as { total: unknown }).total]
  return Object.fromEntries(await Promise.all(lists.map(read)))
}

const failures = (report: RunReport) =>
  report.scenarios
    .filter((scenario) => scenario.outcome === 'failed')
    .map((scenario) => [scenario.file, ...scenario.failures, ...scenario.steps.filter((step) => step.outcome === 'failed').map((step) => `${step.name}: ${step.request ?? ''} -> ${step.response?.slice(0, 300) ?? ''}: ${step.failures.join('; ')}`)].join('\n  '))

describe('the scenario suite against the mock presented as a real deployment (serve --no-control), in the lived-in seeded team', () => {
  let mock: RunningMock
  let base: string
  let before: Record<string, unknown>
  let first: RunReport
  let alongside: RunReport
  let rounds = 0

  beforeAll(async () => {
    ;({ mock, base } = await started(noControl({ rateLimit: 1_000_000 })))
    before = await totals(base)
    const stop = { now: false }
    const colleague = anotherUser(base, stop)
    try {
      // A second run of the suite at the same moment, in the same team, as a colleague's CI job might.
      ;[first, alongside] = await Promise.all([runScenarios({ base, scenarios: [SCENARIOS], tokens: SEEDED_TOKENS, contracts }), runScenarios({ base, scenarios: [SCENARIOS], tokens: SEEDED_TOKENS, contracts })])
    } finally {
      stop.now = true
      rounds = await colleague
    }
  }, 300_000)

  afterAll(() => mock.close())

  it('fails no scenario while another user and another run work in the team', () => {
    expect(rounds).toBeGreaterThan(0)
    expect(failures(first).join('\n\n')).toBe('')
    expect(failures(alongside).join('\n\n')).toBe('')
    expect(first.control).toBe(false)
  })

  it('skips only what needs the control API or a team of its own, saying so', () => {
    const skipped = first.scenarios.filter((scenario) => scenario.outcome === 'skipped')
    expect(skipped.filter((scenario) => !['control', 'fresh-team'].includes(scenario.skipKind ?? '')).map((scenario) => `${scenario.file}: ${scenario.skipReason ?? ''}`)).toEqual([])
    expect(first.scenarios.filter((scenario) => scenario.skipKind === 'fresh-team').map((scenario) => scenario.file).sort()).toEqual(['scenarios/cases/aggregate-counts.yaml', 'scenarios/lists/pagination-default-size.yaml'])
  })

  it('leaves every list as it was, but the organisations it could not delete, kept as spares', () => {
    return totals(base).then((after) => {
      const kept = [first, alongside].reduce((sum, report) => sum + (report.leftBehind.find((entry) => entry.what.startsWith('organisation '))?.what.split(', ').length ?? 0), 0)
      expect(kept).toBeGreaterThan(0)
      expect(after).toEqual({ ...before, '/organisations': (before['/organisations'] as number) + kept })
      // What stays is what the API cannot delete: the spares, and the debits of paid steps.
      expect(first.leftBehind.map((entry) => entry.what.replace(/\d+/g, 'N')).sort()).toEqual(['N credit history entries', expect.stringMatching(/^organisation N(, organisation N)*$/)])
    })
  })

  it('with only an owner and a member, reaches at least 90 of the 99 operations, fails none, and adds nothing the first run left', async () => {
    const organisations = (await totals(base))['/organisations']
    const second = await runScenarios({ base, scenarios: [SCENARIOS], tokens: { owner: SEEDED_TOKENS.owner, member: SEEDED_TOKENS.member }, contracts })
    expect(failures(second).join('\n\n')).toBe('')
    expect(second.reached).toBeGreaterThanOrEqual(90)
    expect(second.operationsFailed).toBe(0)
    expect((await totals(base))['/organisations']).toBe(organisations)
    const reasons = new Set(second.operations.filter((entry) => entry.outcome === 'not reached').map((entry) => entry.reason))
    for (const reason of reasons) expect(reason).toMatch(/^(no control API|no token for a role)/)
  }, 300_000)
})

describe('the real rate limit', () => {
  let mock: RunningMock
  let base: string

  beforeAll(async () => {
    ;({ mock, base } = await started(noControl({ rateLimit: 10, rateLimitWindow: 1 })))
  })

  afterAll(() => mock.close())

  it('is waited out, by each 429 Retry-After, and fails nothing', async () => {
    const report = await runScenarios({ base, scenarios: [`${SCENARIOS}/clients`], grep: /address|lifecycle/, tokens: { owner: SEEDED_TOKENS.owner }, contracts })
    expect(failures(report)).toEqual([])
    expect(report.passed).toBe(2)
    expect(report.rateLimited.times).toBeGreaterThan(0)
    expect(report.scenarios.flatMap((scenario) => scenario.steps).filter((step) => step.status === 429)).toEqual([])
  }, 120_000)
})
