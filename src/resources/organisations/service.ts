import { canSee, emit, visibleRow, type RequestContext, type TeamContext } from '../../context.ts'
import type { Team } from '../../store/world.ts'
import type { ClientsOrganisationsListQuery, OrganisationCreateJson, OrganisationsListQuery } from '../../contracts/generated.ts'
import { assertValid, everyKeyPassed, forbidden, NOT_ASSIGNED, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { matchesSearch, searchWords } from '../../kernel/search.ts'
import { sortRows, type SortAccessors, type SortKey } from '../../kernel/sort.ts'
import { assignCreator } from '../assignees/index.ts'
import { addressFrom, findClient, type AddressRow, type ClientRow } from '../clients/index.ts'
import type { OrganisationRow } from './rows.ts'

const sortAccessors: SortAccessors<OrganisationRow, SortKey<OrganisationsListQuery> | SortKey<ClientsOrganisationsListQuery>> = {
  name: (organisation) => organisation.name,
  reference: (organisation) => organisation.reference,
  created_at: (organisation) => organisation.created_at,
  updated_at: (organisation) => organisation.updated_at,
  archived_at: (organisation) => organisation.archived_at,
}

/** Filters of GET /organisations (docs/specification-notes.md "Organisations"): assignee is a user id, or true/false for any/none. */
export function listOrganisations(ctx: RequestContext, query: OrganisationsListQuery): OrganisationRow[] {
  const { search, assignee, visibility } = query
  const words = search ? searchWords(search) : []
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  const organisations = ctx.team.organisations.filter(
    (organisation) =>
      (!onlyAssigned || canSee(ctx, organisation)) &&
      (visibility === undefined || (visibility === 'archived') === (organisation.archived_at !== null)) &&
      (assignee === undefined ||
        (typeof assignee === 'boolean'
          ? assignee === organisation.assignees.length > 0
          : organisation.assignees.some((row) => row.user === assignee))) &&
      (words.length === 0 || matchesSearch(words, [organisation.name, organisation.company_number, organisation.reference])),
  )
  return sortRows(organisations, sortAccessors, query)
}

/** The caller's organisation: 404 when the team has none with that id, 403 when an assigned-only caller is not assigned to it. */
export function getOrganisation(ctx: RequestContext, id: number): OrganisationRow {
  return visibleRow(ctx, ctx.team.organisations, id, 'Organisation')
}

/** The organisation a path names, for an operation's find. */
export const findOrganisation = (ctx: RequestContext, params: { id: number }): OrganisationRow => getOrganisation(ctx, params.id)

/** An address whose every field is null is no address. */
const registeredAddress = (address: AddressRow): AddressRow | null => (Object.values(address).every((value) => value === null) ? null : address)

/** The fields a create or update sets (PATCH: a field left out is unchanged; address replaces the whole address). */
/** What the body changes: the fields it names whose value differs. */
function changedFields(organisation: OrganisationRow, input: OrganisationCreateJson): Partial<OrganisationRow> {
  const next: Partial<OrganisationRow> = {
    name: input.name,
    ...(input.status !== undefined && { status: input.status }),
    ...(input.company_number !== undefined && { company_number: input.company_number }),
    ...(input.jurisdiction !== undefined && { jurisdiction: input.jurisdiction }),
    ...(input.reference !== undefined && { reference: input.reference }),
    ...(input.incorporated_at !== undefined && { incorporated_at: input.incorporated_at }),
    ...(input.address !== undefined && { address: input.address && registeredAddress(addressFrom(input.address)) }),
  }
  return Object.fromEntries(Object.entries(next).filter(([field, value]) => JSON.stringify(organisation[field as keyof OrganisationRow]) !== JSON.stringify(value)))
}

/** The service does not deduplicate (rule 7 of docs/specification-notes.md "Rules of the service"). An assigned-only creator is assigned to it. */
export function createOrganisation(ctx: RequestContext, input: OrganisationCreateJson): OrganisationRow {
  const now = ctx.clock.timestamp()
  const organisation: OrganisationRow = {
    id: ctx.store.nextId('organisation'),
    status: null,
    name: input.name,
    company_number: null,
    jurisdiction: null,
    reference: null,
    incorporated_at: null,
    address: null,
    clients: [],
    assignees: assignCreator(ctx, now),
    created_at: now,
    updated_at: now,
    archived_at: null,
  }
  return ctx.team.organisations.insert({ ...organisation, ...changedFields(organisation, input) })
}

/** PATCH: only what the body names changes; updated_at moves only when something did. */
export function updateOrganisation(ctx: RequestContext, organisation: OrganisationRow, input: OrganisationCreateJson): OrganisationRow {
  const change = changedFields(organisation, input)
  return Object.keys(change).length === 0 ? organisation : ctx.team.organisations.update(organisation, { ...change, updated_at: ctx.clock.timestamp() })
}

/** An organisation's clients the caller can see, the newest-created first (docs/specification-notes.md "Organisations"). */
export function organisationClients(ctx: RequestContext, organisation: OrganisationRow): ClientRow[] {
  return organisation.clients
    .map((id) => ctx.team.clients.get(id))
    .filter((client): client is ClientRow => client !== undefined && canSee(ctx, client))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)
}

/**
 * Archiving (the control API: the API has no archive operation) removes every client from the
 * organisation (rule 9 of docs/specification-notes.md "Rules of the service"); each client that left publishes client.organisations.
 */
