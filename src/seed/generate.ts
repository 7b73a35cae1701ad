// Realistic generated data for one team: extra members, clients (with addresses, assignees,
// references, statuses, deletion dates, some archived), organisations, credit history, record
// templates and records (records.ts), cases on teams that have them (cases.ts), and the libraries
// (libraries.ts: documents, email and document templates).
// Assigned-only members are always given some clients and organisations, so what they see is
// never empty; members who left stay assigned where they were, as in the real service.
// Everything comes from the given seeded faker and lies before `epoch`, so a seed always gives
// the same world.
import { Faker, en, en_GB, en_US } from '@faker-js/faker'
import { createClock, toDate, toTimestamp } from '../kernel/clock.ts'
import { Scheduler } from '../kernel/scheduler.ts'
import { scheduleSeededDeletionReminders } from '../lifecycle/schedule.ts'
import { mersenneRandomizer } from './mersenne.ts'
import { EMPTY_ADDRESS, type AddressRow, type ClientRow, type ClientStatus, type NameRow } from '../resources/clients/index.ts'
import type { CreditRow } from '../resources/credits/index.ts'
import type { MemberRow, UserRow } from '../store/identity.ts'
import type { OrganisationRow } from '../resources/organisations/index.ts'
import { ownsTeam, seesOnlyAssigned } from '../kernel/roles.ts'
import type { AssigneeRow } from '../resources/assignees/index.ts'
import type { Store, Team } from '../store/world.ts'
import { generateCases } from './cases.ts'
import { generateLibraries } from './libraries.ts'
import { generateForms } from './forms.ts'
import { generateFiles } from './files.ts'
import type { GenerationProgress } from './progress.ts'
import { generateRecords } from './records.ts'
import type { Table } from '../store/table.ts'

export interface GenerateCounts {
  members: number
  clients: number
  organisations: number
  credit_entries: number
  records: number
  /** Cases (teams with cases enabled only), made after the records they hold. */
  cases: number
}

const DAY = 86_400_000

/** Fakers not in use, seeded anew when taken: making one (its modules, their methods bound) was most of what newTeam() cost. */
const idleFakers: Faker[] = []

/**
 * Runs `use` with a faker seeded with `seed`, which draws as a new one with that seed would (as
 * usFaker's does); it goes back to be seeded anew by the next caller once `use` returns, so
 * nothing may keep it past that.
 */
export function withSeededFaker<T>(seed: number, use: (faker: Faker) => T): T {
  const faker = idleFakers.pop() ?? new Faker({ locale: [en_GB, en], randomizer: mersenneRandomizer() })
  faker.seed(seed)
  try {
    return use(faker)
  } finally {
    idleFakers.push(faker)
  }
}

function daysBefore(epoch: Date, days: number): Date {
  return new Date(epoch.getTime() - days * DAY)
}

function emailLocalPart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '')
}

export function generateMembers(faker: Faker, store: Store, team: Team, domain: string, count: number, epoch: Date): void {
  for (let made = 0; made < count; made++) {
    const name = faker.person.fullName()
    const joined = faker.date.between({ from: daysBefore(epoch, 700), to: daysBefore(epoch, 7) })
    const user: UserRow = {
      id: store.nextId('user'),
      name,
      email: `${emailLocalPart(name)}@${domain}`,
      pending_email: null,
      is_verified: faker.datatype.boolean(0.9),
      is_disabled: false,
      created_at: toTimestamp(joined),
      updated_at: toTimestamp(faker.date.between({ from: joined, to: epoch })),
    }
    store.addUser(user)
    team.addMember(user.id, 'member', user.created_at)
  }
}

function title(faker: Faker, sex: 'female' | 'male'): NameRow['title'] {
  if (faker.datatype.boolean(0.15)) return null
  if (faker.datatype.boolean(0.06)) return 'dr'
  return sex === 'male' ? 'mr' : faker.helpers.arrayElement(['ms', 'mrs', 'miss'])
}

function generateName(faker: Faker): NameRow {
  const sex = faker.helpers.arrayElement(['female', 'male'] as const)
  return {
    title: title(faker, sex),
    other_title: null,
    first_name: faker.person.firstName(sex),
    middle_name: faker.datatype.boolean(0.3) ? faker.person.middleName(sex) : null,
    last_name: faker.person.lastName(),
  }
}

