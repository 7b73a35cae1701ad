import { canSee, emit, visibleRow, type RequestContext, type TeamContext } from '../../context.ts'
import type { RecordCreateJson, RecordsListQuery, RecordUpdateJson } from '../../contracts/generated.ts'
import { toTimestamp } from '../../kernel/clock.ts'
import { invalid, invalidBody } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { sortRows, type SortAccessors } from '../../kernel/sort.ts'
import { hasVisibility } from '../../kernel/visibility.ts'
import { scheduleExpiry, scheduleReminders, stopReminders } from '../../lifecycle/schedule.ts'
import { assignCreator } from '../assignees/index.ts'
import type { ClientRow } from '../clients/index.ts'
import { createRecordForms, publishFormsSent } from '../forms/index.ts'
import { createRecordDocuments } from '../record-documents/index.ts'
import { prepareSteps, type PreparedStep } from '../steps/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'
import { publishRecord, recordChanged } from './events.ts'
import type { CheckRow, RecordRow, RecordTemplateRow, StepRow } from './rows.ts'
import { isExpired, recordStatus } from './status.ts'

const DAY = 86_400_000

/** The caller's record: 404 Record not found, 403 for an assigned-only member not assigned to it. */
export function getRecord(ctx: RequestContext, id: number): RecordRow {
  return visibleRow(ctx, ctx.team.records, id, 'Record')
}

/** The record a path names ({id} or {recordId}), for an operation's find. */
export const findRecord = (ctx: RequestContext, params: { id: number } | { recordId: number }): RecordRow =>
  getRecord(ctx, 'id' in params ? params.id : params.recordId)

/** Sorting by the client's name uses the client's current name (the record keeps a snapshot). */
function sortAccessors(ctx: RequestContext): SortAccessors<RecordRow> {
  const clientName = (record: RecordRow) => ctx.team.clients.get(record.client)?.name ?? record.name
  return {
    'client.name.first_name': (record) => clientName(record).first_name,
    'client.name.last_name': (record) => clientName(record).last_name,
    created_at: (record) => record.created_at,
    updated_at: (record) => record.updated_at,
    archived_at: (record) => record.archived_at,
  }
}

export function listRecords(ctx: RequestContext, query: RecordsListQuery, rows: readonly RecordRow[] = ctx.team.records.all()): RecordRow[] {
  const { status, visibility, assignee, client_visibility: clientVisibility } = query
  // created_by replaces the deprecated creator; when both are given, created_by wins.
  const createdBy = query.created_by ?? query.creator
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  const now = ctx.clock.timestamp()
  const records = rows.filter(
    (record) =>
      (!onlyAssigned || canSee(ctx, record)) &&
      hasVisibility(visibility, record.archived_at) &&
      (createdBy === undefined || record.created_by === createdBy) &&
      (assignee === undefined ||
        (typeof assignee === 'boolean' ? record.assignees.length > 0 === assignee : record.assignees.some((row) => row.user === assignee))) &&
      (clientVisibility === undefined || hasVisibility(clientVisibility, ctx.team.clients.get(record.client)?.archived_at)) &&
      (status === undefined || recordStatus(ctx.team, record, now) === status),
  )
  return sortRows(records, sortAccessors(ctx), query)
}

/** A client of the team the caller can see, or the 422 Laravel's exists rule gives. */
function clientFor(ctx: RequestContext, id: number): ClientRow {
  const client = ctx.team.clients.get(id)
  if (!client || !canSee(ctx, client)) throw invalid({ client: ['The selected client is invalid.'] })
  return client
}

function templateFor(ctx: RequestContext, id: number): RecordTemplateRow {
  const template = ctx.team.recordTemplates.get(id)
  if (!template || !template.is_enabled) throw invalid({ template: ['The selected template is invalid.'] })
  return template
}

export function creditBalance(ctx: TeamContext): number {
  let balance = 0
  for (const entry of ctx.team.credits) balance += entry.credits
  return balance
}

