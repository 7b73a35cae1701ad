// The team dashboard under /_mock/ui: pick a team and a member, then watch the team's records,
// checks, cases, clients and webhook deliveries, move the mock's clock, review steps and cases,
// and open the clients' perform pages. Reads and writes go through the API's operations as the
// picked member (api.ts), so the dashboard can do nothing that member could not do with a token;
// the clock moves as the control API moves it (advanceSettling). Each action answers with a 303
// back to the page it came from, with a notice or the API's error.
import type { Context, Hono } from 'hono'
import type { Services } from '../context.ts'
import type { CaseJson, ClientJson, RecordJson, StepJson, WebhookDeliveryJson, WebhookJson } from '../contracts/generated.ts'
import type { Contracts } from '../contracts/load.ts'
import type { Identity, Team } from '../store/world.ts'
import { recordJobs } from '../lifecycle/schedule.ts'
import { advanceSettling } from '../webhook-delivery/index.ts'
import { DASHBOARD_BASE } from './bases.ts'
import { ApiCaller, problemOf, type ApiDispatch } from './api.ts'
import {
  casesPanel,
  clientsPanel,
  clockPanel,
  dashboardPath,
  header,
  notices,
  picker,
  recordDetail,
  recordsPanel,
  webhooksPanel,
  type PickerTeam,
  type Viewer,
} from './dashboard-views.ts'
import { h, pageResponse, scriptResponse, seeOther, when } from './page.ts'
import { DASHBOARD_SCRIPT } from './scripts.ts'

const SCRIPT_PATH = `${DASHBOARD_BASE}/assets/dashboard.js`

/** How many rows each list of the dashboard shows (the newest). */
const ROWS = { records: 10, cases: 10, clients: 8, deliveries: 10, jobs: 6 } as const

const MAX_ADVANCE_SECONDS = 365 * 86_400

/** The rows of a list answer (the generated list types intersect data with unknown[]). */
const dataOf = <T>(list: { data?: unknown }): T[] => (list.data ?? []) as T[]

export interface DashboardOptions {
  services: Services
  contracts: Contracts
  /** Sends a request to the API's routes as a member (the gate, in process). */
  dispatch: ApiDispatch
}

/**
 * A version of a team's state for the page's refresh: events published for the team, webhook
 * attempts made, and jobs waiting on the clock. It moves whenever something the page shows does,
 * and costs a counter read and a pass over the team's delivery log.
 */
class StateVersions {
  private readonly events = new Map<number, number>()

  constructor(private readonly services: Services) {
    services.events.subscribe((event) => this.events.set(event.teamId, (this.events.get(event.teamId) ?? 0) + 1))
  }

  of(team: Team): string {
    let attempts = 0
    for (const delivery of team.webhookDeliveries) attempts += delivery.attempts
    return `${this.events.get(team.id) ?? 0}.${attempts}.${this.services.scheduler.pending().length}`
  }
}

/** The member a dashboard path acts as: a current member of the team, with an identity as a token would give. */
function actingAs(services: Services, teamId: number, userId: number): Identity | undefined {
  const team = services.store.team(teamId)
  const member = team?.member(userId)
  const user = services.store.user(userId)
  if (!team || !member || member.role === null || !user) return undefined
  const now = services.clock.timestamp()
  const token = { token: 'ivs-mock-dashboard', name: 'IVS mock dashboard', user: user.id, team: team.id, created_at: now, expires_at: null, revoked_at: null }
  return { token, user, team, member: { ...member, role: member.role } }
}

function pickerTeams(services: Services): PickerTeam[] {
  return [...services.store.allTeams()].map((team) => ({
    id: team.id,
    name: team.row.name,
    cases: team.row.cases_enabled,
    members: team.members.flatMap((member) => {
      const user = services.store.user(member.user)
      return member.role !== null && user ? [{ id: user.id, name: user.name, email: user.email, role: member.role }] : []
    }),
  }))
}

