// The dashboard over HTTP (app.request): the picker, the team page as the picked member (what the
// API lets them see), the version the page polls, and the actions, which go through the API's
// operations as that member (roles, validation) or move the clock as the control API does. The
// state they change is read back through the API, contract-checked.
import { beforeEach, describe, expect, test } from 'vitest'
import { createTestMock, type TestMock } from '../support/mock.ts'

let mock: TestMock
beforeEach(() => {
  mock = createTestMock()
})

const api = () => mock.api('ivs_acme_owner')

/** Acme Recruitment (team 1) as Olivia Bennett (owner, user 1). */
const OWNER = '/_mock/ui/teams/1/as/1'
/** Acme Recruitment as Marcus Reid (read-only, user 3). */
const READ_ONLY = '/_mock/ui/teams/1/as/3'

async function page(path: string): Promise<{ status: number; text: string }> {
  const res = await mock.app.request(path)
  return { status: res.status, text: await res.text() }
}

/** Posts a dashboard form as a browser does; answers where the 303 leads and its notice or problem. */
async function act(path: string, fields: Record<string, string>): Promise<{ status: number; location: string; notice?: string; problem?: string }> {
  const res = await mock.app.request(path, { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  const location = res.headers.get('location') ?? ''
  const query = new URL(location, 'http://localhost').searchParams
  return { status: res.status, location: location.split('?')[0] ?? '', notice: query.get('notice') ?? undefined, problem: query.get('problem') ?? undefined }
}

async function versionOf(team: number): Promise<string> {
  const res = await mock.app.request(`/_mock/ui/teams/${team}/version`)
  return ((await res.json()) as { version: string }).version
}

describe('picking a team and a member', () => {
  test('the picker lists every current member of every team; opening one goes to their dashboard', async () => {
    const picker = await page('/_mock/ui')
    expect(picker.status).toBe(200)
    expect(picker.text).toContain('<optgroup label="Acme Recruitment">')
    expect(picker.text).toContain('<option value="1:3">Marcus Reid (read-only), Acme Recruitment</option>')
    expect(picker.text).toContain('<optgroup label="Initech Lettings (legacy, no cases)">')
    // Dan Whitaker left Acme: not offered.
    expect(picker.text).not.toContain('Dan Whitaker')
    const open = await mock.app.request('/_mock/ui/open?member=1:3')
    expect([open.status, open.headers.get('location')]).toEqual([303, READ_ONLY])
  })

  test('a user who is not a current member of the team is a 404 page', async () => {
    expect((await page('/_mock/ui/teams/2/as/1')).status).toBe(404)
    expect((await page('/_mock/ui/teams/99/as/1')).status).toBe(404)
  })
})

describe('the team page', () => {
  test('shows the clock, the newest records with their checks and perform links, cases, the webhook and clients', async () => {
    const record = await api().post('/records', { client: 3, steps: [{ type: 'check.watchlist' }], notification: false })
    const { status, text } = await page(OWNER)
    expect(status).toBe(200)
    expect(text).toContain('<h1>Acme Recruitment</h1>')
    expect(text).toContain('Now: <strong id="clock-now">2026-07-01 12:00:00 UTC</strong>')
    expect(text).toContain(`<tr id="record-${record.body.id}"><td><a href="${OWNER}/records/${record.body.id}">Record ${record.body.id}</a></td><td>Kitty Huels</td><td><span class="badge info">pending</span></td>`)
    expect(text).toContain('<li>watchlist: <span class="badge info">pending</span></li>')
    expect(text).toContain(`<a href="${record.body.perform_url}" target="_blank" rel="noopener">Open`)
    expect(text).toContain('<h2 id="cases-title">Cases <span class="muted">(10 newest of 20)</span></h2>')
    expect(text).toContain('<h2 id="clients-title">Clients <span class="muted">(8 newest of 50)</span></h2>')
    // The seeded webhook, disabled since its endpoint never answered (fixtures/world.json).
    expect(text).toMatch(/<h3>Webhook 1: https:\/\/hooks\.acme-recruitment\.example\/ivs\/events <span class="badge [^"]*">disabled<\/span><\/h3>/)
    expect(text).toContain('<script src="/_mock/ui/assets/dashboard.js" defer></script>')
  })

  test('reads as the member: an assigned-only member sees their records only, and no webhooks', async () => {
    // Aisha Rahman (user 4) is Acme's assigned-only member.
    const { text } = await page('/_mock/ui/teams/1/as/4')
    const assigned = (await mock.api('ivs_acme_assigned').get('/records', { limit: 1 })).body.total
    expect(text).toContain(`newest of ${assigned})</span></h2>`)
    expect(text).toContain('403 This action is unauthorized.: this member&#39;s role may not see webhooks.')
  })

  test('a legacy team has no cases', async () => {
    // Gary Lumbergh owns Initech Lettings (team 3).
    const owner = mock.store.team(3)?.members.find((member) => member.role === 'owner')?.user
    expect((await page(`/_mock/ui/teams/3/as/${owner}`)).text).toContain('This is a legacy team: it has no cases.')
  })

  test("the dashboard's own API calls are neither in the traffic journal nor on the rate limit", async () => {
    await page(OWNER)
    expect((await mock.control.get('/journal', { team: 1 })).body.total).toBe(0)
    const res = await api().get('/me')
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('9999')
  })

  test('the version moves when an event is published for the team, and not for another team', async () => {
    const before = await versionOf(1)
    expect(await versionOf(1)).toBe(before)
    const other = await versionOf(2)
    await api().post('/clients', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' })
    expect(await versionOf(1)).not.toBe(before)
    expect(await versionOf(2)).toBe(other)
    expect((await mock.app.request('/_mock/ui/teams/99/version')).status).toBe(404)
  })
})

describe('actions', () => {
  test('advancing the clock runs what falls due, as the control API does', async () => {
    const record = await api().post('/records', { client: 3, steps: [{ type: 'check.watchlist' }], notification: false })
    await mock.control.post(`/records/${record.body.id}/complete`, {})
    const moved = await act(`${OWNER}/clock/advance`, { seconds: '60', back: `${OWNER}/records/${record.body.id}` })
    expect(moved).toEqual({ status: 303, location: `${OWNER}/records/${record.body.id}`, notice: 'The clock moved 60 s to 2026-07-01 12:01:00 UTC; 1 job ran.' })
    expect((await api().get(`/records/${record.body.id}`)).body.status).toBe('complete')
    expect((await act(`${OWNER}/clock/advance`, { seconds: '0' })).problem).toBe('Advance by a whole number of seconds from 1 to 31536000.')
    // Somewhere outside the dashboard is no place to come back to.
    expect((await act(`${OWNER}/clock/advance`, { seconds: '1', back: 'https://example.com/' })).location).toBe(OWNER)
  })

  test("reviewing a step goes through POST /records/{id}/steps/{id}/reviews as the member: a read-only member gets the API's 403", async () => {
    const record = (await api().post('/records', { client: 3, steps: [{ type: 'check.watchlist' }], notification: false })).body
    const step = record.steps[0].id
    const refused = await act(`${READ_ONLY}/records/${record.id}/steps/${step}/review`, { status: 'approved' })
    expect(refused.problem).toBe('The review was refused: 403 This action is unauthorized.')
    const invalid = await act(`${OWNER}/records/${record.id}/steps/${step}/review`, { status: 'splendid' })
    expect(invalid.problem).toBe('The review was refused: status: The selected status is invalid.')
    const reviewed = await act(`${OWNER}/records/${record.id}/steps/${step}/review`, { status: 'rejected', message: 'Blurry', back: `${OWNER}/records/${record.id}` })
    expect(reviewed).toEqual({ status: 303, location: `${OWNER}/records/${record.id}`, notice: `Step ${step} reviewed: rejected.` })
    const reviews = (await api().get(`/records/${record.id}/steps/${step}/reviews`)).body.data
    expect(reviews.map((review: any) => [review.status, review.message, review.reviewed_by])).toEqual([['rejected', 'Blurry', 1]])
    const detail = await page(`${OWNER}/records/${record.id}`)
    expect(detail.text).toContain('<span class="badge bad">rejected</span> <span class="muted">Blurry</span>')
  })

  test('a new case with the record in it, then the case approved, through the case operations', async () => {
    const record = (await api().post('/records', { client: 3, steps: [{ type: 'check.watchlist' }], notification: false })).body
    const before = mock.events.length
    const created = await act(`${OWNER}/records/${record.id}/new-case`, { name: 'Kitty Huels: onboarding' })
    const caseId = Number(/^Case (\d+) created/.exec(created.notice ?? '')?.[1])
    expect(created.notice).toBe(`Case ${caseId} created with record ${record.id} in it.`)
    const approved = await act(`${OWNER}/cases/${caseId}/review`, { status: 'approved' })
    expect(approved.notice).toBe(`Case ${caseId} reviewed: approved.`)
    const row = (await api().get(`/cases/${caseId}`, { expand: 'items' })).body
    expect([row.name, row.status, row.items.map((item: any) => item.entity.id)]).toEqual(['Kitty Huels: onboarding', 'approved', [record.id]])
    expect(mock.events.slice(before).map((event) => event.type)).toEqual(['case.created', 'case.item_added', 'case.status', 'case.approved'])
    // Adding it again to an existing case of another client is the API's 422.
    const otherClientCase = (await api().post('/cases', { client: 4, name: 'Another client' })).body.id
    expect((await act(`${OWNER}/records/${record.id}/case`, { case: String(otherClientCase) })).problem).toBe('The record could not be added: 0.id: The selected 0.id is invalid.')
  })

  test('an unknown member cannot act', async () => {
    expect((await act('/_mock/ui/teams/1/as/99/clock/advance', { seconds: '60' })).status).toBe(404)
  })
})

describe('the API reference', () => {
  test('/docs renders the served OpenAPI document with the renderer the mock serves; /docs/control the control API', async () => {
    const docs = await page('/docs')
    expect(docs.status).toBe(200)
    expect(docs.text).toContain('<redoc spec-url="/openapi.json"')
    expect(docs.text).toContain('<script src="/docs/assets/redoc.standalone.js" defer></script>')
    expect((await page('/docs/control')).text).toContain('<redoc spec-url="/_mock/openapi.json"')
    const renderer = await mock.app.request('/docs/assets/redoc.standalone.js')
    expect(renderer.status).toBe(200)
    expect(renderer.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await renderer.text()).length).toBeGreaterThan(100_000)
    expect((await mock.app.request('/docs/assets/other.js')).status).toBe(404)
  })
})
