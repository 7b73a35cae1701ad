// A new record (POST /records, and the seed): composed from its client, its template or steps, the
// team's credits, its checks, forms and documents, and its jobs on the clock. It sits above records/
// and everything a record is made of, so records/ itself (rows, status, events, lookups, changes)
// needs none of them.
import { canSee, emit, type RequestContext, type TeamContext } from '../../context.ts'
import type { RecordCreateJson, StepTypeJson } from '../../contracts/generated.ts'
import { toTimestamp } from '../../kernel/clock.ts'
import { assertValid, everyKeyPassed, invalidBody, type ValidationErrors } from '../../kernel/errors.ts'
import { assignCreator, type AssigneeRow } from '../assignees/index.ts'
import type { ClientRow } from '../clients/index.ts'
import { createRecordForms, publishFormsSent } from '../forms/index.ts'
import { createRecordDocuments } from '../record-documents/index.ts'
import { publishRecord, scheduleExpiry, scheduleReminders, type RecordRow, type StepRow } from '../records/index.ts'
import { type CheckRow } from '../checks/index.ts'
import { type RecordTemplateRow } from '../templates/index.ts'
import { prepareSteps, stepErrors, type PreparedStep } from '../steps/index.ts'
import type { Draft } from '../../store/table.ts'

const DAY = 86_400_000

/** A client of the team the caller can see (what the client key of a create may name). */
function visibleClient(ctx: RequestContext, id: number): ClientRow | undefined {
  const client = ctx.team.clients.get(id)
  return client && canSee(ctx, client) ? client : undefined
}

function enabledTemplate(ctx: RequestContext, id: number): RecordTemplateRow | undefined {
  const template = ctx.team.recordTemplates.get(id)
  return template?.is_enabled ? template : undefined
}

/**
 * The rules of POST /records its contract cannot state, every failing key at once: the client and
 * template exist (Laravel's exists rule), the steps' library references, the declaration feature.
 * The gate merges them with the schema's errors; `passed` says which keys the schema let through.
 */
export function recordCreateErrors(ctx: RequestContext, input: RecordCreateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  const errors: ValidationErrors = {}
  if (passed('client') && !visibleClient(ctx, input.client)) errors.client = ['The selected client is invalid.']
  if (input.template !== undefined) {
    if (passed('template') && !enabledTemplate(ctx, input.template)) errors.template = ['The selected template is invalid.']
  } else if (Array.isArray(input.steps)) {
    Object.assign(errors, stepErrors(ctx, input.steps, 'steps', passed))
  }
  if (input.is_declaration_required === true && passed('is_declaration_required') && !ctx.team.row.declaration_enabled) {
    errors.is_declaration_required = ['The custom declaration feature is not enabled for your team.']
  }
  return errors
}

export function creditBalance(ctx: TeamContext): number {
  return ctx.team.creditBalance.total
}

/** What a paid check is called in the credits ledger, by the contract's step type. */
const STEP_LABELS: Partial<Record<StepTypeJson, string>> = {
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

/** The record's steps as stored, with a check per check step; debits each paid step (docs/specification-notes.md "Records and steps"). */
function buildSteps(ctx: TeamContext, record: Draft<RecordRow>, prepared: readonly PreparedStep[], now: string): Array<Draft<StepRow>> {
  return prepared.map((input) => {
    const step: Draft<StepRow> = {
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
 * POST /records (rules 3, 4 and 7 of docs/specification-notes.md "Rules of the service"): a request to the client, with its steps and checks, paid
 * for up front. Nothing is created or debited when the team lacks the credits.
 */
export function createRecord(ctx: RequestContext, input: RecordCreateJson): RecordRow {
  assertValid(recordCreateErrors(ctx, input))
  const client = visibleClient(ctx, input.client) as ClientRow
  const template = input.template === undefined ? undefined : enabledTemplate(ctx, input.template)
  const stepInputs = template ? template.steps : (input.steps ?? [])
  const prepared = prepareSteps(ctx, stepInputs, template ? 'template' : 'steps')
  const declaration = input.is_declaration_required ?? template?.is_declaration_required ?? false
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
  const record: Draft<RecordRow> = {
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
    expired_at: toTimestamp(new Date(ctx.clock.nowMs() + ctx.behaviour.recordExpiryDays * DAY)),
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
