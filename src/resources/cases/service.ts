// Cases (rules 4 to 7 of docs/specification-notes.md "Rules of the service"; docs/specification-notes.md "Cases"): a grouping of one client's records with a
// reviewable status. Every operation first checks that the team has cases (legacy teams: 403).
import { canSee, emit, type RequestContext, type TeamContext } from '../../context.ts'
import type { CaseCreateJson, CaseItemsUpdateJson, CasesListQuery, CaseStatusJson, CaseUpdateJson } from '../../contracts/generated.ts'
import { assertValid, everyKeyPassed, forbidden, HttpError, invalid, NOT_ASSIGNED, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { matchesSearch, searchWords } from '../../kernel/search.ts'
import { sortRows, type SortAccessors, type SortKey } from '../../kernel/sort.ts'
import { hasVisibility } from '../../kernel/visibility.ts'
import { assignCreator } from '../assignees/index.ts'
import type { ClientRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'
import type { CaseItemRow, CaseReviewRow, CaseRow } from './rows.ts'
import type { Draft } from '../../store/table.ts'

/**
 * Legacy teams have no cases (docs/specification-notes.md "Cases"): 403 on every case operation, after authentication and
 * before anything else (so before the 404 of an unknown id and before validation). Every case
 * operation's find calls it first.
 */
export function requireCases(ctx: TeamContext): void {
  if (!ctx.team.row.cases_enabled) throw forbidden('the team has no cases (a legacy team)')
}

/** docs/specification-notes.md "Wire details": the case items and case reviews operations say `Case not found.`, with a full stop. */
export type CaseNotFound = 'Case not found' | 'Case not found.'

/**
 * The caller's case: 403 on a legacy team, then 404 when the team has no case with that id
 * (another team's included), then 403 when an assigned-only member is not assigned to it.
 */
export function getCase(ctx: RequestContext, id: number, message: CaseNotFound = 'Case not found'): CaseRow {
  requireCases(ctx)
  const row = ctx.team.cases.get(id)
  if (!row) throw new HttpError(404, { error: message })
  if (!canSee(ctx, row)) throw forbidden(NOT_ASSIGNED)
  return row
}

/** The case a path names ({id} or {caseId}), for an operation's find; nested collections use `Case not found.`. */
export const findCase = (ctx: RequestContext, params: { id: number }): CaseRow => getCase(ctx, params.id)
export const findNestedCase = (ctx: RequestContext, params: { id: number } | { caseId: number }): CaseRow =>
  getCase(ctx, 'id' in params ? params.id : params.caseId, 'Case not found.')

/** The item a path names, after its case: 404 `Case item not found` when it is not an item of that case. */
export function findCaseItem(ctx: RequestContext, params: { caseId: number; itemId: number }): { row: CaseRow; item: CaseItemRow } {
  const row = findNestedCase(ctx, params)
  const item = row.items.find((candidate) => candidate.id === params.itemId)
  if (!item) throw notFound('Case item')
  return { row, item }
}

/** Events of a case: data.case and data.client (docs/specification-notes.md "Events"); item events also name the record. */
function publishCase(ctx: TeamContext, type: string, row: CaseRow, record?: number): void {
  emit(ctx, type, record === undefined ? { case: row.id, client: row.client } : { case: row.id, client: row.client, record })
}

function sortAccessors(ctx: RequestContext): SortAccessors<CaseRow, SortKey<CasesListQuery>> {
  const clientOf = (row: CaseRow) => ctx.team.clients.get(row.client)
  return {
    name: (row) => row.name,
    reference: (row) => row.reference,
    'client.name.first_name': (row) => clientOf(row)?.name.first_name ?? null,
    'client.name.last_name': (row) => clientOf(row)?.name.last_name ?? null,
    created_at: (row) => row.created_at,
    updated_at: (row) => row.updated_at,
    archived_at: (row) => row.archived_at,
  }
}

/** GET /cases: every filter of docs/specification-notes.md "Cases"; an assigned-only member sees only the cases they are assigned to. */
export function listCases(ctx: RequestContext, query: CasesListQuery): CaseRow[] {
  const { status, visibility, created_by: createdBy, assigned_to: assignedTo, client, client_visibility: clientVisibility, reference, search } = query
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  const statuses = status === undefined ? undefined : new Set<string>(status)
  const wantedReference = reference?.toLowerCase()
  const words = search ? searchWords(search) : []
  const rows = ctx.team.cases.filter((row) => {
    if (onlyAssigned && !canSee(ctx, row)) return false
    if (statuses !== undefined && !statuses.has(row.status)) return false
    if (!hasVisibility(visibility, row.archived_at)) return false
    if (createdBy !== undefined && row.created_by !== createdBy) return false
    if (client !== undefined && row.client !== client) return false
    if (assignedTo !== undefined) {
      const matches = typeof assignedTo === 'boolean' ? row.assignees.length > 0 === assignedTo : row.assignees.some((assignee) => assignee.user === assignedTo)
      if (!matches) return false
    }
    if (wantedReference !== undefined && row.reference?.toLowerCase() !== wantedReference) return false
    if (clientVisibility === undefined && words.length === 0) return true
    const owner = ctx.team.clients.get(row.client)
    if (!hasVisibility(clientVisibility, owner?.archived_at)) return false
    return words.length === 0 || matchesSearch(words, [row.name, owner?.name.first_name, owner?.name.middle_name, owner?.name.last_name])
  })
  return sortRows(rows, sortAccessors(ctx), query)
}

/** A client of the team the caller sees: what a create may name. */
function visibleClient(ctx: RequestContext, id: number): ClientRow | undefined {
  const client = ctx.team.clients.get(id)
  return client && canSee(ctx, client) ? client : undefined
}

/** POST /cases beyond its contract: the client exists (422 keyed client), merged by the gate with the schema's errors. */
export function caseCreateErrors(ctx: RequestContext, input: CaseCreateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  return passed('client') && !visibleClient(ctx, input.client) ? { client: ['The selected client is invalid.'] } : {}
}

/**
 * POST /cases: a new case has no items and starts action_required (docs/specification-notes.md "Cases"). Never
 * deduplicated (rule 7 of docs/specification-notes.md "Rules of the service"). An assigned-only creator is assigned to it. Emits case.created.
 */
export function createCase(ctx: RequestContext, input: CaseCreateJson): CaseRow {
  requireCases(ctx)
  assertValid(caseCreateErrors(ctx, input))
  const client = visibleClient(ctx, input.client) as ClientRow
  const now = ctx.clock.timestamp()
  const row: CaseRow = {
    id: ctx.store.nextId('case'),
    client: client.id,
    name: input.name,
    reference: input.reference ?? null,
    status: 'action_required',
    status_changed_at: now,
    items: [],
    assignees: assignCreator(ctx, now),
    created_by: ctx.user.id,
    created_at: now,
    updated_at: now,
    archived_at: null,
  }
  ctx.team.cases.insert(row)
  publishCase(ctx, 'case.created', row)
  return row
}

/**
 * PATCH /cases/{id}: name and reference (case.updated when either changed), is_archived
 * (case.archived / case.unarchived when it changed). updated_at moves only when something did.
 */
export function updateCase(ctx: RequestContext, row: CaseRow, input: CaseUpdateJson): CaseRow {
  const now = ctx.clock.timestamp()
  const change: Draft<Partial<CaseRow>> = {}
  if (input.name !== undefined && input.name !== row.name) change.name = input.name
  if (input.reference !== undefined && input.reference !== row.reference) change.reference = input.reference
  const updated = Object.keys(change).length > 0
  let archive: 'case.archived' | 'case.unarchived' | undefined
  if (input.is_archived !== undefined && input.is_archived !== (row.archived_at !== null)) {
    change.archived_at = input.is_archived ? now : null
    archive = input.is_archived ? 'case.archived' : 'case.unarchived'
  }
  if (updated || archive) ctx.team.cases.update(row, { ...change, updated_at: now })
  if (updated) publishCase(ctx, 'case.updated', row)
  if (archive) publishCase(ctx, archive, row)
  return row
}

/** A case's reviews, oldest first. */
export function caseReviews(ctx: RequestContext, row: CaseRow): CaseReviewRow[] {
  return [...ctx.team.reviewsByCase.get(row.id)].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
}

/**
 * Sets a case's status (any status may follow any: docs/specification-notes.md "States and transitions"). A change moves
 * status_changed_at and updated_at and emits case.status, plus case.approved / case.rejected.
 * Setting the status it already has changes nothing.
 */
function setStatus(ctx: TeamContext, row: CaseRow, status: CaseStatusJson): void {
  if (row.status === status) return
  const now = ctx.clock.timestamp()
  ctx.team.cases.update(row, { status, status_changed_at: now, updated_at: now })
  publishCase(ctx, 'case.status', row)
  if (status === 'approved') publishCase(ctx, 'case.approved', row)
  if (status === 'rejected') publishCase(ctx, 'case.rejected', row)
}

/** POST /cases/{id}/reviews: records from_status and the reviewer, then the case takes the new status. */
export function reviewCase(ctx: RequestContext, row: CaseRow, status: CaseStatusJson): CaseReviewRow {
  const now = ctx.clock.timestamp()
  const review: CaseReviewRow = {
    id: ctx.store.nextId('case_review'),
    case: row.id,
    reviewed_by: ctx.user.id,
    status,
    from_status: row.status,
    created_at: now,
    updated_at: now,
  }
  ctx.team.caseReviews.insert(review)
  setStatus(ctx, row, status)
  return review
}

/** PATCH /cases/{id}/items beyond its contract: each entry a record of the case's client the caller sees (422 keyed 0.id). */
export function caseItemsErrors(ctx: RequestContext, row: CaseRow, input: CaseItemsUpdateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  const errors: ValidationErrors = {}
  input.forEach((entry, index) => {
    if (!passed(`${index}.id`)) return
    const record = ctx.team.records.get(entry.id)
    if (!record || record.client !== row.client || !canSee(ctx, record)) errors[`${index}.id`] = [`The selected ${index}.id is invalid.`]
  })
  return errors
}

/**
 * PATCH /cases/{id}/items: merges records into the case (rules 4 to 6 of docs/specification-notes.md "Rules of the service") and returns only the
 * new items. Each record must be a record of the case's client that the caller sees, otherwise a
 * 422 keyed by the entry (`0.id`) and nothing changes. The case status never changes. Each new
 * item emits case.item_added.
 */
export function addItems(ctx: RequestContext, row: CaseRow, input: CaseItemsUpdateJson): CaseItemRow[] {
  assertValid(caseItemsErrors(ctx, row, input))
  const present = new Set(row.items.map((item) => item.record))
  const now = ctx.clock.timestamp()
  const added: CaseItemRow[] = []
  for (const { id: record } of input) {
    if (present.has(record)) continue
    present.add(record)
    added.push({ id: ctx.store.nextId('case_item'), record, created_at: now, updated_at: now })
  }
  if (added.length === 0) return added
  ctx.team.cases.update(row, { items: [...row.items, ...added], updated_at: now })
  for (const item of added) publishCase(ctx, 'case.item_added', row, item.record)
  return added
}

/** DELETE /cases/{caseId}/items/{itemId}: the record itself is kept. Emits case.item_removed. */
export function removeItem(ctx: RequestContext, row: CaseRow, item: CaseItemRow): void {
  ctx.team.cases.update(row, { items: row.items.filter((kept) => kept !== item), updated_at: ctx.clock.timestamp() })
  publishCase(ctx, 'case.item_removed', row, item.record)
}

/**
 * Sets a case's assignees (outside the API: docs/specification-notes.md "Cases"; used by the control API and the
 * seed). Assignees named again keep their assignee id; the others go. A user who is not a current
 * member of the team is a 422 keyed `<key>.<index>` and nothing changes. Returns only those added.
 */
export function setCaseAssignees(ctx: TeamContext, row: CaseRow, userIds: readonly number[], key = 'assignees'): AssigneeRow[] {
  const errors: ValidationErrors = {}
  userIds.forEach((user, index) => {
    if (!ctx.team.member(user)) errors[`${key}.${index}`] = ['The selected team member is invalid.']
  })
  if (Object.keys(errors).length > 0) throw invalid(errors)
  const users = [...new Set(userIds)]
  const kept = row.assignees.filter((assignee) => users.includes(assignee.user))
  const at = ctx.clock.timestamp()
  const added = users
    .filter((user) => !kept.some((assignee) => assignee.user === user))
    .map((user) => ({ id: ctx.store.nextId('assignee'), user, created_at: at }))
  ctx.team.cases.update(row, { assignees: [...kept, ...added] })
  return added
}