export function dashboardRoutes(app: Hono, options: DashboardOptions): void {
  const { services, contracts, dispatch } = options
  const versions = new StateVersions(services)

  /** The acting member of the path, the API as them, and who they are on the page. */
  const session = (c: Context, here: string) => {
    const identity = actingAs(services, Number(c.req.param('team')), Number(c.req.param('user')))
    if (!identity) return undefined
    const api = new ApiCaller(contracts, dispatch, identity, new URL(c.req.url).origin)
    const viewer: Viewer = {
      team: { id: identity.team.id, name: identity.team.row.name, cases: identity.team.row.cases_enabled },
      user: { id: identity.user.id, name: identity.user.name, role: identity.member.role },
      here,
    }
    return { identity, api, viewer }
  }

  const noMember = (c: Context) =>
    pageResponse(c, { title: 'No such member', main: h`<h1>No such member</h1><p>That user is not a current member of that team. <a href="${DASHBOARD_BASE}">Pick another</a>.</p>` }, 404)


  app.get(SCRIPT_PATH, (c) => scriptResponse(c, DASHBOARD_SCRIPT))

  app.get(DASHBOARD_BASE, (c) => {
    return pageResponse(c, { title: 'Dashboard', main: picker(pickerTeams(services)) })
  })

  app.get(`${DASHBOARD_BASE}/open`, (c) => {
    const match = /^([0-9]+):([0-9]+)$/.exec(c.req.query('member') ?? '')
    return match ? seeOther(dashboardPath(Number(match[1]), Number(match[2]))) : seeOther(DASHBOARD_BASE)
  })

  app.get(`${DASHBOARD_BASE}/teams/:team/version`, (c) => {
    const team = services.store.team(Number(c.req.param('team')))
    return team ? c.json({ version: versions.of(team) }, 200, { 'cache-control': 'no-store' }) : c.json({ error: 'Team not found' }, 404)
  })

  const base = `${DASHBOARD_BASE}/teams/:team{[0-9]+}/as/:user{[0-9]+}`

  app.get(base, async (c) => {
    const found = session(c, new URL(c.req.url).pathname)
    if (!found) return noMember(c)
    const { identity, api, viewer } = found
    const version = versions.of(identity.team)
    const [records, cases, clients, webhooks] = await Promise.all([
      api.call('records.list', { query: { limit: ROWS.records, sort_by: 'created_at', order_by: 'desc', expand: ['client'] } }),
      viewer.team.cases
        ? api.call('cases.list', { query: { limit: ROWS.cases, sort_by: 'created_at', order_by: 'desc', expand: ['client', 'items'] } })
        : Promise.resolve(undefined),
      api.call('clients.list', { query: { limit: ROWS.clients, sort_by: 'created_at', order_by: 'desc' } }),
      api.call('webhooks.list', { query: { limit: 100 } }),
    ])
    const recordRows = records.ok
      ? await Promise.all(
          dataOf<RecordJson>(records.body).map(async (record) => {
            const steps = await api.call('records.steps.list', { params: { id: record.id }, query: { limit: 100, expand: ['check'] } })
            return { record, steps: steps.ok ? dataOf<StepJson>(steps.body) : [], client: typeof record.client === 'object' ? record.client.name.full_name : `client ${record.client}` }
          }),
        )
      : []
    const webhookRows = webhooks.ok
      ? await Promise.all(
          dataOf<WebhookJson>(webhooks.body).map(async (webhook) => {
            const deliveries = await api.call('webhooks.deliveries.list', { params: { id: webhook.id }, query: { limit: ROWS.deliveries } })
            return { webhook, deliveries: deliveries.ok ? dataOf<WebhookDeliveryJson>(deliveries.body) : [], total: deliveries.ok ? deliveries.body.total : 0 }
          }),
        )
      : []
    const clock = { now: services.clock.timestamp(), frozen: services.clock.frozen }
    return pageResponse(c, {
      title: `${viewer.team.name} dashboard`,
      header: header(viewer),
      scripts: [SCRIPT_PATH],
      main: h`<div data-version-url="${DASHBOARD_BASE}/teams/${viewer.team.id}/version" data-version="${version}">
<h1>${viewer.team.name}</h1>
${notices(c.req.query('notice'), c.req.query('problem'))}
${clockPanel(viewer, clock, services.scheduler.soonest((job) => job.team === viewer.team.id, ROWS.jobs), services.scheduler.pending().length)}
${recordsPanel(viewer, recordRows, records.ok ? records.body.total : 0, records.ok ? undefined : problemOf(records))}
${cases === undefined ? casesPanel(viewer, [], new Map(), 0, 'This is a legacy team: it has no cases.') : casesPanel(viewer, cases.ok ? dataOf<CaseJson>(cases.body) : [], new Map(), cases.ok ? cases.body.total : 0, cases.ok ? undefined : `${problemOf(cases)}: this member may not list cases.`)}
${webhooksPanel(webhookRows, webhooks.ok ? undefined : `${problemOf(webhooks)}: this member's role may not see webhooks.`)}
${clientsPanel(clients.ok ? dataOf<ClientJson>(clients.body) : [], clients.ok ? clients.body.total : 0, clients.ok ? undefined : problemOf(clients))}
</div>`,
    })
  })

  app.get(`${base}/records/:record{[0-9]+}`, async (c) => {
    const found = session(c, new URL(c.req.url).pathname)
    if (!found) return noMember(c)
    const { identity, api, viewer } = found
    const id = Number(c.req.param('record'))
    const record = await api.call('records.get', { params: { id }, query: { expand: ['client'] } })
    if (!record.ok) {
      return pageResponse(c, { title: `Record ${id}`, header: header(viewer), main: h`<h1>Record ${id}</h1><p class="error">${problemOf(record)}</p>` }, record.status)
    }
    const clientId = typeof record.body.client === 'object' ? record.body.client.id : record.body.client
    const [steps, cases] = await Promise.all([
      api.call('records.steps.list', { params: { id }, query: { limit: 100, expand: ['check', 'review'] } }),
      viewer.team.cases ? api.call('cases.list', { query: { client: clientId, limit: 100, expand: ['items'] } }) : Promise.resolve(undefined),
    ])
    const stepRows = await Promise.all(
      (steps.ok ? dataOf<StepJson>(steps.body) : []).map(async (step) => {
        const checkId = typeof step.check === 'object' ? step.check.id : step.check
        const check = checkId === undefined ? undefined : await api.call('checks.get', { params: { id: checkId }, query: { expand: ['response'] } })
        return { step, check: check?.ok ? check.body : undefined, review: typeof step.review === 'object' && step.review !== null ? step.review : undefined }
      }),
    )
    const jobs = recordJobs(services.scheduler, identity.team.id, id, stepRows.flatMap(({ check }) => (check ? [check.id] : [])))
    const caseList = cases === undefined ? { list: [], problem: 'A legacy team has no cases.' } : cases.ok ? { list: dataOf<CaseJson>(cases.body) } : { list: [], problem: problemOf(cases) }
    return pageResponse(c, {
      title: `Record ${id}`,
      header: header(viewer),
      scripts: [SCRIPT_PATH],
      main: h`<div data-version-url="${DASHBOARD_BASE}/teams/${viewer.team.id}/version" data-version="${versions.of(identity.team)}">
${notices(c.req.query('notice'), c.req.query('problem'))}
${recordDetail(viewer, record.body, typeof record.body.client === 'object' ? record.body.client : undefined, stepRows, caseList, jobs)}
</div>`,
    })
  })

  /** An action: the form's fields, the API as the member; answers with a 303 back to the page with a notice or the problem. */
  const action = (handle: (input: { c: Context; fields: Record<string, string>; api: ApiCaller; identity: Identity }) => Promise<{ notice: string } | { problem: string }>) => async (c: Context) => {
    const found = session(c, '')
    if (!found) return noMember(c)
    const parsed = await c.req.parseBody()
    const fields = Object.fromEntries(Object.entries(parsed).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])))
    const back = fields.back?.startsWith(DASHBOARD_BASE) ? fields.back : dashboardPath(found.identity.team.id, found.identity.user.id)
    const outcome = await handle({ c, fields, api: found.api, identity: found.identity })
    const query = 'notice' in outcome ? `notice=${encodeURIComponent(outcome.notice)}` : `problem=${encodeURIComponent(outcome.problem)}`
    return seeOther(`${back.split('?')[0] ?? back}?${query}`)
  }

  app.post(
    `${base}/clock/advance`,
    action(async ({ fields }) => {
      const seconds = Number(fields.seconds)
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) return { problem: `Advance by a whole number of seconds from 1 to ${MAX_ADVANCE_SECONDS}.` }
      const ran = await advanceSettling(services, seconds * 1000)
      return { notice: `The clock moved ${seconds} s to ${when(services.clock.timestamp())}; ${ran === 1 ? '1 job' : `${ran} jobs`} ran.` }
    }),
  )

  app.post(
    `${base}/records/:record{[0-9]+}/steps/:step{[0-9]+}/review`,
    action(async ({ c, fields, api }) => {
      const message = fields.message?.trim()
      const answer = await api.call('records.steps.reviews.create', {
        params: { recordId: Number(c.req.param('record')), stepId: Number(c.req.param('step')) },
        body: { status: fields.status as 'approved', ...(message ? { message } : {}) },
      })
      return answer.ok ? { notice: `Step ${c.req.param('step') ?? ''} reviewed: ${answer.body.status}.` } : { problem: `The review was refused: ${problemOf(answer)}` }
    }),
  )

  app.post(
    `${base}/records/:record{[0-9]+}/case`,
    action(async ({ c, fields, api }) => {
      const record = Number(c.req.param('record'))
      const answer = await api.call('cases.items.update', { params: { id: Number(fields.case) }, body: [{ id: record, type: 'record' }] })
      return answer.ok ? { notice: `Record ${record} is in case ${fields.case ?? ''}.` } : { problem: `The record could not be added: ${problemOf(answer)}` }
    }),
  )

  app.post(
    `${base}/records/:record{[0-9]+}/new-case`,
    action(async ({ c, fields, api }) => {
      const record = await api.call('records.get', { params: { id: Number(c.req.param('record')) } })
      if (!record.ok) return { problem: problemOf(record) }
      const client = typeof record.body.client === 'object' ? record.body.client.id : record.body.client
      const created = await api.call('cases.create', { body: { client, name: fields.name ?? '' } })
      if (!created.ok) return { problem: `The case could not be created: ${problemOf(created)}` }
      const added = await api.call('cases.items.update', { params: { id: created.body.id }, body: [{ id: record.body.id, type: 'record' }] })
      return added.ok ? { notice: `Case ${created.body.id} created with record ${record.body.id} in it.` } : { problem: `Case ${created.body.id} was created, but the record could not be added: ${problemOf(added)}` }
    }),
  )

  app.post(
    `${base}/cases/:case{[0-9]+}/review`,
    action(async ({ c, fields, api }) => {
      const id = Number(c.req.param('case'))
      const answer = await api.call('cases.reviews.create', { params: { id }, body: { status: fields.status as 'approved' } })
      return answer.ok ? { notice: `Case ${id} reviewed: ${answer.body.status}.` } : { problem: `The review was refused: ${problemOf(answer)}` }
    }),
  )
}
