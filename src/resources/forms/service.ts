// Forms (docs/specification-notes.md "Forms and form templates"): a client's copy of a form template with
// its answers. A record's form step makes a requested form when the record is created, and the
// client fills it in when they submit the step (the lifecycle engine calls submitForm); the seed
// gives some clients internal forms the team filled in. Listing and reading are in routes.ts.
import { emit, type RequestContext, type TeamContext } from '../../context.ts'
import type { FormsListQuery } from '../../contracts/generated.ts'
import { assertValid, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { inListOrder, type ListedRows } from '../../kernel/pagination.ts'
import { sortRows } from '../../kernel/sort.ts'
import type { Draft } from '../../store/table.ts'
import { sampleAttachment } from '../attachments/index.ts'
import { getClient, type ClientRow } from '../clients/index.ts'
import { addFile } from '../files/index.ts'
import { INPUT_TYPES, type FormTemplateRow, type TemplateField } from '../form-templates/index.ts'
import type { RecordRow, StepRow } from '../records/index.ts'
import { chance, checkboxAnswer, documentSample, radioAnswer, textAnswer, textareaAnswer, type AnswerContext } from './answers.ts'
import type { AnswerField, FormField, FormRow } from './rows.ts'
import { plainText } from './text.ts'

export const isAnswerField = (field: FormField): field is AnswerField => INPUT_TYPES.has(field.type)

/**
 * A template's fields as a form's: input fields get flag false and no answer yet. Each field is a
 * new object (a form's answers are its own); what it holds (labels, options, rich text) is shared
 * with the template, as neither ever changes it in place: a template's update stores new fields.
 * Object.assign, not a spread: a spread's copy gets a hidden class of its own once its answer is
 * set (V8), about 250 bytes a field, where assigned copies share one per field shape.
 */
function formFields(fields: readonly TemplateField[]): FormField[] {
  return fields.map((field) => (INPUT_TYPES.has(field.type) ? Object.assign({}, field, { flag: false, value: null }) : Object.assign({}, field)) as FormField)
}

export interface NewForm {
  type: FormRow['type']
  record: number | null
  step: number | null
}

/** A form made from a template now: its name, description and version, instructions as plain text, fields unanswered. */
export function createForm(ctx: TeamContext, template: FormTemplateRow, client: number, made: NewForm): FormRow {
  const now = ctx.clock.timestamp()
  return ctx.team.forms.insert({
    id: ctx.store.nextId('form'),
    reference: ctx.random.uuid(),
    ...made,
    client,
    template: template.reference,
    name: template.name,
    description: template.description,
    instructions: plainText(template.instructions),
    fields: formFields(template.fields),
    version: template.version,
    created_at: now,
    updated_at: now,
    completed_at: null,
    archived_at: null,
  })
}

/**
 * The requested forms of a record being made (not in its table yet): one per form step, from the
 * template its preferences name (prepareSteps made sure the team has it); each step's form is set
 * to the form's reference. Steps that have their form already are left alone. Publishes nothing:
 * see publishFormsSent.
 */
export function createRecordForms(ctx: TeamContext, record: Draft<RecordRow>): FormRow[] {
  const made: FormRow[] = []
  for (const step of record.steps) {
    if (step.type !== 'form' || step.form !== null) continue
    const template = ctx.team.formTemplatesByReference.get(String(step.preferences.form))
    if (!template) continue
    const form = createForm(ctx, template, record.client, { type: 'requested', record: record.id, step: step.id })
    step.form = form.reference
    made.push(form)
  }
  return made
}

/** A form event (docs/specification-notes.md "Events"): data.form and data.client, and data.record for a record's form. */
function publishForm(ctx: TeamContext, type: string, form: FormRow): void {
  emit(ctx, type, form.record === null ? { form: form.reference, client: form.client } : { form: form.reference, client: form.client, record: form.record })
}

/** form.sent for each form step of a new record, after record.created (docs/specification-notes.md "Events"). */
export function publishFormsSent(ctx: TeamContext, record: RecordRow): void {
  for (const step of record.steps) {
    const form = step.form === null ? undefined : ctx.team.formsByReference.get(step.form)
    if (form) publishForm(ctx, 'form.sent', form)
  }
}

/** Who fills a form in: the client (a requested form) or a team member (an internal one). */
export interface Filler {
  created_by: { type: 'client' | 'team_member'; id: number }
}

/** Whether a field's show_if holds for the answers (a choice among a checkbox's ticks counts). */
export function shown(field: FormField, answerOf: (id: string) => unknown): boolean {
  if (field.type === 'section' || field.show_if === null) return true
  return Object.entries(field.show_if).every(([id, wanted]) => {
    const answer = answerOf(id)
    return Array.isArray(answer) ? answer.includes(wanted) : answer === wanted
  })
}

/**
 * Fills in every field the form shows with a plausible answer (answers.ts): required ones always,
 * the others mostly; a field its show_if hides stays null. A document field gets a sample upload,
 * which becomes a file of the client (source form for a record's form, client_form for an internal
 * one). Answers are worked out in the order show_if needs them.
 */
function fillIn(ctx: TeamContext, form: FormRow, client: ClientRow, filler: Filler): Map<string, unknown> {
  const context: AnswerContext = { client, random: ctx.random, now: ctx.clock.now() }
  const byId = new Map(form.fields.map((field) => [field.id, field]))
  const values = new Map<string, unknown>()
  const settled = new Set<string>()
  const valueOf = (field: AnswerField): unknown => (values.has(field.id) ? values.get(field.id) : field.value)
  const answerOf = (id: string): unknown => {
    const field = byId.get(id)
    if (!field || !isAnswerField(field)) return null
    // A show_if loop (the builder refuses none) leaves the fields in it unanswered.
    if (settled.has(id)) return valueOf(field)
    settled.add(id)
    if (shown(field, answerOf) && (field.validation !== null || chance(ctx.random, 80))) values.set(id, answer(ctx, form, field, context, filler))
    return valueOf(field)
  }
  for (const field of form.fields) answerOf(field.id)
  return values
}

/** What a document field asks for: its label, or the name of the document template it names. */
export function documentName(ctx: TeamContext, field: Extract<AnswerField, { type: 'document' }>): string {
  return 'template_id' in field ? (ctx.team.documentTemplates.get(field.template_id)?.name ?? 'Document') : field.label
}

function answer(ctx: TeamContext, form: FormRow, field: AnswerField, context: AnswerContext, filler: Filler): AnswerField['value'] {
  switch (field.type) {
    case 'text':
      return textAnswer(field.label, context)
    case 'textarea':
      return textareaAnswer(field.label, context)
    case 'radio':
      return radioAnswer(field.label.options, ctx.random)
    case 'checkbox':
      return checkboxAnswer(field.label.options, ctx.random)
    case 'document': {
      const attachment = sampleAttachment(ctx, documentSample(documentName(ctx, field)))
      fileUpload(ctx, form, field, attachment.id, filler)
      return [attachment.id]
    }
  }
}

/** An upload for a document field becomes a file of the client (source form for a record's form, client_form for an internal one). */
function fileUpload(ctx: TeamContext, form: FormRow, field: Extract<AnswerField, { type: 'document' }>, attachment: number, filler: Filler): void {
  addFile(ctx, {
    client: form.client,
    type: filler.created_by.type === 'client' ? 'received' : 'internal',
    source: { type: form.type === 'requested' ? 'form' : 'client_form', id: form.id },
    source_subtype: null,
    name: documentName(ctx, field),
    attachment,
    created_by: filler.created_by,
  })
}

/**
 * A client's own answers to a form, by field id: the text of a text or textarea field, the option
 * chosen for a radio, the options ticked for a checkbox, the ids of the attachments uploaded for a
 * document field. A field left out is unanswered.
 */
export type FormAnswers = ReadonlyMap<string, string | readonly string[] | readonly number[]>

/** What a field asks, as the client reads it. */
export function question(ctx: TeamContext, field: AnswerField): string {
  if (field.type === 'document') return documentName(ctx, field)
  return typeof field.label === 'string' ? field.label : field.label.value
}

/** An answer as the form keeps it: trimmed text (blank is none), a known option, known options in their order, attachment ids; null for none. */
function normalisedAnswer(field: AnswerField, given: string | readonly string[] | readonly number[] | undefined): AnswerField['value'] {
  if (given === undefined) return null
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'radio': {
      const text = typeof given === 'string' ? given.trim() : ''
      return text === '' ? null : text
    }
    case 'checkbox': {
      const ticked = new Set<unknown>(typeof given === 'string' ? [given] : given)
      const options = field.label.options.filter((option) => ticked.has(option))
      return options.length > 0 ? (options) : null
    }
    case 'document': {
      const ids = typeof given === 'string' ? [] : given.filter((id): id is number => typeof id === 'number')
      return ids.length > 0 ? ids : null
    }
  }
}