const STEP_LABELS: Record<string, string> = {
  'check.credit': 'Credit check',
  'check.criminal_record': 'Criminal record check',
  'check.dummy': 'Dummy check',
  'check.hscni_access_ni': 'AccessNI check',
  'check.identity': 'Identity check',
  'check.nhs_esr': 'NHS ESR check',
  'check.banking_information': 'Banking information check',
  'check.photo_id': 'Photo ID check',
  'check.employment_referencing': 'Employment referencing',
  'check.reference': 'Reference check',
  'check.thorntons_onboarding': 'Onboarding check',
  'check.video': 'Video check',
  'check.watchlist': 'Watchlist check',
}

/** The record's steps as stored, with a check per check step; debits each paid step (FACTS.md). */
function buildSteps(ctx: TeamContext, record: RecordRow, prepared: readonly PreparedStep[], now: string): StepRow[] {
  return prepared.map((input) => {
    const step: StepRow = {
      id: ctx.store.nextId('step'),
      type: input.type,
      preferences: input.preferences,
      cost: input.cost,
      completed_at: null,
      check: null,
      document: null,
      form: null,
      review: null,
    }
    if (input.type.startsWith('check.')) {
      const check: CheckRow = {
        id: ctx.store.nextId('check'),
        record: record.id,
        step: step.id,
        type: input.type.slice('check.'.length),
        status: 'pending',
        outcome: null,
        response: null,
        allow_replay: input.preferences.replay === true,
        allow_cancel: input.preferences.cancel === true,
        requires_consent: input.type === 'check.credit' || input.type === 'check.criminal_record',
        submitted_at: null,
        created_at: now,
        updated_at: now,
      }
      ctx.team.checks.insert(check)
      step.check = check.id
      if (input.cost > 0) {
        ctx.team.credits.insert({
          id: ctx.store.nextId('credit'),
          credits: -input.cost,
          reason: `${STEP_LABELS[input.type] ?? input.type} for record ${record.id}`,
          causer: { id: check.id, type: 'check' },
          created_at: now,
        })
      }
    }
    return step
  })
}

/**
 * POST /records (spec rules 3, 4, 7): a request to the client, with its steps and checks, paid
 * for up front. Nothing is created or debited when the team lacks the credits.
 */
export function createRecord(ctx: RequestContext, input: RecordCreateJson): RecordRow {
  const client = clientFor(ctx, input.client)
  const template = input.template === undefined ? undefined : templateFor(ctx, input.template)
  const stepInputs = template ? template.steps : (input.steps ?? [])
  const prepared = prepareSteps(ctx, stepInputs, template ? 'template' : 'steps')
  const declaration = input.is_declaration_required ?? template?.is_declaration_required ?? false
  if (input.is_declaration_required === true && !ctx.team.row.declaration_enabled) {
    throw invalid({ is_declaration_required: ['The custom declaration feature is not enabled for your team.'] })
  }
  const cost = prepared.reduce((sum, step) => sum + step.cost, 0)
  const balance = creditBalance(ctx)
  if (cost > balance) throw invalidBody(`Not enough credits: these steps cost ${cost} and the team has ${balance}.`)

  const now = ctx.clock.timestamp()
  const assignees: AssigneeRow[] = assignCreator(ctx, now)
  if (template && input.assignees !== false) {
    for (const user of template.assignees) {
      if (ctx.team.member(user) && !assignees.some((row) => row.user === user)) {
        assignees.push({ id: ctx.store.nextId('assignee'), user, created_at: now })
      }
    }
  }
  const notification = template ? template.notification : (input.notification as 'email' | false)
  const record: RecordRow = {
    id: ctx.store.nextId('record'),
    client: client.id,
    created_by: ctx.user.id,
    email: client.email,
    name: { ...client.name },
    reference: client.reference,
    template: template?.id ?? null,
    notification,
    message: input.message !== undefined ? input.message : (template?.message ?? null),
    has_reminders: input.reminder ?? template?.reminder ?? false,
    is_declaration_required: declaration && ctx.team.row.declaration_enabled,
    steps: [],
    assignees,
    perform_token: ctx.random.hex(40),
    reviewed_at: null,
    emails: notification === 'email' ? [{ kind: 'new_request', sent_at: now }] : [],
    created_at: now,
    updated_at: now,
    expired_at: toTimestamp(new Date(ctx.clock.now().getTime() + ctx.behaviour.recordExpiryDays * DAY)),
    archived_at: null,
    declaration_confirmed_at: null,
    finished_at: null,
  }
  record.steps = buildSteps(ctx, record, prepared, now)
  const documents = new Map(prepared.flatMap((step, index) => (step.document ? [[(record.steps[index] as StepRow).id, step.document] as const] : [])))
  createRecordDocuments(ctx, record, documents)
  createRecordForms(ctx, record)
  ctx.team.records.insert(record)
  scheduleExpiry(ctx, record)
  if (record.has_reminders) scheduleReminders(ctx, record)
  publishRecord(ctx, 'record.created', record)
  publishFormsSent(ctx, record)
  emit(ctx, 'client.record', { client: client.id, record: record.id })
  return record
}