/**
 * A US faker seeded from the team's, for one address. One faker is seeded anew each time (making
 * one with its locale costs more than the address): it draws as a new one with that seed would.
 */
const usFaker = (faker: Faker) => {
  US_FAKER.seed(faker.number.int())
  return US_FAKER
}
const US_FAKER = new Faker({ locale: [en_US, en], randomizer: mersenneRandomizer() })

function generateAddress(faker: Faker): AddressRow {
  const country = faker.helpers.weightedArrayElement([
    { weight: 80, value: 'GB' },
    { weight: 10, value: 'IE' },
    { weight: 10, value: 'US' },
  ])
  if (country === 'US') {
    const us = usFaker(faker)
    return {
      ...EMPTY_ADDRESS,
      house_number: us.location.buildingNumber(),
      street_name: us.location.street(),
      unit: us.datatype.boolean(0.2) ? `Apt ${us.number.int({ min: 1, max: 40 })}` : null,
      city: us.location.city(),
      province: us.location.state({ abbreviated: true }),
      postcode: us.location.zipCode('#####'),
      country,
    }
  }
  if (country === 'IE') {
    return {
      ...EMPTY_ADDRESS,
      house_number: String(faker.number.int({ min: 1, max: 180 })),
      street_name: `${faker.helpers.arrayElement(['Main', 'Church', 'Bridge', 'Mill', 'Harbour'])} Street`,
      city: faker.helpers.arrayElement(['Dublin', 'Cork', 'Galway', 'Limerick', 'Waterford']),
      province: faker.helpers.arrayElement(['County Dublin', 'County Cork', 'County Galway', 'County Limerick']),
      postcode: faker.datatype.boolean(0.5) ? `D${faker.string.numeric(2)} ${faker.string.alphanumeric({ length: 4, casing: 'upper' })}` : null,
      country,
    }
  }
  return {
    ...EMPTY_ADDRESS,
    unit: faker.datatype.boolean(0.15) ? `Flat ${faker.number.int({ min: 1, max: 30 })}` : null,
    house_name: faker.datatype.boolean(0.1) ? faker.helpers.arrayElement(['Rose Cottage', 'The Old Rectory', 'Orchard House', 'Mill House']) : null,
    house_number: faker.location.buildingNumber(),
    street_name: faker.location.street(),
    second_street: faker.datatype.boolean(0.1) ? faker.location.secondaryAddress() : null,
    district: faker.datatype.boolean(0.3) ? faker.location.city() : null,
    city: faker.location.city(),
    province: faker.location.county(),
    postcode: faker.location.zipCode(),
    country,
  }
}

/** Who gets assigned work: anyone who is or was in the team, except support users acting in it. */
const assignable = (team: Team) => team.members.filter((member) => member.role !== 'assumed')

function pickAssignees(faker: Faker, store: Store, members: readonly MemberRow[], at: string, probability: number): AssigneeRow[] {
  if (members.length === 0 || !faker.datatype.boolean(probability)) return []
  const chosen = faker.helpers.arrayElements(members, { min: 1, max: Math.min(2, members.length) })
  return chosen.map((member) => ({ id: store.nextId('assignee'), user: member.user, created_at: at }))
}

/** Creation moments in ascending order, so ids follow creation time as in a real database. */
function creationMoments(faker: Faker, count: number, from: Date, to: Date): Date[] {
  return Array.from({ length: count }, () => faker.date.between({ from, to })).sort((a, b) => a.getTime() - b.getTime())
}