export function archiveOrganisation(ctx: TeamContext, organisation: OrganisationRow): void {
  if (organisation.archived_at !== null) return
  const now = ctx.clock.timestamp()
  const clients = organisation.clients
  ctx.team.organisations.update(organisation, { clients: [], archived_at: now, updated_at: now })
  for (const client of clients) emit(ctx, 'client.organisations', { client })
}

export function unarchiveOrganisation(ctx: TeamContext, organisation: OrganisationRow): void {
  if (organisation.archived_at === null) return
  ctx.team.organisations.update(organisation, { archived_at: null, updated_at: ctx.clock.timestamp() })
}

// Client memberships: docs/specification-notes.md "Clients" and docs/specification-notes.md "Wire details".

/** The organisations a client belongs to (an organisation holds its clients' ids). */
function organisationsOf(team: Team, clientId: number): OrganisationRow[] {
  return team.organisations.filter((organisation) => organisation.clients.includes(clientId))
}

/** The organisations a client belongs to (that the caller can see), by the list's sort. */
export function clientOrganisations(ctx: RequestContext, client: ClientRow, query: ClientsOrganisationsListQuery): OrganisationRow[] {
  return sortRows(
    organisationsOf(ctx.team, client.id).filter((organisation) => canSee(ctx, organisation)),
    sortAccessors,
    query,
  )
}

/** An active organisation the caller sees: what a membership body may name. */
function nameableOrganisation(ctx: RequestContext, id: number): OrganisationRow | undefined {
  const organisation = ctx.team.organisations.get(id)
  return organisation && organisation.archived_at === null && canSee(ctx, organisation) ? organisation : undefined
}

/** A membership body beyond its contract: each id an active organisation the caller sees, else a 422 keyed by its index. */
export function clientOrganisationsErrors(ctx: RequestContext, ids: readonly number[], passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  const errors: ValidationErrors = {}
  ids.forEach((id, index) => {
    if (passed(String(index)) && !nameableOrganisation(ctx, id)) errors[String(index)] = [`The selected ${index} is invalid.`]
  })
  return errors
}

/** The organisations a body names, once each. */
function namedOrganisations(ctx: RequestContext, ids: readonly number[]): OrganisationRow[] {
  assertValid(clientOrganisationsErrors(ctx, ids))
  return [...new Set(ids.map((id) => nameableOrganisation(ctx, id) as OrganisationRow))]
}

function join(team: Team, client: ClientRow, organisations: readonly OrganisationRow[]): OrganisationRow[] {
  const joined = organisations.filter((organisation) => !organisation.clients.includes(client.id))
  for (const organisation of joined) team.organisations.update(organisation, { clients: [...organisation.clients, client.id] })
  return joined
}

/** Adds memberships; returns only the organisations newly joined. */
export function addClientOrganisations(ctx: RequestContext, client: ClientRow, ids: readonly number[]): OrganisationRow[] {
  const joined = join(ctx.team, client, namedOrganisations(ctx, ids))
  if (joined.length > 0) emit(ctx, 'client.organisations', { client: client.id })
  return joined
}

function leave(team: Team, client: ClientRow, organisations: readonly OrganisationRow[]): void {
  for (const organisation of organisations) team.organisations.update(organisation, { clients: organisation.clients.filter((id) => id !== client.id) })
}

/** The organisations the client belongs to that the caller sees: an assigned-only member changes only those. */
const visibleMemberships = (ctx: RequestContext, client: ClientRow) =>
  organisationsOf(ctx.team, client.id).filter((organisation) => canSee(ctx, organisation))

/** The client belongs to exactly the organisations named (of those the caller sees); returns only those newly joined. */
export function replaceClientOrganisations(ctx: RequestContext, client: ClientRow, ids: readonly number[]): OrganisationRow[] {
  const named = namedOrganisations(ctx, ids)
  const left = visibleMemberships(ctx, client).filter((organisation) => !named.includes(organisation))
  leave(ctx.team, client, left)
  const joined = join(ctx.team, client, named)
  if (joined.length > 0 || left.length > 0) emit(ctx, 'client.organisations', { client: client.id })
  return joined
}

export function removeClientOrganisations(ctx: RequestContext, client: ClientRow): void {
  const left = visibleMemberships(ctx, client)
  leave(ctx.team, client, left)
  if (left.length > 0) emit(ctx, 'client.organisations', { client: client.id })
}

/**
 * The membership a path names, for an operation's find: the client (404 Client not found, or 403),
 * then the organisation it is in (404 Organisation not found when it is not in that organisation
 * of the team).
 */
export function findMembership(ctx: RequestContext, params: { clientId: number; organisationId: number }) {
  const client = findClient(ctx, params)
  const organisation = ctx.team.organisations.get(params.organisationId)
  if (!organisation || !organisation.clients.includes(client.id)) throw notFound('Organisation')
  return { client, organisation }
}

/** Removes one membership: 403 when the caller may not see the organisation. */
export function removeClientOrganisation(ctx: RequestContext, client: ClientRow, organisation: OrganisationRow): void {
  if (!canSee(ctx, organisation)) throw forbidden(NOT_ASSIGNED)
  leave(ctx.team, client, [organisation])
  emit(ctx, 'client.organisations', { client: client.id })
}