/**
 * The answers the form would keep, and which fields it shows: a field shows when its show_if holds
 * for the answers kept (so a field hidden in turn hides those that depend on it); a shown field
 * keeps its normalised answer, a hidden one none.
 */
function keptAnswers(form: FormRow, answers: FormAnswers): { values: Map<string, AnswerField['value']>; shown: Set<string> } {
  const byId = new Map(form.fields.map((field) => [field.id, field]))
  const values = new Map<string, AnswerField['value']>()
  const visible = new Set<string>()
  const visiting = new Set<string>()
  const answerOf = (id: string): AnswerField['value'] => {
    const field = byId.get(id)
    if (!field || !isAnswerField(field)) return null
    if (values.has(id)) return values.get(id) ?? null
    // A show_if loop (the builder refuses none) leaves the fields in it unanswered.
    if (visiting.has(id)) return null
    visiting.add(id)
    const isShown = shown(field, answerOf)
    if (isShown) visible.add(id)
    const value = isShown ? normalisedAnswer(field, answers.get(id)) : null
    values.set(id, value)
    return value
  }
  for (const field of form.fields) answerOf(field.id)
  return { values, shown: visible }
}

/**
 * What is wrong with a client's answers, by field id: a radio or checkbox answer that is not one of
 * its options, a required field its show_if shows left unanswered. Hidden fields are not checked
 * (their answers are dropped).
 */
