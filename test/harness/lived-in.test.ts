// A target without the control API whose team already holds data of every kind (the seeded Acme
// team): the runner learns the team and its members from the API, walks lists until it finds its
// own items, crawls the team read-only, and leaves every list as it found it.
import { afterEach, describe, expect, it } from 'vitest'
import { formatOperations } from '../../src/harness/coverage.ts'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { SPARE_REFERENCE } from '../../src/harness/residue.ts'
import { contracts } from '../support/contracts.ts'
import { FIXTURES, startTarget, type Target, type Wrapper } from './support.ts'

const targets: Target[] = []
afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => target.close()))
})

const ACME = { owner: 'ivs_acme_owner', member: 'ivs_acme_member' }

/** The mock without /_mock; `seen` gets every request the runner sent and its answer's status. */
async function seededTarget(seen: { method: string; path: string; status: number }[] = []): Promise<Target> {
  const wrapper: Wrapper = async (request, mockFetch) => {
    const { pathname } = new URL(request.url)
    const response = pathname.startsWith('/_mock') ? Response.json({ error: 'Not Found.' }, { status: 404 }) : await mockFetch(request)
    seen.push({ method: request.method, path: pathname, status: response.status })
    return response
  }
  const target = await startTarget(wrapper)
  targets.push(target)
  return target
}

const steps = (report: RunReport, name: string) =>
  report.scenarios.find((scenario) => scenario.name === name)?.steps.map((step) => [step.name, step.outcome, step.skipReason ?? step.failures.join('; ')])

const outcome = (report: RunReport, operationId: string) => report.operations.find((entry) => entry.operationId === operationId)

/** Every list's total, active and archived, as the owner sees it. */
async function totals(target: Target, token = ACME.owner): Promise<Record<string, unknown>> {
  const lists = ['/clients', '/clients?visibility=archived', '/records', '/records?visibility=archived', '/cases', '/cases?visibility=archived', '/organisations', '/webhooks', '/form-templates', '/files', '/forms', '/team/members']
  const entries = await Promise.all(
    lists.map(async (path) => [path, ((await (await fetch(`${target.base}${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { total: unknown }).total]),
  )
  return Object.fromEntries(entries)
}

describe('a target without the control API, in a team with data of every kind', () => {
  it("learns the team and its members from the API: a scenario names a role's user without that role's token", async () => {
    const target = await seededTarget()
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}lived-in/members.yaml`, `${FIXTURES}lived-in/as-member.yaml`], tokens: { owner: ACME.owner }, concurrency: 1 })
    expect(steps(report, "The team's members are named by role")).toEqual([
      ['create a client', 'passed', ''],
      ['assign the member and the read-only member', 'passed', ''],
      ['the team is the token\'s', 'passed', ''],
    ])
    // A step as the member needs the member's own token, and the skip names the flag that gives it.
    expect(report.scenarios[1]?.skipReason).toBe('needs a token for the member role (--role-token member=<token> or IVS_TOKEN_MEMBER)')
    expect(report.target).toBe('team Acme Recruitment (1); tokens for owner: Olivia Bennett (1)')
    expect(outcome(report, 'team.me.get')).toMatchObject({ outcome: 'not reached', reason: 'no token for a role: a token for the member role (--role-token member=<token> or IVS_TOKEN_MEMBER)' })
  })

  it('skips a scenario whose token has another role than the one it is given for, naming the flag', async () => {
    const target = await seededTarget()
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}lived-in/as-member.yaml`], tokens: { owner: ACME.owner, member: 'ivs_acme_readonly' } })
    expect(report.scenarios[0]?.skipReason).toBe('needs a token for the member role, and the one given for it has the role read-only (GET /team/me): --role-token member=<token> or IVS_TOKEN_MEMBER')
    expect(report.target).toBe('team Acme Recruitment (1); tokens for owner: Olivia Bennett (1); member: Marcus Reid (3), whose role there is read-only')
  })

  it('walks a list page by page until it has found what it looks for, and judges those alone', async () => {
    const target = await seededTarget()
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}lived-in/find.yaml`, `${FIXTURES}lived-in/find-missing.yaml`], tokens: ACME, concurrency: 1 })
    const walked = report.scenarios[0]?.steps[3]
    expect([walked?.outcome, walked?.failures, walked?.note]).toEqual(['passed', [], expect.stringMatching(/^found 2 of 2 items matching \{"id":\{"oneOf":\[\d+,\d+\]\}\} in 3 pages$/)])
    expect(report.scenarios[0]?.steps[4]?.failures).toEqual(['find: found 0 of 1 item matching {"name.first_name":"Dot"} in 3 pages, looked for 1'])
    // Without the data, the scenario is skipped from that step on, saying what the team lacks.
    expect(steps(report, 'A team without the data a scenario reads is skipped')).toEqual([
      ['find the client', 'skipped', 'no data in the team: no client has the reference looked for'],
      ['read it', 'skipped', 'no data in the team: no client has the reference looked for'],
    ])
    expect(outcome(report, 'clients.get')).toMatchObject({ outcome: 'not reached', reason: 'no data in the team: no client has the reference looked for' })
  })

  it('leaves every list as it found it; organisations, which the API cannot delete, are kept as spares that the next run reuses and does not list', async () => {
    const target = await seededTarget()
    const scenarios = ['scenarios/organisations/lifecycle.yaml', 'scenarios/clients/organisations.yaml', 'scenarios/records/credits.yaml', 'scenarios/team/me-and-team.yaml', 'scenarios/files/client-document.yaml', 'scenarios/library/form-templates.yaml', 'scenarios/webhooks/lifecycle.yaml', 'scenarios/cases/lists.yaml']
    const before = await totals(target)
    const read = async (path: string) => ({ ...((await (await fetch(`${target.base}${path}`, { headers: { Authorization: `Bearer ${ACME.owner}` } })).json()) as object), updated_at: 'changed' })
    const [team, me] = [await read('/team'), await read('/me')]
    const first = await runScenarios({ base: target.base, scenarios, tokens: ACME, contracts })
    expect({ failed: first.failed, skipped: first.skipped }).toEqual({ failed: 0, skipped: 0 })
    const spares = (await (await fetch(`${target.base}/organisations?search=${SPARE_REFERENCE}&limit=100`, { headers: { Authorization: `Bearer ${ACME.owner}` } })).json()) as { total: number }
    expect(spares.total).toBe(4)
    expect(await totals(target)).toEqual({ ...before, '/organisations': (before['/organisations'] as number) + 4 })
    // The team and the user get back what the scenario changed (me-and-team.yaml renames both).
    expect([await read('/team'), await read('/me')]).toEqual([team, me])
    expect(first.leftBehind).toEqual([
      { what: expect.stringMatching(/^organisation \d+, organisation \d+, organisation \d+, organisation \d+$/), why: `the API cannot delete organisations: kept as a spare (reference ${SPARE_REFERENCE}), which the next run uses instead of creating one` },
      { what: '1 credit history entry', why: "the debits of paid check steps: the team's credit history keeps every entry" },
    ])
    const second = await runScenarios({ base: target.base, scenarios, tokens: ACME, contracts })
    expect(second.failed).toBe(0)
    expect(await totals(target)).toEqual({ ...before, '/organisations': (before['/organisations'] as number) + 4 })
    const reused = second.scenarios.flatMap((scenario) => scenario.steps).filter((step) => step.note?.includes('reused'))
    expect(reused.map((step) => [step.operationId, step.status])).toEqual(Array.from({ length: 4 }, () => ['organisations.update', 200]))
    // A run lists only what it made: the spares it reused were the first run's (two runs at once would otherwise both list them).
    expect(second.leftBehind).toEqual([{ what: '1 credit history entry', why: "the debits of paid check steps: the team's credit history keeps every entry" }])
  })

  it('with keep, leaves what the scenarios made and lists it', async () => {
    const target = await seededTarget()
    const before = await totals(target)
    const report = await runScenarios({ base: target.base, scenarios: ['scenarios/clients/address.yaml'], tokens: ACME, keep: true })
    expect(report.leftBehind).toEqual([{ what: expect.stringMatching(/^client \d+$/), why: 'kept (--keep)' }])
    expect((await totals(target))['/clients']).toBe((before['/clients'] as number) + 1)
  })
})