export function generateClients(faker: Faker, store: Store, team: Team, count: number, epoch: Date, progress?: GenerationProgress): void {
  let made = 0
  for (const created of creationMoments(faker, count, daysBefore(epoch, 540), daysBefore(epoch, 1))) {
    const name = generateName(faker)
    const createdAt = toTimestamp(created)
    const archived = faker.datatype.boolean(0.12) ? faker.date.between({ from: created, to: epoch }) : null
    const client: ClientRow = {
      id: store.nextId('client'),
      status: faker.helpers.weightedArrayElement<ClientStatus | null>([
        { weight: 35, value: null },
        { weight: 30, value: 'pending' },
        { weight: 25, value: 'approved' },
        { weight: 10, value: 'rejected' },
      ]),
      name,
      email: faker.internet.email({
        firstName: name.first_name,
        lastName: name.last_name,
        provider: faker.helpers.arrayElement(['example.com', 'example.co.uk', 'example.org', 'example.net']),
      }).toLowerCase(),
      landline: faker.datatype.boolean(0.25) ? `020 7946 0${faker.string.numeric(3)}` : null,
      mobile: faker.datatype.boolean(0.7) ? `07700 900${faker.string.numeric(3)}` : null,
      dob: faker.datatype.boolean(0.8) ? toDate(faker.date.birthdate({ mode: 'age', min: 18, max: 80, refDate: epoch })) : null,
      reference: faker.datatype.boolean(0.6) ? `CL-${faker.string.numeric(6)}` : null,
      national_insurance_number: faker.datatype.boolean(0.4)
        ? `QQ${faker.string.numeric(6)}${faker.helpers.arrayElement(['A', 'B', 'C', 'D'])}`
        : null,
      deletion_date: faker.datatype.boolean(0.3)
        ? toDate(faker.date.between({ from: daysBefore(epoch, 90), to: daysBefore(epoch, -4 * 365) }))
        : null,
      address: faker.datatype.boolean(0.75) ? generateAddress(faker) : null,
      assignees: pickAssignees(faker, store, assignable(team), createdAt, 0.3),
      created_by: faker.helpers.arrayElement(assignable(team)).user,
      created_at: createdAt,
      updated_at: toTimestamp(faker.date.between({ from: created, to: archived ?? epoch })),
      archived_at: archived ? toTimestamp(archived) : null,
    }
    team.clients.insert(client)
    progress?.made('clients', ++made, count)
  }
}

/** A company number always comes with its jurisdiction (docs/specification-notes.md "Organisations"). */
function registration(faker: Faker): Pick<OrganisationRow, 'company_number' | 'jurisdiction'> {
  if (!faker.datatype.boolean(0.8)) return { company_number: null, jurisdiction: null }
  const jurisdiction = faker.helpers.weightedArrayElement([
    { weight: 75, value: 'gb' as const },
    { weight: 15, value: 'ie' as const },
    { weight: 10, value: 'us_de' as const },
  ])
  return { company_number: `0${faker.string.numeric(7)}`, jurisdiction }
}

export function generateOrganisations(faker: Faker, store: Store, team: Team, count: number, epoch: Date): void {
  const activeClients = team.clients.filter((client) => client.archived_at === null)
  for (const created of creationMoments(faker, count, daysBefore(epoch, 700), daysBefore(epoch, 2))) {
    const createdAt = toTimestamp(created)
    // Rule 9 of docs/specification-notes.md "Rules of the service": archiving an organisation removes its clients.
    const archived = faker.datatype.boolean(0.12) ? faker.date.between({ from: created, to: epoch }) : null
    const members = archived || activeClients.length === 0 ? [] : faker.helpers.arrayElements(activeClients, { min: 0, max: 5 })
    team.organisations.insert({
      id: store.nextId('organisation'),
      status: faker.datatype.boolean(0.4) ? 'approved' : null,
      name: faker.company.name(),
      ...registration(faker),
      reference: faker.datatype.boolean(0.5) ? `ORG-${faker.string.numeric(4)}` : null,
      incorporated_at: faker.datatype.boolean(0.8) ? toDate(faker.date.between({ from: daysBefore(epoch, 20 * 365), to: daysBefore(epoch, 30) })) : null,
      address: faker.datatype.boolean(0.7) ? generateAddress(faker) : null,
      clients: members.map((client) => client.id).sort((a, b) => a - b),
      assignees: pickAssignees(faker, store, assignable(team), createdAt, 0.3),
      created_at: createdAt,
      updated_at: toTimestamp(faker.date.between({ from: created, to: archived ?? epoch })),
      archived_at: archived ? toTimestamp(archived) : null,
    } satisfies OrganisationRow)
  }
}

/**
 * Assigned-only members see only what they are assigned to: give each some active clients and
 * organisations, so their lists are never empty.
 */
