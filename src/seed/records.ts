// Seeded records and record templates, made by the same services the API uses and driven through
// the lifecycle engine on a seed clock, so every seeded record is one the mock could have reached
// itself: its status, checks, credits and expiry agree. Records land in every status. Those left
// open (pending, started, waiting, paused) expire five years after they were made, so the seeded
// lists keep every status for years whatever the mock's clock says; the others finished before
// the seed's epoch. Some clients propose a name correction (amendments); reviewed records have
// every step approved.
import type { Faker } from '@faker-js/faker'
import { requestContext, teamContext, type RequestContext, type Services } from '../context.ts'
import type { StepInputJson } from '../contracts/generated.ts'
import { createClock, toTimestamp } from '../kernel/clock.ts'
import { HttpError } from '../kernel/errors.ts'
import { createEventBus } from '../kernel/events.ts'
import { createRandom } from '../kernel/random.ts'
import { deepFreeze } from '../kernel/frozen.ts'
import { MinHeap } from '../kernel/heap.ts'
import type { Role } from '../kernel/roles.ts'
import { submitStep } from '../lifecycle/engine.ts'
import { createRecord } from '../resources/record-creation/index.ts'
import { setExpiry, updateRecord, type RecordRow } from '../resources/records/index.ts'
import { type Outcome } from '../resources/checks/index.ts'
import { type RecordTemplateRow } from '../resources/templates/index.ts'
import { proposeCorrection } from '../resources/corrections/index.ts'
import type { GenerationProgress } from './progress.ts'
import { reviewStep } from '../resources/step-reviews/index.ts'
import type { MemberRow } from '../store/identity.ts'
import type { ClientRow } from '../resources/clients/index.ts'
import { createServices } from '../services.ts'
import type { Store, Team } from '../store/world.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const OPEN_FOR = 5 * 365 * DAY
/** Credits an owner buys when the seeded records have used up the team's. */
const TOP_UP = 1000

type Scenario = 'pending' | 'started' | 'waiting' | 'paused' | 'complete' | 'consider' | 'incomplete' | 'empty' | 'reviewed' | 'archived' | 'amendments'

const SCENARIOS: Array<{ weight: number; value: Scenario }> = [
  { weight: 14, value: 'pending' },
  { weight: 10, value: 'started' },
  { weight: 8, value: 'waiting' },
  { weight: 4, value: 'paused' },
  { weight: 20, value: 'complete' },
  { weight: 10, value: 'consider' },
  { weight: 8, value: 'incomplete' },
  { weight: 8, value: 'empty' },
  { weight: 10, value: 'reviewed' },
  { weight: 8, value: 'archived' },
  { weight: 6, value: 'amendments' },
]

/** Scenarios that end before the epoch need the record made at least an expiry period earlier. */
const EXPIRING: ReadonlySet<Scenario> = new Set(['incomplete', 'empty'])