/** FACTS.md: an expired_at date-time lies within 10 days from now. */
const EXPIRY_WINDOW_DAYS = 10

function expiryFrom(ctx: TeamContext, value: string | boolean): string {
  const now = ctx.clock.now().getTime()
  if (value === true) return toTimestamp(new Date(now))
  if (value === false) return toTimestamp(new Date(now + ctx.behaviour.recordExpiryDays * DAY))
  const moment = Date.parse(value)
  const latest = now + EXPIRY_WINDOW_DAYS * DAY
  if (moment < now) throw invalid({ expired_at: [`The expired at field must be a date after or equal to ${toTimestamp(new Date(now))}.`] })
  if (moment > latest) throw invalid({ expired_at: [`The expired at field must be a date before or equal to ${toTimestamp(new Date(latest))}.`] })
  return toTimestamp(new Date(moment))
}

/** Moves the expiry (and its job); reminders stop once the record has expired. */
export function setExpiry(ctx: TeamContext, record: RecordRow, expiredAt: string): void {
  record.expired_at = expiredAt
  scheduleExpiry(ctx, record)
  if (isExpired(record, ctx.clock.timestamp())) stopReminders(ctx, record)
  else if (record.has_reminders) scheduleReminders(ctx, record)
}

/**
 * PATCH /records/{id}. Each change publishes record.updated once; is_reviewed also
 * record.reviewed / record.unreviewed, and an expiry record.finished when steps were left.
 */
export function updateRecord(ctx: RequestContext, record: RecordRow, input: RecordUpdateJson): RecordRow {
  const now = ctx.clock.timestamp()
  const expiredAt = input.expired_at === undefined ? undefined : expiryFrom(ctx, input.expired_at)
  let changed = false
  let review: 'record.reviewed' | 'record.unreviewed' | undefined
  if (input.is_archived !== undefined && input.is_archived !== (record.archived_at !== null)) {
    record.archived_at = input.is_archived ? now : null
    if (input.is_archived) stopReminders(ctx, record)
    else if (record.has_reminders) scheduleReminders(ctx, record)
    changed = true
  }
  if (input.is_reviewed !== undefined && input.is_reviewed !== (record.reviewed_at !== null)) {
    record.reviewed_at = input.is_reviewed ? now : null
    review = input.is_reviewed ? 'record.reviewed' : 'record.unreviewed'
    changed = true
  }
  if (input.has_reminders !== undefined && input.has_reminders !== record.has_reminders) {
    record.has_reminders = input.has_reminders
    if (input.has_reminders) scheduleReminders(ctx, record)
    else stopReminders(ctx, record)
    changed = true
  }
  if (expiredAt !== undefined && expiredAt !== record.expired_at) {
    setExpiry(ctx, record, expiredAt)
    changed = true
  }
  if (changed) recordChanged(ctx, record)
  if (review) publishRecord(ctx, review, record)
  return record
}

/** Deprecated POST /records/{id}/archive: archiving an archived record changes nothing. */
export function archiveRecord(ctx: RequestContext, record: RecordRow): RecordRow {
  return record.archived_at === null ? updateRecord(ctx, record, { is_archived: true }) : record
}

/** POST /records/{id}/expire: expired_at becomes now; a record already expired is a 422. */
export function expireRecord(ctx: RequestContext, record: RecordRow): RecordRow {
  if (isExpired(record, ctx.clock.timestamp())) throw invalidBody('The record has already expired.')
  setExpiry(ctx, record, ctx.clock.timestamp())
  recordChanged(ctx, record)
  return record
}

