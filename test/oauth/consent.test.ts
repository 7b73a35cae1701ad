// The consent page (GET /oauth/authorize) and its form (POST /oauth/authorize): checks of the
// authorisation request in the league server's order, labelled controls, and the redirects back to
// the client with code or error=access_denied, state round-tripped.
import { describe, expect, it } from 'vitest'
import { createTestMock, type TestMock } from '../support/mock.ts'
import { ATS, ATS_REDIRECT, oauthEndpoints, OAUTH_ERRORS, postForm, redeem } from '../support/oauth.ts'

function consentPage(mock: TestMock, query: Record<string, string>) {
  return oauthEndpoints(mock).get('/oauth/authorize', query)
}

const REQUEST = { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT, response_type: 'code' }

/** The query of a Location header, as an object. */
function locationQuery(location: string | null): { base: string; query: Record<string, string> } {
  const url = new URL(location ?? '')
  return { base: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) }
}

describe('GET /oauth/authorize', () => {
  const mock = createTestMock()

  it('answers the consent page: the client named, a labelled member select, Grant and Deny buttons, the request in hidden fields', async () => {
    const team = mock.newTeam()
    const res = await consentPage(mock, { ...REQUEST, state: 'abc' })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    const page = res.text
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/)
    expect(page).toContain(`<title>Authorise ${ATS.name} | IVS mock</title>`)
    expect(page).toContain(`<strong>${ATS.name}</strong> is asking for access to your account.`)
    expect(page).toContain('<form method="post" action="/oauth/authorize" aria-describedby="summary">')
    expect(page).toContain(`<input type="hidden" name="client_id" value="${ATS.client_id}">`)
    expect(page).toContain(`<input type="hidden" name="redirect_uri" value="${ATS_REDIRECT}">`)
    expect(page).toContain('<input type="hidden" name="state" value="abc">')
    expect(page).toContain('<label for="member">Sign in as</label>')
    expect(page).toContain('<select id="member" name="member" required autofocus aria-describedby="member-note">')
    expect(page).toContain(`<optgroup label="${team.team.row.name}">`)
    const owner = team.users.owner
    expect(page).toContain(`<option value="${owner.id}:${team.team.id}">${owner.name} &lt;${owner.email}&gt;, owner</option>`)
    expect(page).toContain('<button type="submit" id="grant" name="decision" value="grant">Grant access</button>')
    expect(page).toContain('<button type="submit" id="deny" name="decision" value="deny" formnovalidate>Deny</button>')
    // No script, no external asset: it works with no network.
    expect(page).not.toMatch(/<script|<link|src=|https?:\/\/(?!127\.0\.0\.1:8080\/callback)/)
  })

  it('cannot be framed by another page: the frame protection of every other page (CSP frame-ancestors, X-Frame-Options)', async () => {
    const perform = await mock.api().post('/records', { client: 3, steps: [{ type: 'check.watchlist' }], notification: false })
    expect(perform.status, perform.text).toBe(201)
    const pages = ['/_mock/ui', '/docs', new URL(perform.body.perform_url as string).pathname]
    for (const path of pages) {
      const res = await mock.app.request(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
    }
    const consent = await consentPage(mock, REQUEST)
    expect(consent.status).toBe(200)
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(consent.headers.get('x-frame-options')).toBe('DENY')
  })

  it('lists only current members: someone who left is not offered', async () => {
    const team = mock.newTeam()
    const membership = team.team.membership(team.users.member.id)
    if (!membership) throw new Error('the member is a member')
    team.team.updateMember(membership, { role: null })
    const page = (await consentPage(mock, REQUEST)).text
    expect(page).not.toContain(`value="${team.users.member.id}:${team.team.id}"`)
    expect(page).toContain(`value="${team.users.owner.id}:${team.team.id}"`)
  })

  it('escapes what it shows: a state with markup stays a value', async () => {
    const page = (await consentPage(mock, { ...REQUEST, state: '"><script>alert(1)</script>' })).text
    expect(page).toContain('<input type="hidden" name="state" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">')
    expect(page).not.toContain('<script>')
  })

  it.each([
    ['response_type missing', { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT }, 400, OAUTH_ERRORS.unsupportedGrantType],
    ['response_type token', { ...REQUEST, response_type: 'token' }, 400, OAUTH_ERRORS.unsupportedGrantType],
    ['client_id missing', { redirect_uri: ATS_REDIRECT, response_type: 'code' }, 400, OAUTH_ERRORS.unsupportedGrantType],
    ['an unknown client', { ...REQUEST, client_id: 'nobody' }, 401, OAUTH_ERRORS.invalidClient],
    ['redirect_uri missing', { client_id: ATS.client_id, response_type: 'code' }, 400, OAUTH_ERRORS.invalidRequest('redirect_uri')],
    ['a redirect_uri the client did not register', { ...REQUEST, redirect_uri: 'http://127.0.0.1:8080/callback/other' }, 401, OAUTH_ERRORS.invalidClient],
  ])('refuses %s with an error, never a redirect', async (_, query, status, body) => {
    const res = await consentPage(mock, query)
    expect([res.status, res.body, res.headers.get('Location')]).toEqual([status, body, null])
  })
})

