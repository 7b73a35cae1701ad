import { canSee, emit, visibleRow, type RequestContext, type TeamContext } from '../../context.ts'
import type { AddressReplaceJson, ClientCreateJson, ClientsListQuery, ClientUpdateJson } from '../../contracts/generated.ts'
import { forbidden } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { foldText, searchWords } from '../../kernel/search.ts'
import { sortRows, type SortAccessors, type SortKey } from '../../kernel/sort.ts'
import { inListOrder, type ListedRows } from '../../kernel/pagination.ts'
import { hasVisibility } from '../../kernel/visibility.ts'
import { assignCreator } from '../assignees/index.ts'
import { releaseAttachments } from '../attachments/index.ts'
import { firstWhere } from '../../store/table.ts'
import type { Team } from '../../store/world.ts'
import { cancelDeletionReminder, scheduleDeletionReminder } from './jobs.ts'
import { EMPTY_ADDRESS, type AddressRow, type ClientRow, type NameRow } from './rows.ts'
import { canDeleteClient } from './rules.ts'
import type { IndexedClient } from './search-index.ts'

/** Names of the organisations each client belongs to, folded (the search looks at them too). */
function organisationNamesByClient(team: Team): Map<number, string[]> {
  const names = new Map<number, string[]>()
  for (const organisation of team.organisations) {
    if (organisation.clients.length === 0) continue
    const folded = foldText(organisation.name)
    for (const client of organisation.clients) {
      const held = names.get(client)
      if (held) held.push(folded)
      else names.set(client, [folded])
    }
  }
  return names
}

/** Every word is in the client's own folded fields or in the folded name of one of its organisations. */
function holdsEveryWord(words: readonly string[], ownText: string, organisationNames: readonly string[] | undefined): boolean {
  return words.every((word) => ownText.includes(word) || (organisationNames !== undefined && organisationNames.some((name) => name.includes(word))))
}

const sortAccessors: SortAccessors<ClientRow, SortKey<ClientsListQuery>> = {
  'name.first_name': (client) => client.name.first_name,
  'name.last_name': (client) => client.name.last_name,
  deletion_date: (client) => client.deletion_date,
  created_at: (client) => client.created_at,
  updated_at: (client) => client.updated_at,
  archived_at: (client) => client.archived_at,
}

/**
 * The clients of a deletion_date bucket, from the clients kept by deletion date: a range of them,
 * found by binary searches. Those without a date, and those of one date, are in id order there.
 */
function deletionBucket(team: Team, bucket: NonNullable<ClientsListQuery['deletion_date']>, today: string): { clients: readonly ClientRow[]; inIdOrder: boolean } {
  const rows = team.clientsByDeletionDate.rows()
  const dated = firstWhere(rows, (client) => client.deletion_date !== null)
  const fromToday = firstWhere(rows, (client) => client.deletion_date !== null && client.deletion_date >= today)
  const afterToday = firstWhere(rows, (client) => client.deletion_date !== null && client.deletion_date > today)
  switch (bucket) {
    case 'not_set':
      return { clients: rows.slice(0, dated), inIdOrder: true }
    case 'today':
      return { clients: rows.slice(fromToday, afterToday), inIdOrder: true }
    case 'upcoming':
      return { clients: rows.slice(afterToday), inIdOrder: false }
    default:
      return { clients: rows.slice(dated, fromToday), inIdOrder: false }
  }
}

/** deletion_date buckets, against the mock's clock (UTC dates compare as strings). */
function inDeletionBucket(client: ClientRow, bucket: string, today: string): boolean {
  const date = client.deletion_date
  switch (bucket) {
    case 'not_set':
      return date === null
    case 'today':
      return date === today
    case 'upcoming':
      return date !== null && date > today
    default:
      return date !== null && date < today
  }
}

