// Events on demand (contracts/control/events.json), as Stripe's CLI trigger: publish any webhook
// event for a resource of a team, on the event bus the API publishes on, so the team's webhooks get
// real deliveries (signed, retried on the clock, logged). Without a resource named, one is made
// first by the services the API uses, acting as one of the team's owners.
import { emit, requestContext, teamContext, type RequestContext, type Services } from '../context.ts'
import type { MockEventCreateJson, MockEventJson, MockEventSubjectsJson, RecordCreateJson, StepInputJson } from '../contracts/generated.ts'
import type { ValidationErrors } from '../kernel/errors.ts'
import type { Role } from '../kernel/roles.ts'
import { createCase } from '../resources/cases/index.ts'
import { createClient } from '../resources/clients/index.ts'
import { createRecord, creditBalance } from '../resources/record-creation/index.ts'
import { prepareSteps } from '../resources/steps/index.ts'
import type { WebhookDeliveryRow } from '../resources/webhooks/index.ts'
import type { withSeededFaker } from '../seed/generate.ts'
import type { MemberRow } from '../store/identity.ts'
import type { Team } from '../store/world.ts'
import type { ControlRoutes } from './routes.ts'

/** What an event is about, and the key of the request that names it. */
type Kind = 'client' | 'record' | 'case' | 'form' | 'check'

const KINDS: readonly Kind[] = ['client', 'record', 'case', 'form', 'check']

/** client.record is about a record (its data links the record and its client); watchlist.updated about a watchlist check. */
function kindOf(event: string): Kind {
  if (event === 'client.record') return 'record'
  const category = event.slice(0, event.indexOf('.'))
  return category === 'watchlist' ? 'check' : (category as Kind)
}

const A_OR_AN: Record<Kind, string> = { client: 'a client', record: 'a record', case: 'a case', form: 'a form', check: 'a watchlist check' }

/** A document request costs nothing, so any team can have a record made for an event. */
const DOCUMENT_REQUEST: StepInputJson = {
  type: 'document.request',
  preferences: { title: 'Proof of address', instructions: 'Upload a utility bill or bank statement from the last three months showing your name and address.' },
}

/** A watchlist step with every default: what a record made for watchlist.updated asks for (and pays). */
const WATCHLIST: StepInputJson = { type: 'check.watchlist' }

/** The ids an event's delivery data links to, as the services that publish it name them. */
function subjectsOf(team: Team, kind: Kind, id: number | string): MockEventSubjectsJson | undefined {
  switch (kind) {
    case 'client':
      return team.clients.get(id as number) && { client: id as number }
    case 'record': {
      const record = team.records.get(id as number)
      return record && { record: record.id, client: record.client }
    }
    case 'case': {
      const row = team.cases.get(id as number)
      return row && { case: row.id, client: row.client }
    }
    case 'form': {
      const form = team.formsByReference.get(id as string)
      return form && { form: form.reference, client: form.client, ...(form.record !== null && { record: form.record }) }
    }
    case 'check': {
      const check = team.checks.get(id as number)
      const record = check?.type === 'watchlist' ? team.records.get(check.record) : undefined
      return check && record && { check: check.id, record: record.id, client: record.client }
    }
  }
}

/** The rules of the request its schema cannot state: the team, the resource's kind, and that the team has it. */
function eventErrors(services: Services, input: MockEventCreateJson, passed: (key: string) => boolean): ValidationErrors {
  if (!passed('team')) return {}
  const team = services.store.team(input.team)
  if (!team) return { team: ['The selected team is invalid.'] }
  if (!passed('event')) return {}
  const kind = kindOf(input.event)
  const errors: ValidationErrors = {}
  for (const other of KINDS) {
    if (other !== kind && input[other] !== undefined) errors[other] = [`The ${other} field is prohibited: ${input.event} is about ${A_OR_AN[kind]}.`]
  }
  const named = input[kind]
  if (named !== undefined && passed(kind) && !subjectsOf(team, kind, named)) errors[kind] = [`The selected ${kind} is invalid.`]
  if (kind === 'case' && !team.row.cases_enabled) errors.event = [`Team ${team.id} has no cases (a legacy team), so it has no case events.`]
  if (kind === 'form' && named === undefined && !firstFormTemplate(team)) errors.event = [`Team ${team.id} has no enabled form template to make a form from: name a form.`]
  if (kind === 'check' && named === undefined) {
    // Checked before anything is made, so a refused request makes nothing.
    const [step] = prepareSteps({ team }, [WATCHLIST] as const)
    const [cost, balance] = [step.cost, creditBalance(teamContext(services, team))]
    if (cost > balance) errors.event = [`Team ${team.id} has ${balance} credits and a watchlist step costs ${cost}: name a watchlist check.`]
  }
  return errors
}

