// The consent page of GET /oauth/authorize: rendered on the server with hono's html helper (which
// escapes every value), no script and no external asset, so it loads at once with no network. It
// stands in for the real service's sign-in and consent: pick a current member of a team (no
// password: this is a mock), then grant or deny. Stable ids (member, grant, deny) for browser tests.
import { html, raw } from 'hono/html'
import type { Store } from '../store/world.ts'
import type { OAuthClientRow } from './rows.ts'

export interface ConsentRequest {
  client: OAuthClientRow
  redirectUri: string
  state: string | undefined
}

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 32rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; font-weight: 600; margin: 1.5rem 0 .4rem; }
select { width: 100%; font: inherit; padding: .4rem; }
.actions { display: flex; gap: 1rem; margin-top: 1.5rem; }
button { font: inherit; padding: .5rem 1.2rem; border-radius: 4px; border: 1px solid #1d2330; cursor: pointer; }
#grant { background: #1f5fbf; border-color: #1f5fbf; color: #fff; }
#deny { background: #fff; }
button:focus-visible, select:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.note { color: #545b68; font-size: .9rem; }
`

/** Every current member of every team, grouped by team: who may sign in. */
function memberOptions(store: Store) {
  return [...store.allTeams()].map((team) => {
    const options = team.members
      .filter((member) => member.role !== null)
      .map((member) => {
        const user = store.user(member.user)
        return user && html`<option value="${user.id}:${team.id}">${user.name} &lt;${user.email}&gt;, ${member.role}</option>`
      })
    return html`<optgroup label="${team.row.name}">${options}</optgroup>`
  })
}

export function consentPage(store: Store, request: ConsentRequest): string {
  const { client, redirectUri, state } = request
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorise ${client.name} | IVS mock</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
<h1>Authorisation request</h1>
<p id="summary"><strong>${client.name}</strong> is asking for access to your account. It will act as the member you sign in as, with that member's role in the team, until access is revoked.</p>
<form method="post" action="/oauth/authorize" aria-describedby="summary">
<input type="hidden" name="client_id" value="${client.id}">
<input type="hidden" name="redirect_uri" value="${redirectUri}">
${state === undefined ? '' : html`<input type="hidden" name="state" value="${state}">`}
<label for="member">Sign in as</label>
<select id="member" name="member" required autofocus aria-describedby="member-note">
<option value="">Choose a member of a team</option>
${memberOptions(store)}
</select>
<p id="member-note" class="note">This is the IVS mock: no password is asked. Every current member of every team is listed.</p>
<div class="actions">
<button type="submit" id="grant" name="decision" value="grant">Grant access</button>
<button type="submit" id="deny" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
</main>
</body>
</html>
`
  // The helper only answers a promise for a promise among the values; there is none here.
  if (page instanceof Promise) throw new Error('the consent page is rendered synchronously')
  return page
}