export function listClients(ctx: RequestContext, query: ClientsListQuery): ListedRows<ClientRow> {
  const { search, status, visibility, assignee, reference, deletion_date } = query
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  const words = search ? searchWords(search) : []
  const wantedReference = reference?.toLowerCase()
  const today = ctx.clock.today()
  const fits = (client: ClientRow) =>
    (!onlyAssigned || canSee(ctx, client)) &&
    (status === undefined || client.status === status) &&
    hasVisibility(visibility, client.archived_at) &&
    (assignee === undefined || client.assignees.some((a) => a.user === assignee)) &&
    (wantedReference === undefined || client.reference?.toLowerCase() === wantedReference) &&
    (deletion_date === undefined || inDeletionBucket(client, deletion_date, today))
  if (words.length === 0) {
    const byIdOnly = (query.sort_by as string) === 'id'
    // Every client that can pass is in the index part of each filter given (its reference, status,
    // visibility, assignee, deletion date bucket, and the assigned-only caller's own): the shortest,
    // as it is when it is the only filter, else its clients that pass. Parts in id order need no
    // sort for the default one.
    const parts: Array<{ clients: readonly ClientRow[]; inIdOrder: boolean }> = []
    const part = (clients: readonly ClientRow[]) => parts.push({ clients, inIdOrder: true })
    if (wantedReference !== undefined) part(ctx.team.clientsByReference.get(wantedReference))
    if (status !== undefined) part(ctx.team.clientsByStatus.get(status))
    if (visibility !== undefined) part(ctx.team.clientsByVisibility.get(visibility))
    if (assignee !== undefined) part(ctx.team.clientsByAssignee.get(assignee))
    if (onlyAssigned) part(ctx.team.clientsByAssignee.get(ctx.user.id))
    if (deletion_date !== undefined) parts.push(deletionBucket(ctx.team, deletion_date, today))
    const sortBy = query.sort_by
    if (parts.length === 0) {
      // Sorted by a name, the answer is the index's order as it is; stored in id order, the default sort is the rows as they are.
      if (sortBy === 'name.first_name' || sortBy === 'name.last_name') return inListOrder(ctx.team.clientsByName[sortBy].rows(), query.order_by)
      const clients = ctx.team.clients.all()
      return byIdOnly && ctx.team.clientsInIdOrder.holds ? inListOrder(clients, query.order_by) : sortRows(clients, sortAccessors, query)
    }
    const shortest = parts.reduce((best, next) => (next.clients.length < best.clients.length ? next : best))
    const clients = parts.length > 1 ? shortest.clients.filter(fits) : shortest.clients
    return byIdOnly && shortest.inIdOrder ? inListOrder(clients, query.order_by) : sortRows(clients, sortAccessors, query)
  }
  const organisationNames = organisationNamesByClient(ctx.team)
  const found = (entry: IndexedClient) => fits(entry.client) && holdsEveryWord(words, entry.text, organisationNames.get(entry.client.id))
  const candidates = searchCandidates(ctx.team, words, organisationNames)
  const clients = candidates ? foundAmong(candidates, found) : ctx.team.clients.filter((client) => found(ctx.team.clientSearch.entry(client)))
  return sortRows(clients, sortAccessors, query)
}

/** The clients of the entries that pass, in one pass. */
function foundAmong(entries: readonly IndexedClient[], found: (entry: IndexedClient) => boolean): ClientRow[] {
  const clients: ClientRow[] = []
  for (const entry of entries) if (found(entry)) clients.push(entry.client)
  return clients
}

/**
 * The only clients that can match every word (the index narrows, the search decides): for the
 * word with the fewest, the clients whose own fields have its rarest trigram (or the word itself,
 * of two letters) and those in an organisation whose name holds it. Undefined when no word can be
 * narrowed down (all of one letter): then every client is a candidate.
 */
function searchCandidates(team: Team, words: readonly string[], organisationNames: ReadonlyMap<number, readonly string[]>): readonly IndexedClient[] | undefined {
  let fewest: readonly IndexedClient[] | undefined
  for (const word of words) {
    const own = team.clientSearch.candidates(word)
    if (own === undefined) continue
    // Clients found by an organisation's name are added to the index's (distinct) clients, once each.
    let found: { entries: IndexedClient[]; seen: Set<number> } | undefined
    for (const [id, names] of organisationNames) {
      if (!names.some((name) => name.includes(word))) continue
      found ??= { entries: [...own], seen: new Set(own.map((entry) => entry.client.id)) }
      const client = team.clients.get(id)
      if (client && !found.seen.has(id)) {
        found.seen.add(id)
        found.entries.push(team.clientSearch.entry(client))
      }
    }
    const entries = found?.entries ?? own
    if (fewest === undefined || entries.length < fewest.length) fewest = entries
  }
  return fewest
}

/** The caller's client: 404 when the team has none with that id, 403 when an assigned-only caller is not assigned to it. */
export function getClient(ctx: RequestContext, id: number): ClientRow {
  return visibleRow(ctx, ctx.team.clients, id, 'Client')
}

/** The client a path names, for an operation's find. */
export const findClient = (ctx: RequestContext, params: { id: number } | { clientId: number }): ClientRow =>
  getClient(ctx, 'id' in params ? params.id : params.clientId)

/** Rules 2 and 7 of docs/specification-notes.md "Rules of the service": creating a client sends nothing, issues no record and never deduplicates. */
export function createClient(ctx: RequestContext, input: ClientCreateJson): ClientRow {
  const now = ctx.clock.timestamp()
  const name = input.name as NameRow & Partial<NameRow>
  const client: ClientRow = {
    id: ctx.store.nextId('client'),
    status: input.status ?? null,
    name: {
      title: name.title ?? null,
      other_title: name.other_title ?? null,
      first_name: name.first_name,
      middle_name: name.middle_name ?? null,
      last_name: name.last_name,
    },
    email: input.email,
    landline: input.landline ?? null,
    mobile: input.mobile ?? null,
    dob: input.dob ?? null,
    reference: input.reference ?? null,
    national_insurance_number: null,
    deletion_date: input.deletion_date ?? null,
    address: null,
    assignees: assignCreator(ctx, now),
    created_by: ctx.user.id,
    created_at: now,
    updated_at: now,
    archived_at: null,
  }
  ctx.team.clients.insert(client)
  emit(ctx, 'client.created', { client: client.id })
  if (client.deletion_date !== null) deletionDateChanged(ctx, client)
  return client
}

