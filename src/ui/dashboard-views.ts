// What the dashboard shows, from the API's answers (as the acting user sees them) and the mock's
// own state (teams, the clock, the jobs waiting on it). Pure rendering: dashboard.ts fetches.
import type { CaseJson, CheckJson, ClientJson, RecordJson, StepJson, StepReviewJson, WebhookDeliveryJson, WebhookJson } from '../contracts/generated.ts'
import { toTimestamp } from '../kernel/clock.ts'
import type { JobRow } from '../kernel/scheduler.ts'
import { verifySignature } from '../webhook-delivery/verify.js'
import { attr, h, when, type Html } from './page.ts'

/** The dashboard's path for a team and the user acting in it. */
export const dashboardPath = (team: number, user: number) => `/_mock/ui/teams/${team}/as/${user}`

export interface Viewer {
  team: { id: number; name: string; cases: boolean }
  user: { id: number; name: string; role: string }
  /** Where this page lives: an action answers with it again. */
  here: string
}

const BADGES: Readonly<Record<string, string>> = {
  complete: 'ok',
  reviewed: 'ok',
  accepted: 'ok',
  clear: 'ok',
  approved: 'ok',
  delivered: 'ok',
  pending: 'info',
  started: 'info',
  waiting: 'info',
  submitted: 'info',
  awaiting_response: 'info',
  action_required: 'warn',
  reviewed_pending_decision: 'warn',
  on_hold: 'warn',
  paused: 'warn',
  amendments: 'warn',
  consider: 'warn',
  refer: 'warn',
  rejected: 'bad',
  failed: 'bad',
  incomplete: 'bad',
  empty: 'bad',
}

export function badge(value: string, label = value.replace(/_/g, ' ')): Html {
  return h`<span class="badge ${BADGES[value] ?? ''}">${label}</span>`
}

/** An action's form: POSTs to the dashboard, which answers with this page again and a notice. */
function actionForm(viewer: Viewer, action: string, content: Html, label: string, options: { id?: string; secondary?: boolean } = {}): Html {
  return h`<form method="post" action="${dashboardPath(viewer.team.id, viewer.user.id)}/${action}" class="inline-form"${attr('id', options.id)}><input type="hidden" name="back" value="${viewer.here}">${content}<button type="submit" class="small${options.secondary ? ' secondary' : ''}">${label}</button></form>`
}

export function notices(notice: string | undefined, problem: string | undefined): Html {
  return h`${notice === undefined ? '' : h`<div class="notice" role="status" id="notice">${notice}</div>`}${problem === undefined ? '' : h`<div class="notice bad" role="alert" id="problem">${problem}</div>`}
<div class="notice" id="refresh-notice" role="status" hidden>The mock's state has changed. <a href="">Reload the page</a> to see it.</div>`
}

export function header(viewer: Viewer): Html {
  const base = dashboardPath(viewer.team.id, viewer.user.id)
  return h`<a class="brand" href="/_mock/ui">IVS mock</a>
<nav aria-label="Dashboard"><ul><li><a href="${base}">${viewer.team.name}</a></li><li><a href="${base}#records">Records</a></li><li><a href="${base}#cases">Cases</a></li><li><a href="${base}#webhooks">Webhooks</a></li><li><a href="${base}#clients">Clients</a></li><li><a href="/docs">API reference</a></li></ul></nav>
<span class="who">Acting as ${viewer.user.name} (${viewer.user.role}) · <a href="/_mock/ui">switch</a></span>`
}

// The clock and the jobs waiting on it.

const ADVANCES: ReadonlyArray<{ seconds: number; label: string }> = [
  { seconds: 60, label: '+1 minute' },
  { seconds: 3600, label: '+1 hour' },
  { seconds: 86_400, label: '+1 day' },
  { seconds: 7 * 86_400, label: '+1 week' },
]

const JOB_LABELS: Readonly<Record<string, (subject: number) => string>> = {
  'check.result': (id) => `Check ${id} returns its result`,
  'record.reminder': (id) => `Record ${id}: reminder to the client`,
  'record.expiry': (id) => `Record ${id} expires`,
  'attachment.scan': (id) => `Attachment ${id}: virus scan ends`,
  'client.deletion_due': (id) => `Client ${id}: deletion date reached`,
  'webhook.retry': (id) => `Webhook delivery ${id}: next attempt`,
}

