// The traffic journal (contracts/control/journal.json): every API exchange of a team, with what the
// contracts say about its request, read and summarised through GET /_mock/journal(/report).
import { describe, expect, it } from 'vitest'
import { createTestMock, NOW, type TestMock } from '../support/mock.ts'

const CLIENT = { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }

async function journal(mock: TestMock, query: Record<string, string | number>) {
  const res = await mock.control.get('/journal', query)
  expect(res.status, res.text).toBe(200)
  return res.body
}

async function report(mock: TestMock, team: number | undefined) {
  const res = await mock.control.get('/journal/report', team === undefined ? undefined : { team })
  expect(res.status, res.text).toBe(200)
  return res.body
}

describe('the journal', () => {
  it('records each exchange of a team with its operation, status, time and verdicts', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const owner = team.api()
    expect((await owner.get('/clients', { colour: 'red', limit: 2 })).status).toBe(200)
    const body = await journal(mock, { team: team.team.id })
    expect(body).toMatchObject({ object: 'paginated_list', total: 1 })
    expect(body.data[0]).toEqual({
      object: 'mock_journal_entry',
      id: expect.any(Number),
      team: team.team.id,
      at: NOW,
      method: 'GET',
      path: '/api/v2/clients',
      query: 'colour=red&limit=2',
      operation: 'clients.list',
      status: 200,
      duration_ms: expect.any(Number),
      verdicts: [{ kind: 'ignored_query_parameter', at: 'colour', message: 'clients.list takes no query parameter colour; the service ignores it' }],
    })
  })

  it('produces every verdict kind from real requests, and the report lists each', async () => {
    const mock = createTestMock({ rateLimit: 12 })
    const team = mock.newTeam()
    const owner = team.api()
    const teamId = team.team.id

    // request_violation and ignored_body_property
    const invalid = await owner.post('/clients', { ...CLIENT, email: 'not an email', nickname: 'Ada' })
    expect(invalid.status).toBe(422)
    const created = await owner.post('/clients', { ...CLIENT, name: { ...CLIENT.name, nickname: 'Countess' } })
    expect(created.status).toBe(201)
    // deprecated: a parameter, an operation, an enum value in the query and in a body
    expect((await owner.get('/records', { creator: 1 })).status).toBe(200)
    const record = await owner.post('/records', { client: created.body.id, steps: [{ type: 'check.identity' }], notification: false })
    expect(record.status, record.text).toBe(201)
    expect((await owner.post(`/records/${record.body.id as number}/archive`)).status).toBe(200)
    expect((await owner.get('/cases', { status: 'pending' })).status).toBe(200)
    const kase = await owner.post('/cases', { client: created.body.id, name: 'Onboarding' })
    expect(kase.status).toBe(201)
    expect((await owner.post(`/cases/${kase.body.id as number}/reviews`, { status: 'pending' })).status).toBe(201)
    // forbidden, unauthenticated (a revoked token of this team), unknown operation
    expect((await team.api('read-only').post('/clients', CLIENT)).status).toBe(403)
    mock.store.updateToken(mock.store.data.tokens.find((token) => token.token === team.tokens.member)!, { revoked_at: NOW })
    expect((await team.api('member').get('/clients')).status).toBe(401)
    expect((await owner.get('/no-such-thing')).status).toBe(404)
    // rate_limited: the 12th request of the window was the last one allowed
    let limited = 0
    for (let attempt = 0; attempt < 5 && limited === 0; attempt++) if ((await owner.get('/team')).status === 429) limited++
    expect(limited).toBe(1)

    const summary = await report(mock, teamId)
    expect(Object.keys(summary.verdicts).sort()).toEqual(
      ['deprecated', 'forbidden', 'ignored_body_property', 'rate_limited', 'request_violation', 'unauthenticated', 'unknown_operation'].sort(),
    )
    const findings = summary.findings.map((f: any) => `${f.kind} ${f.operation} ${f.at}: ${f.message}`)
    expect(findings).toEqual(
      expect.arrayContaining([
        'request_violation clients.create email: The email field must be a valid email address.',
        'ignored_body_property clients.create nickname: clients.create does not read nickname; the service ignores it',
        'ignored_body_property clients.create name.nickname: clients.create does not read name.nickname; the service ignores it',
        'deprecated records.list creator: the query parameter creator is deprecated (use created_by)',
        'deprecated cases.list status: "pending" is a deprecated value of status',
        'deprecated cases.reviews.create status: "pending" is a deprecated value of status',
        "forbidden clients.create null: the caller may not change anything (read-only), so not clients.create",
        expect.stringMatching(/^unauthenticated clients.list null: a token revoked at /),
        'unknown_operation null null: no operation has GET /api/v2/no-such-thing',
        'rate_limited null null: over the rate limit: answered 429 Too Many Attempts',
      ]),
    )
    expect(findings).toContain('deprecated records.archive null: records.archive is deprecated (use the record update with is_archived)')
    expect(summary.operations.find((used: any) => used.operation === 'clients.create')).toEqual({
      operation: 'clients.create',
      count: 3,
      statuses: { 201: 1, 403: 1, 422: 1 },
      deprecated: false,
    })

    const markdown = await mock.control.request('GET', '/journal/report', { query: { team: teamId }, headers: { Accept: 'text/markdown' } })
    expect(markdown.status).toBe(200)
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(markdown.text).toContain(`# Journal report: team ${teamId}`)
    expect(markdown.text).toContain('## Body properties the service ignores')
    expect(markdown.text).toContain('- clients.create `name.nickname`: clients.create does not read name.nickname; the service ignores it (1x; e.g. POST /api/v2/clients -> 201)')
  })

  it('keeps requests without a token out of every team, in the unattributed journal', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    expect((await mock.api().as(undefined).get('/clients')).status).toBe(401)
    expect((await mock.api('ivs_never_issued').get('/clients')).status).toBe(401)
    expect((await journal(mock, { team: team.team.id })).total).toBe(0)
    const unattributed = await journal(mock, {})
    expect(unattributed.data.map((entry: any) => [entry.team, entry.verdicts[0].message])).toEqual([
      [null, 'a token the service never issued'],
      [null, 'no Bearer token in the Authorization header'],
    ])
  })

  it('filters by operation, status and verdict, pages, and forgets on DELETE', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const owner = team.api()
    for (let index = 0; index < 3; index++) expect((await owner.get('/clients', { limit: 1 })).status).toBe(200)
    expect((await owner.post('/clients', {})).status).toBe(422)
    const teamId = team.team.id
    expect((await journal(mock, { team: teamId, operation: 'clients.list' })).total).toBe(3)
    expect((await journal(mock, { team: teamId, status: 422 })).data.map((entry: any) => entry.operation)).toEqual(['clients.create'])
    expect((await journal(mock, { team: teamId, verdict: 'request_violation' })).total).toBe(1)
    const page = await journal(mock, { team: teamId, limit: 2, page: 2 })
    expect(page).toMatchObject({ total: 4, count: 2, current_page: 2, total_pages: 2 })
    expect(page.data.map((entry: any) => entry.operation)).toEqual(['clients.list', 'clients.list'])
    expect((await mock.control.request('DELETE', '/journal', { query: { team: teamId } })).status).toBe(204)
    expect((await journal(mock, { team: teamId })).total).toBe(0)
  })

  it('holds at most --journal-size exchanges per team, newest kept', async () => {
    const mock = createTestMock({ journalSize: 3 })
    const owner = mock.newTeam()
    for (let limit = 1; limit <= 5; limit++) expect((await owner.api().get('/clients', { limit })).status).toBe(200)
    const body = await journal(mock, { team: owner.team.id })
    expect(body.data.map((entry: any) => entry.query)).toEqual(['limit=5', 'limit=4', 'limit=3'])
  })

  it('never shows a team what another team did', async () => {
    const mock = createTestMock()
    const first = mock.newTeam()
    const second = mock.newTeam()
    expect((await first.api().get('/clients', { secret: 'first' })).status).toBe(200)
    expect((await second.api().get('/team')).status).toBe(200)
    const seen = (await journal(mock, { team: second.team.id })).data
    expect(seen.map((entry: any) => [entry.team, entry.operation])).toEqual([[second.team.id, 'team.get']])
    expect((await report(mock, second.team.id)).findings).toEqual([])
  })

  it('is off with a size of 0', async () => {
    const mock = createTestMock({ journalSize: 0 })
    const team = mock.newTeam()
    expect((await team.api().get('/clients')).status).toBe(200)
    expect(await report(mock, team.team.id)).toEqual({
      object: 'mock_journal_report',
      team: team.team.id,
      total: 0,
      from: null,
      to: null,
      verdicts: {},
      operations: [],
      findings: [],
    })
  })
})