describe('POST /oauth/authorize (the consent form)', () => {
  const mock = createTestMock()
  const team = mock.newTeam()
  const form = { client_id: ATS.client_id, redirect_uri: ATS_REDIRECT }
  const member = `${team.users.member.id}:${team.team.id}`

  it('Grant: 302 to redirect_uri with a code and the state; the code gives tokens acting as that member', async () => {
    const res = await postForm(mock, '/oauth/authorize', { ...form, state: 's t&ate', member, decision: 'grant' })
    expect(res.status).toBe(302)
    expect(res.text).toBe('')
    const { base, query } = locationQuery(res.headers.get('Location'))
    expect(base).toBe(ATS_REDIRECT)
    expect(query).toEqual({ code: expect.stringMatching(/^[0-9a-f]{80}$/), state: 's t&ate' })
    const tokens = await redeem(mock, query.code as string)
    expect(tokens.status, tokens.text).toBe(200)
    expect((await mock.api(tokens.body.access_token).get('/me')).body).toEqual((await team.api('member').get('/me')).body)
  })

  it('Grant without a state: the code alone', async () => {
    const res = await postForm(mock, '/oauth/authorize', { ...form, member, decision: 'grant' })
    expect(Object.keys(locationQuery(res.headers.get('Location')).query)).toEqual(['code'])
  })

  it('Deny: 302 to redirect_uri with error=access_denied and the state', async () => {
    const res = await postForm(mock, '/oauth/authorize', { ...form, state: 'xyz', decision: 'deny' })
    expect([res.status, res.headers.get('Location')]).toEqual([302, `${ATS_REDIRECT}?error=access_denied&state=xyz`])
  })

  it('refuses a redirect_uri the client did not register: 401, never a redirect', async () => {
    const res = await postForm(mock, '/oauth/authorize', { ...form, redirect_uri: 'http://evil.example/cb', member, decision: 'grant' })
    expect([res.status, res.body, res.headers.get('Location')]).toEqual([401, OAUTH_ERRORS.invalidClient, null])
  })

  it.each([
    ['no member', { decision: 'grant' }, OAUTH_ERRORS.invalidRequest('member')],
    ['no decision', { member }, OAUTH_ERRORS.invalidRequest('decision')],
    ['a member of another team', { member: `${team.users.member.id}:1`, decision: 'grant' }, OAUTH_ERRORS.invalidRequest('member', 'The member is not a current member of that team')],
  ])('400 invalid_request for %s', async (_, fields, body) => {
    const res = await postForm(mock, '/oauth/authorize', { ...form, ...fields })
    expect([res.status, res.body]).toEqual([400, body])
  })
})
