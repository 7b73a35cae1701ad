// The mock's control API under /_mock: what tests and demos need beyond the real API, which
// offers only what the real service offers (docs/control-api.md "The control API"). It goes through the same contracts, gate and services as the API; it has no caller,
// so its context is the mock's services.
import type { Services, TeamContext } from '../context.ts'
import { SURFACES } from '../contracts/load.ts'
import { toTimestamp } from '../kernel/clock.ts'
import { NO_EXPAND } from '../kernel/expand.ts'
import { completeRecord, completeStep, type Submission } from '../lifecycle/engine.ts'
import { JOBS, recordJobs } from '../lifecycle/schedule.ts'
import { archiveClient, unarchiveClient, type ClientRow } from '../resources/clients/index.ts'
import { presentCorrection, proposeCorrection } from '../resources/corrections/index.ts'
import { presentRecord, recordStatus, type RecordRow, type StepRow } from '../resources/records/index.ts'
import { invalid, notFound } from '../kernel/errors.ts'
import type { Routes } from '../kernel/operation.ts'
import { ROLES, type Role } from '../kernel/roles.ts'
import { setCaseAssignees, type CaseRow } from '../resources/cases/index.ts'
import { archiveOrganisation, unarchiveOrganisation, type OrganisationRow } from '../resources/organisations/index.ts'
import { SDK_TOKEN_ALG, SDK_TOKEN_AUDIENCE, SDK_TOKEN_ISSUER, SDK_TOKEN_LIFETIME_SECONDS, sdkTokenKey } from '../resources/sdk-token/index.ts'
import { presentMember, presentTeam } from '../resources/team/index.ts'
import { oauthOf } from '../oauth/index.ts'
import { advanceSettling } from '../webhook-delivery/index.ts'
import type { Team } from '../store/world.ts'
import type { ProgressSink } from '../seed/index.ts'

export type ControlRoutes = Routes<Services>

/** Organisation ids are unique across teams, so one id names one team's organisation. */
function findOrganisation(services: Services, params: { id: number }): { team: Team; organisation: OrganisationRow } {
  for (const team of services.store.allTeams()) {
    const organisation = team.organisations.get(params.id)
    if (organisation) return { team, organisation }
  }
  throw notFound('Organisation')
}

const byRole = <T>(make: (role: Role) => T) => Object.fromEntries(ROLES.map((role) => [role, make(role)])) as Record<Role, T>

/** Record ids are unique across teams, like organisation ids. */
function findRecord(services: Services, params: { id: number }): TeamContext & { record: RecordRow } {
  for (const team of services.store.allTeams()) {
    const record = team.records.get(params.id)
    if (record) return { ...services, team, record }
  }
  throw notFound('Record')
}

/** A step of the record the path names; a step of another record is not found. */
function findRecordStep(services: Services, params: { id: number; stepId: number }): TeamContext & { record: RecordRow; step: StepRow } {
  const found = findRecord(services, params)
  const step = found.record.steps.find((row) => row.id === params.stepId)
  if (!step) throw notFound('Step')
  return { ...found, step }
}

/** Client ids are unique across teams, like record ids. */
function findClient(services: Services, params: { id: number }): TeamContext & { client: ClientRow } {
  for (const team of services.store.allTeams()) {
    const client = team.clients.get(params.id)
    if (client) return { ...services, team, client }
  }
  throw notFound('Client')
}

/** Case ids are unique across teams, like record ids. */
function findCase(services: Services, params: { id: number }): TeamContext & { row: CaseRow } {
  for (const team of services.store.allTeams()) {
    const row = team.cases.get(params.id)
    if (row) return { ...services, team, row }
  }
  throw notFound('Case')
}

/** A case holds at most 25 assignees (contracts/schemas/case.json), so one list object shows them all. */
const CASE_ASSIGNEES_LIMIT = 25 as const

function presentCaseAssignees(ctx: TeamContext, row: CaseRow, controlBaseUrl: string) {
  const origin = controlBaseUrl.slice(0, controlBaseUrl.length - SURFACES.control.base.length)
  const data = row.assignees.map((assignee) => {
    const member = ctx.team.membership(assignee.user)
    const user = ctx.store.user(assignee.user)
    if (!member || !user) throw new Error(`case ${row.id}: assignee ${assignee.user} was never in team ${ctx.team.id}`)
    return { object: 'assignee' as const, id: assignee.id, type: 'team_member' as const, team_member: presentMember(member, user) }
  })
  return {
    object: 'list' as const,
    data,
    total: data.length,
    count: data.length,
    limit: CASE_ASSIGNEES_LIMIT,
    has_more: false,
    url: `${origin}${SURFACES.api.base}/cases/${row.id}/assignees`,
  }
}

export function presentClock(services: Services, jobsRun: number) {
  const next = services.scheduler.next()
  return {
    object: 'mock_clock' as const,
    now: services.clock.timestamp(),
    frozen: services.clock.frozen,
    jobs_run: jobsRun,
    jobs_waiting: services.scheduler.pending().length,
    next_job_at: next ? toTimestamp(new Date(next.due)) : null,
  }
}

/**
 * teamDropped: forgets what the app keeps per team outside the store (its faults, its journal);
 * progress: where a team that takes long to make says how far it has got (the mock's console).
 */
