// Seeded cases for teams that have them: each for a client with records, holding some of that
// client's records as items, in every status (the deprecated pending rarely, as an old case that
// was never reviewed), some archived, some with assignees (the team's assigned-only members on
// some). A case starts action_required (docs/specification-notes.md "Cases"); each status after that comes from a case
// review by an owner or member, whose from_status chains from the one before, and the case's
// status_changed_at is its last review's created_at. Rows are written straight into the tables,
// in creation order, every timestamp between the client's records and the epoch.
import type { Faker } from '@faker-js/faker'
import type { CaseStatusJson } from '../contracts/generated.ts'
import { toTimestamp } from '../kernel/clock.ts'
import { seesOnlyAssigned } from '../kernel/roles.ts'
import type { CaseItemRow, CaseReviewRow, CaseRow } from '../resources/cases/index.ts'
import type { ClientRow } from '../resources/clients/index.ts'
import type { RecordRow } from '../resources/records/index.ts'
import type { AssigneeRow } from '../resources/assignees/index.ts'
import type { Store, Team } from '../store/world.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Statuses a case is reviewed into on its way (never pending: deprecated). */
const REVIEWED: readonly CaseStatusJson[] = ['awaiting_response', 'action_required', 'reviewed_pending_decision', 'approved', 'rejected', 'on_hold']
const WEIGHTED: Array<{ weight: number; value: CaseStatusJson }> = [
  { weight: 12, value: 'awaiting_response' },
  { weight: 16, value: 'action_required' },
  { weight: 12, value: 'reviewed_pending_decision' },
  { weight: 26, value: 'approved' },
  { weight: 10, value: 'rejected' },
  { weight: 8, value: 'on_hold' },
]
/** Steps a case may pass through before its final status. */
const INTERMEDIATE: readonly CaseStatusJson[] = ['awaiting_response', 'reviewed_pending_decision', 'on_hold', 'action_required']
const PURPOSES = ['Onboarding', 'Right to work', 'Pre-employment screening', 'Tenancy application', 'AML review', 'Annual review', 'Source of funds']

/** The final statuses of `count` cases: every reviewed status once, one pending when there are ten or more, the rest weighted. */
function finalStatuses(faker: Faker, count: number): CaseStatusJson[] {
  const statuses: CaseStatusJson[] = [...REVIEWED.slice(0, count)]
  if (count >= 10) statuses.push('pending')
  while (statuses.length < count) statuses.push(faker.helpers.weightedArrayElement(WEIGHTED))
  return faker.helpers.shuffle(statuses)
}

/** From action_required to `status`: zero to two other statuses on the way, never the same twice in a row. */
function reviewPath(faker: Faker, status: CaseStatusJson): CaseStatusJson[] {
  if (status === 'pending') return []
  if (status === 'action_required' && faker.datatype.boolean(0.5)) return []
  const path: CaseStatusJson[] = []
  let current: CaseStatusJson = 'action_required'
  for (let step = faker.number.int({ min: 0, max: 2 }); step > 0; step--) {
    const next = faker.helpers.arrayElement(INTERMEDIATE.filter((candidate) => candidate !== current && candidate !== status))
    path.push(next)
    current = next
  }
  if (current !== status) path.push(status)
  else path.push(faker.helpers.arrayElement(INTERMEDIATE.filter((candidate) => candidate !== current)), status)
  return path
}

const latest = (...moments: number[]) => Math.max(...moments)

/** A moment between from and to (to when from is later), whole seconds. */
function between(faker: Faker, from: number, to: number): number {
  const moment = from >= to ? to : faker.date.between({ from, to }).getTime()
  return Math.floor(moment / 1000) * 1000
}

interface Plan {
  client: ClientRow
  records: RecordRow[]
  status: CaseStatusJson
  created: number
}

