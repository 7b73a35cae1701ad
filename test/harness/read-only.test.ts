// verify --read-only changes nothing, whatever the target has: against the mock with its control
// API, every request the run sends is logged in front of the mock and is one --read-only allows (GET
// and HEAD, the writes a step marks safe, nothing but GET to /_mock), and the mock's id sequences
// are what they were (Acme's next client is 151, as on an untouched mock). A write a step does not
// mark safe is not sent at all: the scenario fails with a scenario error; one a target takes where a
// refusal was expected is listed as left behind.
import { beforeAll, describe, expect, it } from 'vitest'
import type { LoadedScenario } from '../../src/harness/scenarios.ts'
import { runScenarios, type RunReport } from '../../src/harness/runner.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'
import { SEEDED_TOKENS, startTarget, type Target } from './support.ts'


interface Seen {
  method: string
  path: string
  status: number
}

const seen: Seen[] = []
let target: Target
let report: RunReport
let sequencesBefore: unknown
let teamsBefore: number

/** Acme's owner creates a client: the id the mock's client sequence gives next. */
async function nextClientId(request: (path: string, init: RequestInit) => Response | Promise<Response>): Promise<unknown> {
  const created = await request('/api/v2/clients', {
    method: 'POST',
    headers: { Authorization: `Bearer ${SEEDED_TOKENS.owner}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }),
  })
  return ((await created.json()) as { id: unknown }).id
}

/** A target that takes a create without a token as the owner's: the refusal a step counts on does not come. */
let takesCreatesWithoutToken = false

beforeAll(async () => {
  target = await startTarget(async (request, mockFetch) => {
    const takes = takesCreatesWithoutToken && request.method === 'POST' && !request.headers.has('authorization')
    const response = await mockFetch(takes ? new Request(request, { headers: { ...Object.fromEntries(request.headers), authorization: `Bearer ${SEEDED_TOKENS.owner}` } }) : request)
    seen.push({ method: request.method, path: new URL(request.url).pathname, status: response.status })
    return response
  })
  sequencesBefore = structuredClone(target.mock.store.data.sequences)
  teamsBefore = [...target.mock.store.allTeams()].length
  report = await runScenarios({ base: target.base, scenarios: ['scenarios'], tokens: SEEDED_TOKENS, readOnly: true, contracts })
  return () => target.close()
})

const line = ({ method, path, status }: Seen) => `${method} ${path} ${status}`

describe('verify --read-only against the mock with its control API', () => {
  it('sends only GET, the writes its steps mark safe, and nothing to /_mock but the GET that finds it', () => {
    expect(report.control).toBe(true)
    expect(seen.filter(({ path }) => path.startsWith('/_mock')).map(line)).toEqual(['GET /_mock/clock 200'])
    expect(seen.filter(({ method }) => method !== 'GET').map(line).sort()).toEqual([
      // a read-only member's delete of an unknown attachment (errors/not-found-attachment.yaml)
      'DELETE /api/v2/attachments/999999999 404',
      // a create without a token (errors/unauthenticated.yaml)
      'POST /api/v2/clients 401',
      // an unknown client and an invalid step (errors/validation-all-keys.yaml)
      'POST /api/v2/records 422',
      // POST /steps prices steps (records/steps-and-costs.yaml)
      'POST /api/v2/steps 200',
    ])
    expect(seen.length).toBeGreaterThan(150)
  })

  it("leaves the mock's state as it was: no team made, the id sequences untouched, Acme's next client 151 as on an untouched mock", async () => {
    expect(target.mock.store.data.sequences).toEqual(sequencesBefore)
    expect([...target.mock.store.allTeams()].length).toBe(teamsBefore)
    const untouched = createTestMock()
    try {
      expect(await nextClientId((path, init) => untouched.app.request(path, init))).toBe(151)
    } finally {
      untouched.services.blobs.dispose()
    }
    expect(await nextClientId((path, init) => fetch(`${new URL(target.base).origin}${path}`, init))).toBe(151)
  })

  it('acts in the tokens\' team, fails nothing, and says what it could not reach and why', () => {
    expect(report.target).toMatch(/^team Acme Recruitment \(1\); tokens for owner: Olivia Bennett \(1\)/)
    expect(report.failed).toBe(0)
    expect(report.leftBehind).toEqual([])
    const skipped = report.scenarios.filter((scenario) => scenario.outcome === 'skipped').map((scenario) => [scenario.file, scenario.skipKind, scenario.skipReason])
    expect(skipped).toEqual([
      [
        'scenarios/lists/pagination-default-size.yaml',
        'read-only',
        'judges counts or orders of a whole team (tag fresh-team), so it needs a team of its own, which --read-only does not make (it writes nothing to /_mock)',
      ],
    ])
    const outcome = (id: string) => report.operations.find((entry) => entry.operationId === id)
    expect(outcome('clients.delete')).toMatchObject({ outcome: 'not reached', reason: '--read-only: it changes the team' })
    expect(outcome('clients.create')).toMatchObject({ outcome: 'passed', answered: 1, succeeded: 0 })
    expect(outcome('steps.validate')).toMatchObject({ outcome: 'passed', answered: 1, succeeded: 1 })
    expect(report.operations.filter((entry) => entry.method === 'GET' && entry.outcome !== 'passed')).toEqual([])
  })
})

describe('a write no step marks safe, under --read-only', () => {
  it('is not sent: the step fails with a scenario error, and nothing reaches the target', async () => {
    const scenario: LoadedScenario = {
      name: 'Claims to change nothing, and deletes',
      description: 'A scenario marked mutates: false that sends a DELETE and a control write.',
      file: '(test)',
      mutates: false,
      steps: [
        { name: 'read a client', operation: 'clients.get', params: { id: 1 } },
        { name: 'delete it', operation: 'clients.delete', params: { id: 1 } },
      ],
    }
    const advance: LoadedScenario = { ...scenario, name: 'Moves the clock', steps: [{ name: 'advance the clock', control: 'control.clock.advance', body: { minutes: 1 } }] }
    seen.length = 0
    const refused = await runScenarios({ base: target.base, scenarios: [scenario, advance], tokens: { owner: SEEDED_TOKENS.owner }, readOnly: true, contracts, grep: /deletes|clock/ })
    expect(refused.scenarios.slice(0, 2).map((entry) => [entry.outcome, entry.steps.map((step) => [step.outcome, step.failures])])).toEqual([
      [
        'failed',
        [
          ['passed', []],
          ['failed', ['scenario error: not sent: --read-only sends GET and HEAD and the writes a step marks safe (safe: refused or computes), nothing else to /_mock, and clients.delete (DELETE) is a write the step does not mark safe']],
        ],
      ],
      ['failed', [['failed', ["scenario error: not sent: --read-only sends GET and HEAD and the writes a step marks safe (safe: refused or computes), nothing else to /_mock, and control.clock.advance is a POST to the mock's control API (/_mock)"]]]],
    ])
    expect(seen.filter(({ method }) => method !== 'GET')).toEqual([])
    expect((await fetch(`${target.base}/clients/1`, { headers: { Authorization: `Bearer ${SEEDED_TOKENS.owner}` } })).status).toBe(200)
  })

  it('a write a target takes where its step expected a refusal fails the step and is listed as left behind: nothing is taken back', async () => {
    takesCreatesWithoutToken = true
    try {
      const taken = await runScenarios({ base: target.base, scenarios: ['scenarios/errors/unauthenticated.yaml'], tokens: { owner: SEEDED_TOKENS.owner }, readOnly: true, contracts })
      const step = taken.scenarios[0]?.steps.find((entry) => entry.name === 'a create without a token')
      expect(step?.status).toBe(201)
      expect(step?.failures).toContain('status: expected 401, got 201')
      expect(taken.leftBehind).toEqual([
        { what: `POST ${target.base}/clients`, why: 'answered 201 where step "a create without a token" expected a refusal (safe: refused); --read-only undoes nothing: see to it by hand' },
      ])
    } finally {
      takesCreatesWithoutToken = false
    }
  })
})