export function clockPanel(viewer: Viewer, clock: { now: string; frozen: boolean }, jobs: readonly JobRow[], jobsWaiting: number): Html {
  return h`<section class="panel" aria-labelledby="clock-title" id="clock">
<h2 id="clock-title">The mock's clock</h2>
<div class="grid"><div>
<p>Now: <strong id="clock-now">${when(clock.now)}</strong> ${clock.frozen ? badge('paused', 'frozen') : h`<span class="muted">(ticking with real time)</span>`}. Jobs waiting, all teams: ${jobsWaiting}.</p>
<div class="actions">${ADVANCES.map(({ seconds, label }) =>
    actionForm(viewer, 'clock/advance', h`<input type="hidden" name="seconds" value="${seconds}">`, label, { id: `advance-${seconds}` }),
  )}
${actionForm(viewer, 'clock/advance', h`<label for="advance-seconds">Seconds</label><input type="number" id="advance-seconds" name="seconds" min="1" max="31536000" value="300" style="width:7rem">`, 'Advance', { secondary: true })}</div>
</div><div>
<h3>Next jobs of ${viewer.team.name}</h3>
${
  jobs.length === 0
    ? h`<p class="muted" id="no-jobs">Nothing is waiting on the clock for this team.</p>`
    : h`<div class="table-wrap"><table id="jobs"><thead><tr><th scope="col">Due</th><th scope="col">What happens</th></tr></thead><tbody>${jobs.map(
        (job) => h`<tr><td>${when(toTimestamp(new Date(job.due)))}</td><td>${JOB_LABELS[job.kind]?.(job.subject) ?? `${job.kind} ${job.subject}`}</td></tr>`,
      )}</tbody></table></div>`
}
</div></div>
</section>`
}

// Records.

const stepLabel = (step: StepJson) => step.type.replace(/^check\./, '').replace(/_/g, ' ')

function checkOf(step: StepJson): CheckJson | undefined {
  return typeof step.check === 'object' ? step.check : undefined
}

/** A photo ID check's result: the only check response that states one (docs/specification-notes.md "Checks and responses"). */
function resultOf(check: CheckJson | undefined): string | undefined {
  const response = check?.response
  if (typeof response !== 'object' || response === null || response.object !== 'check_response.photo_id') return undefined
  return response.result ?? undefined
}

function stepSummary(step: StepJson): Html {
  const check = checkOf(step)
  const state = check ? check.status : step.completed_at === null ? 'pending' : 'complete'
  return h`<li>${stepLabel(step)}: ${badge(state)}</li>`
}

export function recordsPanel(viewer: Viewer, records: ReadonlyArray<{ record: RecordJson; steps: readonly StepJson[]; client: string }>, total: number, problem?: string): Html {
  return h`<section class="panel" aria-labelledby="records-title" id="records">
<h2 id="records-title">Records <span class="muted">(${records.length} newest of ${total})</span></h2>
${problem === undefined ? '' : h`<p class="error">${problem}</p>`}
<div class="table-wrap"><table><thead><tr><th scope="col">Record</th><th scope="col">Client</th><th scope="col">Status</th><th scope="col">Steps and checks</th><th scope="col">Perform page</th><th scope="col">Updated</th></tr></thead>
<tbody>${records.map(
    ({ record, steps, client }) => h`<tr id="record-${record.id}"><td><a href="${dashboardPath(viewer.team.id, viewer.user.id)}/records/${record.id}">Record ${record.id}</a></td><td>${client}</td><td>${badge(record.status)}</td>
<td><ul class="plain">${steps.map(stepSummary)}</ul></td>
<td>${record.perform_url === false ? h`<span class="muted">closed</span>` : h`<a href="${record.perform_url}" target="_blank" rel="noopener">Open<span class="visually-hidden"> the perform page of record ${record.id}</span></a>`}</td><td>${when(record.updated_at)}</td></tr>`,
  )}</tbody></table></div>
</section>`
}

// A record in detail.

const STEP_REVIEW_STATUSES = ['approved', 'rejected', 'pending'] as const