describe('verify --read-only', () => {
  it('crawls the seeded team: every GET operation reached and judged, and nothing sent that changes anything', async () => {
    const seen: { method: string; path: string; status: number }[] = []
    const target = await seededTarget(seen)
    const before = await totals(target)
    seen.length = 0
    const report = await runScenarios({ base: target.base, scenarios: ['scenarios'], tokens: ACME, readOnly: true, contracts })
    expect(report.failed).toBe(0)
    const gets = report.operations.filter((entry) => entry.method === 'GET')
    expect(gets.filter((entry) => entry.outcome !== 'passed').map((entry) => `${entry.operationId}: ${entry.reason ?? ''}`)).toEqual([])
    expect(gets).toHaveLength(51)
    // Only GETs, and requests refused or that change nothing (POST /steps prices steps).
    const changing = seen.filter(({ method, path, status }) => !['GET', 'HEAD'].includes(method) && status < 400 && path !== '/api/v2/steps')
    expect(changing).toEqual([])
    expect(await totals(target)).toEqual(before)
    const crawl = report.scenarios.find((scenario) => scenario.file === '(crawl)')
    expect(crawl?.outcome).toBe('passed')
    expect(crawl?.steps.every((step) => step.method === 'GET')).toBe(true)
    expect(report.leftBehind).toEqual([])
  })

  it('says where the team has no data for an operation', async () => {
    const target = await seededTarget()
    // Initech, a legacy team: no webhooks, and its cases answer 403.
    const report = await runScenarios({ base: target.base, scenarios: ['scenarios'], tokens: { owner: 'ivs_initech_owner' }, readOnly: true, contracts, grep: /^$/ })
    expect(outcome(report, 'webhooks.get')).toMatchObject({ outcome: 'not reached', reason: 'no data in the team: GET /webhooks answered nothing to read /webhooks/{id} of' })
    expect(outcome(report, 'cases.list')).toMatchObject({ outcome: 'passed', answered: 2, succeeded: 0 })
    expect(outcome(report, 'clients.create')).toMatchObject({ outcome: 'not reached', reason: '--read-only: it changes the team' })
    // The table shows the operations the crawl read, one line each, and those --read-only left out in one line.
    const writes = report.operations.filter((entry) => entry.method !== 'GET').length
    expect(formatOperations(report).filter((line) => line.includes('change'))).toEqual([`  - ${writes} others not reached: --read-only: they change the team`])
  })

  it('without a token, says the crawl needs one', async () => {
    const target = await seededTarget()
    const report = await runScenarios({ base: target.base, scenarios: [`${FIXTURES}lived-in/find-missing.yaml`], readOnly: true })
    expect(report.scenarios.map((scenario) => [scenario.name, scenario.outcome, scenario.skipReason])).toEqual([
      ['A team without the data a scenario reads is skipped', 'skipped', 'needs a token for the owner role (--token <token> or IVS_TOKEN_OWNER)'],
      ['The team as it is, crawled with GET requests', 'skipped', 'needs a token to read the team with (--token <token> or IVS_TOKEN_OWNER)'],
    ])
    expect(outcome(report, 'webhooks.get')?.reason).toBe('the crawl needs a token to read the team with (--token)')
  })
})