const PHOTO_ID: StepInputJson = { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport', 'driving_licence'] } }
const PROOF_OF_ADDRESS: StepInputJson = {
  type: 'document.request',
  preferences: { title: 'Proof of address', instructions: 'Upload a utility bill or bank statement from the last three months showing your name and address.' },
}
const WATCHLIST: StepInputJson = { type: 'check.watchlist', preferences: {} }

// Frozen: the steps made from them share their completed preferences (completePreferences).
const STEP_SETS: StepInputJson[][] = deepFreeze([
  [PHOTO_ID, WATCHLIST],
  [PHOTO_ID, PROOF_OF_ADDRESS],
  [{ type: 'check.identity', preferences: {} }, WATCHLIST, PROOF_OF_ADDRESS],
  [PROOF_OF_ADDRESS, { type: 'check.criminal_record', preferences: { region: 'england', type: 'standard' } }],
  [PHOTO_ID],
])

function templates(owner: number, at: string): Array<Omit<RecordTemplateRow, 'id'>> {
  const base = { notification: 'email' as const, reminder: true, is_declaration_required: false, is_enabled: true, created_at: at, updated_at: at }
  return [
    {
      ...base,
      name: 'Right to work (UK)',
      description: 'Photo ID with a right to work share code check and a watchlist screen, for new starters.',
      steps: [{ type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'], right_to_work: 'GBR' } }, { type: 'check.watchlist', preferences: {} }],
      message: 'Welcome aboard! Please confirm your right to work in the UK before your first day.',
      assignees: [owner],
    },
    {
      ...base,
      name: 'Client onboarding (AML)',
      description: 'Identity verification, sanctions and PEP screening, and proof of address for anti-money-laundering checks.',
      steps: [
        { type: 'check.identity', preferences: {} },
        { type: 'check.watchlist', preferences: {} },
        { type: 'document.request', preferences: PROOF_OF_ADDRESS.preferences as Record<string, unknown> },
      ],
      message: null,
      assignees: [],
    },
    {
      ...base,
      name: 'Photo ID only',
      description: 'A quick photo ID check with liveness, for returning clients.',
      steps: [{ type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport', 'driving_licence', 'national_id'], liveness: true } }],
      message: null,
      reminder: false,
      assignees: [],
    },
  ]
}

/** The caller a seeded record is made by. */
function creatorOf(services: Services, team: Team, member: MemberRow): RequestContext {
  const user = services.store.user(member.user)
  if (!user) throw new Error(`seed: no user ${member.user}`)
  const token = { token: 'seed', name: 'seed', user: user.id, team: team.id, created_at: user.created_at, expires_at: null, revoked_at: null }
  return requestContext({ team, user, token, member: member as MemberRow & { role: Role } }, services)
}

/**
 * The services a seeded history is made with: a frozen clock from `start`, a random drawn from the
 * seed's faker, a private event bus (seeded history is not news: nothing is delivered for it), and
 * the jobs it runs part of the change that makes the team.
 */
export function seedServices(faker: Faker, store: Store, start: Date): Services {
  return createServices({
    store,
    clock: createClock({ start, frozen: true }),
    random: createRandom(faker.number.int({ min: 0, max: 2 ** 31 })),
    events: createEventBus(),
    behaviour: { recordExpiryDays: 30, checkDelaySeconds: 60 },
    jobsInCallerUnit: true,
  })
}

/**
 * Moments from `from` to `to`, ascending, each at least `gap` after the one before; a gap too wide
 * for so many moments narrows to half the span's share of each, so that pushing the later ones
 * along leaves them about where they were drawn (a wider one pushed a large team's records years
 * past its epoch, into the mock's future).
 */
function spacedMoments(faker: Faker, count: number, from: number, to: number, widest: number): number[] {
  const gap = Math.min(widest, Math.floor((to - from) / (2 * count)))
  const moments = Array.from({ length: count }, () => faker.number.int({ min: from, max: to })).sort((a, b) => a - b)
  for (let index = 1; index < moments.length; index++) moments[index] = Math.max(moments[index] as number, (moments[index - 1] as number) + gap)
  return moments
}

/**
 * `count` records (and the team's record templates) made before `epoch`. The team's credits must
 * already be there: each record pays for its checks.
 */
export function generateRecords(faker: Faker, store: Store, team: Team, count: number, epoch: Date, progress?: GenerationProgress): void {
  // Owners and members make the seeded records (an assigned-only member could not see most clients).
  const writers = team.members.filter((member) => member.role === 'owner' || member.role === 'member')
  const owner = writers.find((member) => member.role === 'owner') ?? writers[0]
  if (!owner) return
  const teamCreated = new Date(team.row.created_at).getTime()
  // A team made just now (the control API) still gets a history: its records start 60 days back.
  const firstMoment = Math.min(Math.max(teamCreated + DAY, epoch.getTime() - 240 * DAY), epoch.getTime() - 60 * DAY)
  const services = seedServices(faker, store, new Date(firstMoment))
  const { clock } = services
  for (const template of templates(owner.user, toTimestamp(new Date(firstMoment)))) {
    team.recordTemplates.insert({ id: store.nextId('record_template'), ...template })
  }
  const clients = team.clients.filter((client) => client.archived_at === null)
  if (count === 0 || clients.length === 0) return
  // What falls due after the epoch (open records' expiries, their next reminders) cannot run here.
  services.scheduler.holdBeyond(epoch.getTime())

  const scenarios = Array.from({ length: count }, () => faker.helpers.weightedArrayElement(SCENARIOS))
  const latestExpiring = epoch.getTime() - 31 * DAY
  const expiringMoments = spacedMoments(faker, scenarios.filter((s) => EXPIRING.has(s)).length, firstMoment, latestExpiring, 6 * HOUR)
  const otherMoments = spacedMoments(faker, scenarios.filter((s) => !EXPIRING.has(s)).length, firstMoment, epoch.getTime() - DAY, 6 * HOUR)
  // Each kind's moments taken in turn by index: shift() on arrays this long moves the rest every time.
  let expiringTaken = 0
  let otherTaken = 0
  const planned: Planned[] = scenarios
    .map((scenario) => ({ scenario, at: (EXPIRING.has(scenario) ? expiringMoments[expiringTaken++] : otherMoments[otherTaken++]) as number }))
    .sort((a, b) => a.at - b.at)
    .map(({ scenario, at }, order) => ({ at, order, scenario }))

  // Each record's history takes hours (its client's steps, a review), and a large team makes its
  // records minutes apart: the histories play side by side, each part at its own moment, soonest
  // first (ties in the order the records were planned), on the one seed clock. The records not
  // begun wait in the plan, which is in that order already; only the histories under way are in
  // the queue (a few hundred, where a team has 250,000 records).
  const before = (a: Planned, b: Planned) => a.at < b.at || (a.at === b.at && a.order < b.order)
  const underWay = new MinHeap<Playing>(before)
  const makers = { owner, writers, clients }
  let begun = 0
  for (;;) {
    const waiting = planned[begun]
    const playing = underWay.peek()
    let next: Playing
    if (waiting !== undefined && (playing === undefined || before(waiting, playing))) {
      begun++
      progress?.made('records', begun, count)
      next = { ...waiting, parts: history(services, team, makers, waiting.scenario, faker) }
    } else if (playing !== undefined) next = underWay.pop() as Playing
    else break
    services.scheduler.advance(Math.max(0, next.at - clock.nowMs()))
    const wait = next.parts.next()
    if (wait.done) continue
    next.at = clock.nowMs() + wait.value * MINUTE
    underWay.push(next)
  }
  services.scheduler.advance(Math.max(0, epoch.getTime() - clock.nowMs()))
  services.scheduler.release()
}

/** A record's history, part by part: each part yields the minutes until the next. */
type History = Generator<number, void, undefined>

/** A record the seed plans to make: when, its place in the plan (ties play in it), and what happens to it. */
interface Planned {
  at: number
  readonly order: number
  readonly scenario: Scenario
}

/** A record whose history is under way: when its next part plays. */
interface Playing extends Planned {
  readonly parts: History
}

/** Who may make a team's seeded records, and for whom. */
interface Makers {
  owner: MemberRow
  writers: MemberRow[]
  clients: ClientRow[]
}

/** Makes a record (its creator, client and steps drawn now), then plays its scenario. */
function* history(services: Services, team: Team, { owner, writers, clients }: Makers, scenario: Scenario, faker: Faker): History {
  const { store, clock } = services
  const creator = creatorOf(services, team, faker.datatype.boolean(0.7) ? owner : faker.helpers.arrayElement(writers))
  const client = faker.helpers.arrayElement(clients)
  const steps = faker.helpers.arrayElement(STEP_SETS)
  const useTemplate = faker.datatype.boolean(0.2)
  const input = {
    client: client.id,
    ...(useTemplate
      ? { template: faker.helpers.arrayElement(team.recordTemplates.all()).id }
      : { steps: steps as [StepInputJson, ...StepInputJson[]], notification: faker.helpers.arrayElement(['email', false] as const) }),
  }
  // The team's credits ran out (a 422): its owner buys more, as a team making this many records would.
  const record =
    attempt(() => createRecord(creator, input)) ??
    attempt(() => {
      team.credits.insert({ id: store.nextId('credit'), credits: TOP_UP, reason: 'Credit purchase', causer: { id: owner.user, type: 'user' }, created_at: clock.timestamp() })
      return createRecord(creator, input)
    })
  if (record === undefined) return
  if (!EXPIRING.has(scenario)) setExpiry(teamContext(services, team), record, toTimestamp(new Date(clock.nowMs() + OPEN_FOR)))
  yield* drive(services, team, record, scenario, faker)
}

/** What work makes, or undefined when the service refuses it (an HttpError: a 422). */
function attempt<T>(work: () => T): T | undefined {
  try {
    return work()
  } catch (error) {
    if (error instanceof HttpError) return undefined
    throw error
  }
}

/** Plays the client's and the team's part for a record, from right after it was made; yields the minutes between its parts. */
function* drive(services: Services, team: Team, record: RecordRow, scenario: Scenario, faker: Faker): History {
  const ctx = teamContext(services, team)
  const submitAll = (outcome?: Outcome, delaySeconds?: number) => {
    for (const step of record.steps) submitStep(ctx, record, step, { ...(outcome && { outcome }), ...(delaySeconds !== undefined && { delaySeconds }) })
  }
  switch (scenario) {
    case 'pending':
    case 'empty':
      return
    case 'started':
    case 'incomplete':
      yield faker.number.int({ min: 20, max: 180 })
      submitStep(ctx, record, record.steps[0] as RecordRow['steps'][number])
      break
    case 'waiting': {
      // A result still being worked on by the provider: due when the record would expire.
      const delaySeconds = Math.floor((new Date(record.expired_at).getTime() - services.clock.nowMs()) / 1000) - 86_400
      yield faker.number.int({ min: 20, max: 180 })
      submitAll(undefined, delaySeconds)
      break
    }
    case 'paused':
      yield faker.number.int({ min: 20, max: 180 })
      submitAll('paused')
      break
    case 'consider':
      yield faker.number.int({ min: 20, max: 180 })
      submitAll('consider')
      break
    case 'complete':
    case 'reviewed':
    case 'archived':
    case 'amendments':
      yield faker.number.int({ min: 20, max: 180 })
      submitAll()
      break
  }
  if (scenario === 'amendments') {
    // The client says their name is spelled differently (a pending correction: the record is amendments, docs/specification-notes.md "Records and steps").
    yield 5
    const { first_name: first, middle_name: middle, last_name: last } = record.name
    proposeCorrection(ctx, record, faker.datatype.boolean() ? { first_name: first, middle_name: middle ?? faker.person.middleName(), last_name: last } : { first_name: first, middle_name: middle, last_name: `${last}-${faker.person.lastName()}` })
  }
  const owner = team.members.find((member) => member.role === 'owner')
  if (!owner || (scenario !== 'reviewed' && scenario !== 'archived')) return
  yield 30 + faker.number.int({ min: 60, max: 240 })
  const reviewer = creatorOf(services, team, owner)
  if (scenario === 'reviewed') {
    for (const step of record.steps) reviewStep(reviewer, { record, step }, { status: 'approved' })
    updateRecord(reviewer, record, { is_reviewed: true })
  } else {
    updateRecord(reviewer, record, { is_archived: true })
  }
}