export function recordDetail(
  viewer: Viewer,
  record: RecordJson,
  client: ClientJson | undefined,
  steps: ReadonlyArray<{ step: StepJson; check: CheckJson | undefined; review: StepReviewJson | undefined }>,
  cases: { list: readonly CaseJson[]; problem?: string },
  jobs: readonly JobRow[],
): Html {
  const name = client ? client.name.full_name : `client ${typeof record.client === 'object' ? record.client.id : record.client}`
  return h`<p><a href="${dashboardPath(viewer.team.id, viewer.user.id)}">Back to ${viewer.team.name}</a></p>
<h1>Record ${record.id} ${badge(record.status)}</h1>
<div class="grid">
<section class="panel" aria-labelledby="facts-title"><h2 id="facts-title">About</h2>
<dl class="facts"><dt>Client</dt><dd>${name} (${record.email})</dd><dt>Reference</dt><dd>${record.reference ?? '-'}</dd><dt>Created</dt><dd>${when(record.created_at)}</dd>
<dt>Expires</dt><dd>${when(record.expired_at)}</dd><dt>Archived</dt><dd>${when(record.archived_at)}</dd>
<dt>Perform page</dt><dd>${record.perform_url === false ? h`<span class="muted">closed: no step can be submitted</span>` : h`<a id="perform-link" href="${record.perform_url}" target="_blank" rel="noopener">${record.perform_url}</a>`}</dd></dl></section>
<section class="panel" aria-labelledby="case-title"><h2 id="case-title">Cases of this client</h2>
${cases.problem === undefined ? '' : h`<p class="muted">${cases.problem}</p>`}
${
  cases.list.length === 0
    ? h`<p class="muted">No case yet.</p>`
    : h`<ul>${cases.list.map((row) => h`<li>${row.name} ${badge(row.status)} <span class="muted">(${caseItemCount(row) === 1 ? '1 record' : `${caseItemCount(row)} records`}${caseHolds(row, record.id) ? ', this one included' : ''})</span></li>`)}</ul>`
}
${
  cases.problem === undefined
    ? h`${
        cases.list.length > 0
          ? actionForm(
              viewer,
              `records/${record.id}/case`,
              h`<label for="case-choice">Add to</label><select id="case-choice" name="case">${cases.list.map((row) => h`<option value="${row.id}">${row.name} (case ${row.id})</option>`)}</select>`,
              'Add to the case',
              { id: 'add-to-case' },
            )
          : ''
      }
<p>${actionForm(viewer, `records/${record.id}/new-case`, h`<label for="new-case-name">New case</label><input type="text" id="new-case-name" name="name" value="${name}: onboarding">`, 'Create the case', { id: 'new-case', secondary: true })}</p>`
    : ''
}
</section>
</div>
<section class="panel" aria-labelledby="steps-title"><h2 id="steps-title">Steps and checks</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Step</th><th scope="col">Completed</th><th scope="col">Check</th><th scope="col">Result</th><th scope="col">Review</th><th scope="col">Review the step</th></tr></thead>
<tbody>${steps.map(({ step, check, review }) => {
    const result = resultOf(check)
    return h`<tr id="step-${step.id}"><td>${step.type}</td><td>${when(step.completed_at)}</td><td>${check ? h`${badge(check.status)} <span class="muted">check ${check.id}</span>` : '-'}</td>
<td>${result === undefined ? '-' : badge(result)}</td><td>${review ? h`${badge(review.status)}${review.message === null ? '' : h` <span class="muted">${review.message}</span>`}` : h`<span class="muted">not reviewed</span>`}</td>
<td>${actionForm(
      viewer,
      `records/${record.id}/steps/${step.id}/review`,
      h`<label class="visually-hidden" for="review-status-${step.id}">Review of step ${step.id}</label><select id="review-status-${step.id}" name="status">${STEP_REVIEW_STATUSES.map((status) => h`<option value="${status}">${status}</option>`)}</select>
<label class="visually-hidden" for="review-message-${step.id}">Message for step ${step.id}</label><input type="text" id="review-message-${step.id}" name="message" placeholder="Message (optional)" style="width:12rem">`,
      'Review',
      { id: `review-${step.id}` },
    )}</td></tr>`
  })}</tbody></table></div>
</section>
<section class="panel" aria-labelledby="record-jobs-title"><h2 id="record-jobs-title">Waiting on the clock</h2>
${jobs.length === 0 ? h`<p class="muted">Nothing.</p>` : h`<ul>${jobs.map((job) => h`<li>${when(toTimestamp(new Date(job.due)))}: ${JOB_LABELS[job.kind]?.(job.subject) ?? job.kind}</li>`)}</ul>`}
<p><a href="${dashboardPath(viewer.team.id, viewer.user.id)}#clock">Advance the clock</a> to bring them on.</p>
</section>`
}