export function generateCases(faker: Faker, store: Store, team: Team, count: number, epoch: Date): void {
  if (!team.row.cases_enabled || count === 0) return
  const end = epoch.getTime() - HOUR
  const withRecords = team.clients.filter((client) => team.recordsByClient.get(client.id).length > 0)
  if (withRecords.length === 0) return
  const reviewers = team.members.filter((member) => member.role === 'owner' || member.role === 'member')
  const creators = reviewers.length > 0 ? reviewers : team.members.filter((member) => member.role !== null)
  const assignable = team.members.filter((member) => member.role !== 'assumed' && member.role !== null && !seesOnlyAssigned(member.role))
  const assignedOnly = team.members.filter((member) => member.role !== null && seesOnlyAssigned(member.role))

  // Plan first, then write in creation order so ids follow creation time.
  const plans: Plan[] = finalStatuses(faker, count).map((status) => {
    const client = faker.helpers.arrayElement(withRecords)
    const records = [...team.recordsByClient.get(client.id)].sort((a, b) => a.created_at.localeCompare(b.created_at))
    // After the client and its first record (seeded records may predate their client's row).
    const from = latest(Date.parse(client.created_at), Date.parse(records[0]?.created_at ?? client.created_at))
    // A pending case was made before the status was deprecated and never reviewed since.
    const created = between(faker, from, latest(from, Math.min(from + (status === 'pending' ? 5 : 60) * DAY, end - 2 * DAY)))
    return { client, records, status, created }
  })
  plans.sort((a, b) => a.created - b.created)

  const rows: CaseRow[] = []
  for (const plan of plans) {
    const { client, records, status, created } = plan
    const createdAt = toTimestamp(new Date(created))
    // A case still action_required with no review may have no items yet (the team must act).
    const path = reviewPath(faker, status)
    const itemCount = status === 'action_required' && path.length === 0 && faker.datatype.boolean(0.4) ? 0 : faker.number.int({ min: 1, max: Math.min(3, records.length) })
    const chosen = faker.helpers.arrayElements(records, itemCount).sort((a, b) => a.created_at.localeCompare(b.created_at))
    let moment = created
    const items: CaseItemRow[] = chosen.map((record) => {
      moment = between(faker, latest(moment, Date.parse(record.created_at)), Math.min(latest(moment, Date.parse(record.created_at)) + 2 * DAY, end))
      const at = toTimestamp(new Date(moment))
      return { id: store.nextId('case_item'), record: record.id, created_at: at, updated_at: at }
    })
    const id = store.nextId('case')
    let current: CaseStatusJson = status === 'pending' ? 'pending' : 'action_required'
    let statusChanged = created
    for (const next of path) {
      moment = between(faker, moment + HOUR, Math.min(moment + 20 * DAY, end))
      const at = toTimestamp(new Date(moment))
      const review: CaseReviewRow = {
        id: store.nextId('case_review'),
        case: id,
        reviewed_by: faker.helpers.arrayElement(reviewers.length > 0 ? reviewers : creators).user,
        status: next,
        from_status: current,
        created_at: at,
        updated_at: at,
      }
      team.caseReviews.insert(review)
      current = next
      statusChanged = moment
    }
    const finished = status === 'approved' || status === 'rejected'
    const archived = faker.datatype.boolean(finished ? 0.35 : 0.05) ? between(faker, moment + HOUR, Math.min(moment + 30 * DAY, end)) : null
    const assignees: AssigneeRow[] =
      assignable.length > 0 && faker.datatype.boolean(0.5)
        ? faker.helpers.arrayElements(assignable, { min: 1, max: Math.min(2, assignable.length) }).map((member) => ({ id: store.nextId('assignee'), user: member.user, created_at: createdAt }))
        : []
    const row: CaseRow = {
      id,
      client: client.id,
      name: `${client.name.first_name} ${client.name.last_name}: ${faker.helpers.arrayElement(PURPOSES)}`,
      reference: faker.datatype.boolean(0.6) ? `CASE-${faker.string.numeric(5)}` : null,
      status: current,
      status_changed_at: toTimestamp(new Date(statusChanged)),
      items,
      assignees,
      created_by: faker.helpers.arrayElement(creators).user,
      created_at: createdAt,
      updated_at: toTimestamp(new Date(archived ?? moment)),
      archived_at: archived === null ? null : toTimestamp(new Date(archived)),
    }
    team.cases.insert(row)
    rows.push(row)
  }

  // Something archived to list, whatever the dice said: the oldest finished case.
  if (!rows.some((row) => row.archived_at !== null)) {
    const oldest = rows.find((row) => row.status === 'approved' || row.status === 'rejected') ?? rows[0]
    if (oldest) {
      const archived = toTimestamp(new Date(between(faker, Date.parse(oldest.updated_at) + HOUR, end)))
      team.cases.update(oldest, { archived_at: archived, updated_at: archived })
    }
  }

  // Assigned-only members see only what they are assigned to: give each a few active cases and one archived.
  for (const member of assignedOnly) {
    const active = rows.filter((row) => row.archived_at === null)
    const archived = rows.filter((row) => row.archived_at !== null)
    const chosen = [...faker.helpers.arrayElements(active, Math.min(active.length, Math.max(2, Math.round(rows.length * 0.2)))), ...faker.helpers.arrayElements(archived, Math.min(1, archived.length))]
    for (const row of chosen) {
      if (row.assignees.some((assignee) => assignee.user === member.user)) continue
      team.cases.update(row, { assignees: [...row.assignees, { id: store.nextId('assignee'), user: member.user, created_at: row.created_at }] })
    }
  }
}