export function formAnswerErrors(ctx: TeamContext, form: FormRow, answers: FormAnswers): ValidationErrors {
  const errors: ValidationErrors = {}
  const kept = keptAnswers(form, answers)
  for (const field of form.fields) {
    if (!isAnswerField(field) || !kept.shown.has(field.id)) continue
    const given = answers.get(field.id)
    if ((field.type === 'radio' || field.type === 'checkbox') && given !== undefined) {
      const options = new Set<unknown>(field.label.options)
      const chosen = (typeof given === 'string' ? [given.trim()] : given).filter((option) => option !== '')
      if (chosen.some((option) => !options.has(option))) {
        errors[field.id] = [`The selected ${question(ctx, field)} is invalid.`]
        continue
      }
    }
    if ((kept.values.get(field.id) ?? null) === null && field.validation !== null) errors[field.id] = [`The ${question(ctx, field)} field is required.`]
  }
  return errors
}

/** Fills the form in with the client's answers (checked with formAnswerErrors); uploads become the client's files. */
function fillWith(ctx: TeamContext, form: FormRow, answers: FormAnswers, filler: Filler): Map<string, unknown> {
  assertValid(formAnswerErrors(ctx, form, answers))
  const kept = keptAnswers(form, answers).values
  const values = new Map<string, unknown>()
  for (const field of form.fields) {
    if (!isAnswerField(field)) continue
    const value = kept.get(field.id) ?? null
    values.set(field.id, value)
    if (field.type === 'document' && value !== null) for (const id of value as readonly unknown[]) fileUpload(ctx, form, field, Number(id), filler)
  }
  return values
}

/**
 * Fills the form in now (completed_at): with the given answers, or plausible ones. A form filled in
 * already is left as it is.
 */
export function completeForm(ctx: TeamContext, form: FormRow, filler: Filler, answers?: FormAnswers): FormRow {
  const client = ctx.team.clients.get(form.client)
  if (form.completed_at !== null || !client) return form
  const values = answers === undefined ? fillIn(ctx, form, client, filler) : fillWith(ctx, form, answers, filler)
  const now = ctx.clock.timestamp()
  // In place: each field keeps its object (and its shape), its answer set.
  return ctx.team.forms.update(form, (draft) => {
    for (const field of draft.fields) if (values.has(field.id)) (field as { value: unknown }).value = values.get(field.id)
    draft.completed_at = now
    draft.updated_at = now
  })
}

/**
 * The client submits a record's form step: the step's form is filled in (with their answers on the
 * perform page, plausible ones when the control API completes it), and form.submitted published.
 */
export function submitForm(ctx: TeamContext, record: RecordRow, step: StepRow, answers?: FormAnswers): void {
  const form = step.form === null ? undefined : ctx.team.formsByReference.get(step.form)
  if (!form || form.completed_at !== null) return
  completeForm(ctx, form, { created_by: { type: 'client', id: record.client } }, answers)
  publishForm(ctx, 'form.submitted', form)
}

const formSorts = { created_at: (form: FormRow) => form.created_at, updated_at: (form: FormRow) => form.updated_at }

/**
 * GET /forms: the type filter, sorted by created_at (default) or updated_at, ties by id. An
 * assigned-only member sees the forms of the clients they are assigned to (docs/specification-notes.md "Roles").
 */
export function listForms(ctx: RequestContext, query: FormsListQuery): ListedRows<FormRow> {
  const wanted = (form: FormRow) => query.type === undefined || form.type === query.type
  const onlyAssigned = seesOnlyAssigned(ctx.member.role)
  if (query.sort_by === 'created_at') {
    // By created_at, the index's order (the team's, or the assigned-only caller's part), which the type filter keeps.
    const byCreation = onlyAssigned ? ctx.team.formsByAssignee.get(ctx.user.id) : ctx.team.formsByCreation.rows()
    return inListOrder(query.type === undefined ? byCreation : byCreation.filter(wanted), query.order_by)
  }
  return sortRows((onlyAssigned ? ctx.team.formsByAssignee.get(ctx.user.id) : ctx.team.forms.all()).filter(wanted), formSorts, query)
}

/** GET /clients/{id}/forms: the client's forms in id order, by type. */
export function clientForms(ctx: RequestContext, client: ClientRow, type: FormRow['type'] | undefined): FormRow[] {
  return ctx.team.formsByClient.get(client.id).filter((form) => type === undefined || form.type === type)
}

/** The client's form a path names: 404 Client not found (403 when hidden), then 404 Form not found. */
export function findClientForm(ctx: RequestContext, params: { id: number; reference: string }): FormRow {
  const client = getClient(ctx, params.id)
  const form = ctx.team.formsByReference.get(params.reference)
  if (!form || form.client !== client.id) throw notFound('Form')
  return form
}