/** The records a case holds (fetched with expand=items). */
const caseRecords = (row: CaseJson): number[] => (row.items ?? []).flatMap((item) => (typeof item === 'object' ? [item.entity.id] : []))
const caseItemCount = (row: CaseJson) => row.items?.length ?? 0
const caseHolds = (row: CaseJson, record: number) => caseRecords(row).includes(record)

// Cases.

const CASE_STATUSES = ['approved', 'rejected', 'on_hold', 'reviewed_pending_decision', 'action_required', 'awaiting_response'] as const

export function casesPanel(viewer: Viewer, cases: readonly CaseJson[], clients: ReadonlyMap<number, string>, total: number, problem?: string): Html {
  return h`<section class="panel" aria-labelledby="cases-title" id="cases">
<h2 id="cases-title">Cases${problem === undefined ? h` <span class="muted">(${cases.length} newest of ${total})</span>` : ''}</h2>
${
  problem !== undefined
    ? h`<p class="muted">${problem}</p>`
    : h`<div class="table-wrap"><table><thead><tr><th scope="col">Case</th><th scope="col">Client</th><th scope="col">Status</th><th scope="col">Records</th><th scope="col">Review the case</th></tr></thead>
<tbody>${cases.map(
        (row) => h`<tr id="case-${row.id}"><td>${row.name} <span class="muted">(case ${row.id})</span></td><td>${typeof row.client === 'object' ? row.client.name.full_name : (clients.get(row.client) ?? `client ${row.client}`)}</td><td>${badge(row.status)}</td>
<td>${caseRecords(row).length > 0 ? caseRecords(row).map((record, index) => h`${index > 0 ? ', ' : ''}<a href="${dashboardPath(viewer.team.id, viewer.user.id)}/records/${record}">${record}</a>`) : h`<span class="muted">none</span>`}</td>
<td>${actionForm(
          viewer,
          `cases/${row.id}/review`,
          h`<label class="visually-hidden" for="case-status-${row.id}">New status of case ${row.id}</label><select id="case-status-${row.id}" name="status">${CASE_STATUSES.map((status) => h`<option value="${status}">${status.replace(/_/g, ' ')}</option>`)}</select>`,
          'Review',
          { id: `case-review-${row.id}` },
        )}</td></tr>`,
      )}</tbody></table></div>`
}
</section>`
}

// Clients.

export function clientsPanel(clients: readonly ClientJson[], total: number, problem?: string): Html {
  return h`<section class="panel" aria-labelledby="clients-title" id="clients">
<h2 id="clients-title">Clients <span class="muted">(${clients.length} newest of ${total})</span></h2>
${problem === undefined ? '' : h`<p class="error">${problem}</p>`}
<div class="table-wrap"><table><thead><tr><th scope="col">Client</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${clients.map((client) => h`<tr><td>${client.id}</td><td>${client.name.full_name}</td><td>${client.email}</td><td>${client.status === null ? h`<span class="muted">-</span>` : badge(client.status)}</td><td>${when(client.created_at)}</td></tr>`)}</tbody></table></div>
</section>`
}

// Webhooks and their delivery log.

function signatureVerified(webhook: WebhookJson, delivery: WebhookDeliveryJson): boolean {
  const headers = delivery.request.headers as Record<string, unknown>
  const signature = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-svc-signature')?.[1]
  // The log keeps the body as sent; serialised again it is the same bytes (the engine signs JSON.stringify of it).
  return verifySignature(JSON.stringify(delivery.request.body), typeof signature === 'string' ? signature : undefined, webhook.secret)
}