/**
 * The client's deletion_date was set, changed or removed (docs/specification-notes.md "Events"):
 * client.deletion_reminder_updated or client.deletion_reminder_deleted, and the job that publishes
 * client.deletion_reminder_due when the mock's clock reaches the date; a date already reached
 * (today or earlier) is due at once.
 */
function deletionDateChanged(ctx: TeamContext, client: ClientRow): void {
  const dueNow = scheduleDeletionReminder(ctx, client)
  emit(ctx, client.deletion_date === null ? 'client.deletion_reminder_deleted' : 'client.deletion_reminder_updated', { client: client.id })
  if (dueNow) deletionReminderDue(ctx, client)
}

/** The client's deletion date has come (the scheduler's job, or a date set in the past). */
export function deletionReminderDue(ctx: TeamContext, client: ClientRow): void {
  emit(ctx, 'client.deletion_reminder_due', { client: client.id })
}

/**
 * Archiving a client (the control API: the real API has no client archive operation) stamps
 * archived_at and updated_at and publishes client.archived; an archived client is left as it is.
 */
export function archiveClient(ctx: TeamContext, client: ClientRow): void {
  if (client.archived_at !== null) return
  const now = ctx.clock.timestamp()
  ctx.team.clients.update(client, { archived_at: now, updated_at: now })
  emit(ctx, 'client.archived', { client: client.id })
}

/** Clears archived_at (updated_at moves) and publishes client.unarchived; a client not archived is left as it is. */
export function unarchiveClient(ctx: TeamContext, client: ClientRow): void {
  if (client.archived_at === null) return
  ctx.team.clients.update(client, { archived_at: null, updated_at: ctx.clock.timestamp() })
  emit(ctx, 'client.unarchived', { client: client.id })
}

const SCALAR_FIELDS = ['email', 'landline', 'mobile', 'dob', 'reference', 'deletion_date'] as const

/**
 * PATCH semantics: only the given fields change, name parts merge into the stored name. A request
 * that changes nothing leaves updated_at alone and emits nothing.
 */
export function updateClient(ctx: RequestContext, client: ClientRow, input: ClientUpdateJson): ClientRow {
  const deletionDate = client.deletion_date
  const name: Partial<Record<keyof NameRow, string | null>> = {}
  if (input.name) {
    for (const [part, value] of Object.entries(input.name) as Array<[keyof NameRow, string | null]>) {
      if (part in client.name && client.name[part] !== value) name[part] = value
    }
  }
  const fields: Partial<Record<(typeof SCALAR_FIELDS)[number], string | null>> = {}
  for (const field of SCALAR_FIELDS) {
    const value = input[field]
    if (value !== undefined && client[field] !== value) fields[field] = value
  }
  const changed = Object.keys(name).length > 0 || Object.keys(fields).length > 0
  const statusChanged = input.status !== undefined && input.status !== client.status
  if (changed || statusChanged) {
    ctx.team.clients.update(client, {
      ...(fields as Partial<ClientRow>),
      name: { ...client.name, ...name } as NameRow,
      status: input.status === undefined ? client.status : input.status,
      updated_at: ctx.clock.timestamp(),
    })
    emit(ctx, 'client.updated', { client: client.id })
  }
  if (statusChanged) emit(ctx, 'client.status', { client: client.id })
  if (client.deletion_date !== deletionDate) deletionDateChanged(ctx, client)
  return client
}

/** Everything of the client goes with it, the bytes of its attachments too (those nothing else holds). */
export function deleteClient(ctx: RequestContext, client: ClientRow): void {
  if (!canDeleteClient(ctx, ctx.team.holdsClient(client.id))) throw forbidden('the client may not be deleted by this caller (it has records, or the role may not)')
  ctx.team.clients.delete(client.id)
  cancelDeletionReminder(ctx, client)
  releaseAttachments(ctx, ctx.team.removeDependentsOf(client.id))
  emit(ctx, 'client.deleted', { client: client.id })
}

/** PUT: the given fields replace the whole address; fields left out become null. */
export function replaceAddress(ctx: RequestContext, client: ClientRow, input: AddressReplaceJson): ClientRow {
  const address = addressFrom(input)
  if (JSON.stringify(address) !== JSON.stringify(client.address ?? EMPTY_ADDRESS)) {
    ctx.team.clients.update(client, { address, updated_at: ctx.clock.timestamp() })
    emit(ctx, 'client.updated', { client: client.id })
  }
  return client
}

/** An address input as stored: every field, those left out null (a PUT replaces the whole address). */
export function addressFrom(input: AddressReplaceJson): AddressRow {
  const fields = Object.keys(EMPTY_ADDRESS) as Array<keyof AddressRow>
  return Object.fromEntries(fields.map((field) => [field, input[field] ?? null])) as AddressRow
}