export function controlRoutes(routes: ControlRoutes, teamDropped: (team: number) => void, progress?: ProgressSink): void {
  routes.handle('control.teams.create', async ({ ctx, body }) => {
    // The seed (faker and its locales) loads with the first team made, not at start-up.
    const { addTeam } = await import('../seed/index.ts')
    const options = {
      ...(body.name !== undefined && { name: body.name }),
      casesEnabled: body.cases,
      declarationEnabled: body.declaration,
      ...(body.generate !== undefined && { generate: body.generate }),
    }
    const created = addTeam(ctx.store, ctx.random, ctx.clock.now(), options, progress)
    return {
      object: 'mock_team' as const,
      team: presentTeam(created.team.row, { identifier: true }),
      cases: created.team.row.cases_enabled,
      tokens: created.tokens,
      users: byRole((role) => presentMember(created.members[role], created.users[role])),
    }
  })

  routes.handle('control.teams.delete', ({ ctx, params }) => {
    if (!ctx.store.removeTeam(params.id)) throw notFound('Team')
    oauthOf(ctx.store).dropTeam(params.id)
    teamDropped(params.id)
  })

  routes.handle('control.clients.archive', { find: findClient }, ({ found }) => {
    const { client, ...ctx } = found
    archiveClient(ctx, client)
  })

  routes.handle('control.clients.unarchive', { find: findClient }, ({ found }) => {
    const { client, ...ctx } = found
    unarchiveClient(ctx, client)
  })

  routes.handle('control.organisations.archive', { find: findOrganisation }, ({ ctx, found }) =>
    archiveOrganisation({ ...ctx, team: found.team }, found.organisation),
  )

  routes.handle('control.records.get', { find: findRecord }, ({ ctx, found }) => {
    const { team, record } = found
    const jobs = recordJobs(ctx.scheduler, team.id, record.id, record.steps.flatMap((step) => (step.check === null ? [] : [step.check])))
    return {
      object: 'mock_record' as const,
      record: record.id,
      team: team.id,
      status: recordStatus(team, record, ctx.clock.timestamp()),
      emails: record.emails.map((email) => ({ kind: email.kind, to: record.email, sent_at: email.sent_at })),
      jobs: jobs.map((job) => ({
        kind: job.kind as 'check.result' | 'record.reminder' | 'record.expiry',
        due_at: toTimestamp(new Date(job.due)),
        check: job.kind === JOBS.checkResult ? job.subject : null,
      })),
    }
  })

  routes.handle('control.records.complete', { find: findRecord }, ({ found, body, baseUrl }) => {
    const { record, ...ctx } = found
    const unknown = Object.keys(body.outcomes ?? {}).filter((id) => !record.steps.some((step) => String(step.id) === id))
    if (unknown.length > 0) throw invalid(Object.fromEntries(unknown.map((id) => [`outcomes.${id}`, [`Step ${id} is not a step of record ${record.id}.`]])))
    const submissions = new Map<number, Submission>()
    for (const step of record.steps) {
      const outcome = body.outcomes?.[String(step.id)] ?? body.outcome
      submissions.set(step.id, { ...(outcome && { outcome }), ...(body.delay_seconds !== undefined && { delaySeconds: body.delay_seconds }) })
    }
    completeRecord(ctx, record, submissions)
    return presentRecord(ctx, record, NO_EXPAND, baseUrl)
  })

  routes.handle('control.records.steps.complete', { find: findRecordStep }, ({ found, body, baseUrl }) => {
    const { record, step, ...ctx } = found
    completeStep(ctx, record, step, { ...(body.outcome && { outcome: body.outcome }), ...(body.delay_seconds !== undefined && { delaySeconds: body.delay_seconds }) })
    return presentRecord(ctx, record, NO_EXPAND, baseUrl)
  })

  routes.handle('control.records.corrections.create', { find: findRecord }, ({ found, body, baseUrl }) => {
    const { record, ...ctx } = found
    return presentCorrection(ctx, proposeCorrection(ctx, record, body), NO_EXPAND, baseUrl)
  })

  routes.handle('control.cases.assignees.set', { find: findCase }, ({ found, body, baseUrl }) => {
    const { row, ...ctx } = found
    // The real API only lists case assignees (docs/specification-notes.md "Cases"); the same rules as the API's assignees.
    setCaseAssignees(ctx, row, body.team_members, 'team_members')
    return presentCaseAssignees(ctx, row, baseUrl)
  })

  routes.handle('control.clock.get', ({ ctx }) => presentClock(ctx, 0))

  // Webhook attempts settle at each moment on the way, so one advance walks a whole retry schedule.
  routes.handle('control.clock.advance', async ({ ctx, body }) => presentClock(ctx, await advanceSettling(ctx, body.seconds * 1000)))

  routes.handle('control.sdkToken.key', ({ ctx }) => ({
    object: 'mock_sdk_token_key' as const,
    alg: SDK_TOKEN_ALG,
    issuer: SDK_TOKEN_ISSUER,
    audience: SDK_TOKEN_AUDIENCE,
    lifetime: SDK_TOKEN_LIFETIME_SECONDS,
    jwk: sdkTokenKey(ctx.store).jwk,
  }))

  routes.handle('control.organisations.unarchive', { find: findOrganisation }, ({ ctx, found }) =>
    unarchiveOrganisation({ ...ctx, team: found.team }, found.organisation),
  )
}