function deliveryRow(webhook: WebhookJson, delivery: WebhookDeliveryJson): Html {
  const status = delivery.response === null ? null : delivery.response.status_code
  const succeeded = status !== null && /^2\d\d$/.test(status)
  const verified = signatureVerified(webhook, delivery)
  return h`<tr class="delivery" data-event="${delivery.event}"><td>${delivery.event}</td><td>${when(delivery.last_sent_at)}</td><td>${delivery.attempts}</td>
<td>${status === null ? badge('failed', 'no answer') : badge(succeeded ? 'delivered' : 'failed', status)}</td><td>${verified ? badge('clear', 'verified') : badge('rejected', 'does not verify')}</td>
<td><details><summary>Request and response<span class="visually-hidden"> of delivery ${delivery.id}</span></summary>
<h4>Request</h4><pre>POST ${delivery.request.url}
${Object.entries(delivery.request.headers as Record<string, unknown>).map(([name, value]) => `${name}: ${String(value)}\n`)}
${JSON.stringify(delivery.request.body, null, 2)}</pre>
<h4>Response</h4><pre>${delivery.response === null ? 'No HTTP answer (refused, timed out or unreachable).' : `${delivery.response.status_code}\n${JSON.stringify(delivery.response.body, null, 2)}`}</pre></details></td></tr>`
}

export function webhooksPanel(webhooks: ReadonlyArray<{ webhook: WebhookJson; deliveries: readonly WebhookDeliveryJson[]; total: number }>, problem?: string): Html {
  return h`<section class="panel" aria-labelledby="webhooks-title" id="webhooks">
<h2 id="webhooks-title">Webhooks</h2>
${problem !== undefined ? h`<p class="muted">${problem}</p>` : webhooks.length === 0 ? h`<p class="muted">No webhook: subscribe one with POST /webhooks.</p>` : ''}
${webhooks.map(
  ({ webhook, deliveries, total }) => h`<h3>Webhook ${webhook.id}: ${webhook.url} ${webhook.is_enabled ? badge('complete', 'enabled') : badge('failed', 'disabled')}</h3>
<p class="muted">Events: ${webhook.events.join(', ')}. Deliveries: ${deliveries.length} newest of ${total}; signatures checked with the webhook's secret as a receiver would (ivs-mock/webhooks).</p>
${
  deliveries.length === 0
    ? h`<p class="muted">No delivery has been attempted yet.</p>`
    : h`<div class="table-wrap"><table id="deliveries-${webhook.id}"><caption class="visually-hidden">Deliveries of webhook ${webhook.id}</caption><thead><tr><th scope="col">Event</th><th scope="col">Last sent</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col">Signature</th><th scope="col">Details</th></tr></thead>
<tbody>${deliveries.map((delivery) => deliveryRow(webhook, delivery))}</tbody></table></div>`
}`,
)}
</section>`
}

// The team and user picker.

export interface PickerTeam {
  id: number
  name: string
  cases: boolean
  members: ReadonlyArray<{ id: number; name: string; email: string; role: string }>
}

export function picker(teams: readonly PickerTeam[]): Html {
  return h`<h1>Dashboard</h1>
<p>Pick a team and the member to act as. The dashboard reads and changes the team's state through the API's own operations as that member, so their role applies: a read-only member sees everything and changes nothing.</p>
<form method="get" action="/_mock/ui/open" class="panel" id="picker">
<label for="member">Team and member</label>
<select id="member" name="member">${teams.map(
    (team) => h`<optgroup label="${team.name}${team.cases ? '' : ' (legacy, no cases)'}">${team.members.map(
      (member) => h`<option value="${team.id}:${member.id}">${member.name} (${member.role}), ${team.name}</option>`,
    )}</optgroup>`,
  )}</select>
<div class="actions"><button type="submit" id="open">Open the dashboard</button></div>
</form>
<section class="panel" aria-labelledby="teams-title"><h2 id="teams-title">Teams</h2>
<ul>${teams.map((team) => {
    const owner = team.members.find((member) => member.role === 'owner') ?? team.members[0]
    return h`<li>${team.name} <span class="muted">(team ${team.id}, ${team.members.length} members)</span>${owner ? h`: <a href="${dashboardPath(team.id, owner.id)}">open as ${owner.name} (${owner.role})</a>` : ''}</li>`
  })}</ul>
</section>`
}