function firstFormTemplate(team: Team) {
  return team.formTemplates.all().find((template) => template.is_enabled)
}

/** The team's first owner (or support user, or member) as the caller the services see. */
function actingMember(services: Services, team: Team): RequestContext {
  const byRole = (role: Role) => team.members.find((member) => member.role === role)
  const member = (['owner', 'assumed', 'member'] satisfies Role[]).map(byRole).find((found) => found !== undefined) as (MemberRow & { role: Role }) | undefined
  const user = member && services.store.user(member.user)
  if (!member || !user) throw new Error(`events: team ${team.id} has no member who may make anything`)
  const token = { token: 'control', name: 'control API', user: user.id, team: team.id, created_at: user.created_at, expires_at: null, revoked_at: null }
  return requestContext({ team, user, token, member }, services)
}

/** Makes what an event of this kind is about, through the services the API uses (their own events are published as the API would). */
function make(ctx: RequestContext, kind: Kind, withFaker: typeof withSeededFaker): MockEventSubjectsJson {
  const client = createClient(
    ctx,
    withFaker(ctx.random.int(0, 2 ** 31), (faker) => {
      const [firstName, lastName] = [faker.person.firstName(), faker.person.lastName()]
      return { name: { first_name: firstName, last_name: lastName }, email: faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase() }
    }),
  )
  if (kind === 'client') return { client: client.id }
  if (kind === 'case') return { case: createCase(ctx, { client: client.id, name: 'Onboarding' }).id, client: client.id }
  const template = kind === 'form' ? firstFormTemplate(ctx.team) : undefined
  const step: StepInputJson = template
    ? { type: 'form', preferences: { form: template.reference } }
    : kind === 'check'
      ? WATCHLIST
      : DOCUMENT_REQUEST
  const record = createRecord(ctx, { client: client.id, steps: [step], notification: false } satisfies RecordCreateJson)
  const made = record.steps[0]
  if (kind === 'form' && made?.form) return { form: made.form, client: client.id, record: record.id }
  if (kind === 'check' && made?.check) return { check: made.check, record: record.id, client: client.id }
  return { record: record.id, client: client.id }
}

export function eventsRoutes(routes: ControlRoutes): void {
  routes.handle('control.events.create', { rules: ({ ctx, body, passed }) => eventErrors(ctx, body, passed) }, async ({ ctx, body }): Promise<MockEventJson> => {
    const team = ctx.store.team(body.team) as Team
    const kind = kindOf(body.event)
    const named = body[kind]
    // The generator (faker and its locales) loads on the first event that needs a made-up client, not at start-up.
    const created = named === undefined ? make(actingMember(ctx, team), kind, (await import('../seed/generate.ts')).withSeededFaker) : null
    const subjects = created ?? (subjectsOf(team, kind, named as number | string) as MockEventSubjectsJson)
    // Deliveries are written as the event is published: those after the last id handed out are its own.
    const before = ctx.store.data.sequences.webhook_delivery ?? 0
    const occurredAt = ctx.clock.timestamp()
    emit(teamContext(ctx, team), body.event, subjects as Record<string, number | string>)
    const deliveries = team.webhookDeliveries.filter((delivery: WebhookDeliveryRow) => delivery.id > before && delivery.event === body.event)
    return {
      object: 'mock_event',
      team: team.id,
      event: body.event,
      occurred_at: occurredAt,
      subjects,
      created,
      deliveries: deliveries.map((delivery) => ({ webhook: delivery.webhook, uuid: delivery.uuid })),
    }
  })
}