function assignAssignedOnlyMembers(faker: Faker, store: Store, team: Team): void {
  const activeClients = team.clients.filter((client) => client.archived_at === null)
  const activeOrganisations = team.organisations.filter((organisation) => organisation.archived_at === null)
  for (const member of team.members.filter((m) => m.role !== null && seesOnlyAssigned(m.role))) {
    const clients = faker.helpers.arrayElements(activeClients, Math.min(activeClients.length, Math.max(3, Math.round(activeClients.length * 0.15))))
    const organisations = faker.helpers.arrayElements(activeOrganisations, Math.min(activeOrganisations.length, 2))
    const assign = <T extends { readonly id: number; readonly assignees: readonly AssigneeRow[]; readonly updated_at: string }>(table: Table<T>, row: T) => {
      if (row.assignees.some((assignee) => assignee.user === member.user)) return
      table.update(row, (draft) => {
        draft.assignees.push({ id: store.nextId('assignee'), user: member.user, created_at: row.updated_at })
      })
    }
    for (const client of clients) assign(team.clients, client)
    for (const organisation of organisations) assign(team.organisations, organisation)
  }
}

/**
 * Top-ups by the team's owners, goodwill adjustments by support (or an owner), and corrections by
 * the billing system (no causer: docs/specification-notes.md "Credits"). Usage by checks comes with records.
 */
export function generateCredits(faker: Faker, store: Store, team: Team, count: number, epoch: Date): void {
  const current = team.members.filter((member) => member.role !== null)
  const owners = current.filter((member) => member.role === 'owner')
  const purchasers = owners.length > 0 ? owners : current
  const support = current.filter((member) => member.role !== null && ownsTeam(member.role) && member.role !== 'owner')
  // The opening purchase comes the day after the team was created (at once for a new team).
  const opened = new Date(Math.min(new Date(team.row.created_at).getTime() + DAY, epoch.getTime()))
  const moments = [opened, ...creationMoments(faker, count - 1, opened, epoch)]
  moments.forEach((moment, index) => {
    const kind =
      index === 0
        ? 'initial'
        : faker.helpers.weightedArrayElement([
            { weight: 60, value: 'purchase' },
            { weight: 15, value: 'goodwill' },
            { weight: 25, value: 'correction' },
          ])
    const byUser = (members: readonly MemberRow[]) => ({ id: faker.helpers.arrayElement(members).user, type: 'user' as const })
    const entry: Record<typeof kind, Pick<CreditRow, 'credits' | 'reason' | 'causer'>> = {
      initial: { credits: 500, reason: 'Initial credit purchase', causer: byUser(purchasers) },
      purchase: { credits: faker.helpers.arrayElement([100, 250, 500]), reason: 'Credit purchase', causer: byUser(purchasers) },
      goodwill: { credits: faker.helpers.arrayElement([5, 10, 20]), reason: 'Goodwill adjustment', causer: byUser(support.length > 0 ? support : purchasers) },
      correction: { credits: -faker.helpers.arrayElement([5, 10]), reason: faker.datatype.boolean(0.7) ? 'Manual correction' : null, causer: null },
    }
    team.credits.insert({ id: store.nextId('credit'), ...entry[kind], created_at: toTimestamp(moment) })
  })
}

/** Everything generated for one team, in a fixed order so ids and values never shift. */
export function generateTeamData(faker: Faker, store: Store, team: Team, domain: string, counts: GenerateCounts, epoch: Date, progress?: GenerationProgress): void {
  generateMembers(faker, store, team, domain, counts.members, epoch)
  generateClients(faker, store, team, counts.clients, epoch, progress)
  generateOrganisations(faker, store, team, counts.organisations, epoch)
  assignAssignedOnlyMembers(faker, store, team)
  generateCredits(faker, store, team, counts.credit_entries, epoch)
  generateRecords(faker, store, team, counts.records, epoch, progress)
  generateCases(faker, store, team, counts.cases, epoch)
  // Each of these has a faker of its own, seeded by the team, so adding them shifted nothing above.
  withSeededFaker(team.id * 7_919 + 4_447, (faker) => generateLibraries(faker, store, team, epoch))
  // Forms after the libraries: a template's document field may name a document template.
  withSeededFaker(team.id * 7_919 + 31, (faker) => generateForms(faker, store, team, epoch))
  withSeededFaker(team.id * 7_919 + 8_081, (faker) => generateFiles(faker, store, team, epoch))
  // The deletion dates after the epoch are announced when the mock's clock reaches them.
  const scheduler = new Scheduler(store.data.jobs, createClock({ start: epoch, frozen: true }), () => store.nextId('job'), undefined, store.jobLog)
  // Held, then merged into the queue in one pass: inserted one by one, each would move the jobs due after it.
  scheduler.holdBeyond(epoch.getTime())
  scheduleSeededDeletionReminders(scheduler, team.id, team.clients, epoch.getTime())
  scheduler.release()
  progress?.finished()
}
