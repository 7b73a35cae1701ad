// Form templates (docs/specification-notes.md "Forms and form templates"): forms
// built in the team's library, addressed by reference. The contract checks each field's shape; the
// rules that span fields (unique ids, the first field a section, what sections hold (sections nest), what show_if
// names, which document template a field names) are checked here, each keyed by the failing
// field's path like Laravel's (fields.3.label).
import type { RequestContext, TeamContext } from '../../context.ts'
import type { FormTemplateCreateJson, FormTemplateFieldInputJson, FormTemplatesListQuery, FormTemplateUpdateJson, RichTextJson } from '../../contracts/generated.ts'
import { assertValid, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { copyJson } from '../../kernel/frozen.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import type { FormTemplateRow, TemplateField } from './rows.ts'

/** Fields that take an answer (docs/specification-notes.md "Forms and form templates"): only they have validation, and only they can show or hide another. */
export const INPUT_TYPES: ReadonlySet<TemplateField['type']> = new Set(['text', 'textarea', 'radio', 'checkbox', 'document'])

/** 404 {"error": "Form template not found"} for a reference the team does not have (another team's included). */
export function getFormTemplate(ctx: TeamContext, reference: string): FormTemplateRow {
  const template = ctx.team.formTemplatesByReference.get(reference)
  if (!template) throw notFound('Form template')
  return template
}

/**
 * Who changes the library (the spec does not say): everyone who sees the whole team, since a
 * template is shared team configuration, as webhooks are. Assigned-only members read it and get
 * 403 on every write (read-only members on every write anyway).
 */
export const mayChangeLibrary = (ctx: RequestContext): boolean => !seesOnlyAssigned(ctx.member.role)

export const findFormTemplate = (ctx: RequestContext, params: { reference: string }): FormTemplateRow => getFormTemplate(ctx, params.reference)

/** GET /form-templates: in creation order; enabled filters like the other library lists. */
export function listFormTemplates(ctx: RequestContext, query: FormTemplatesListQuery): FormTemplateRow[] {
  const { enabled } = query
  return enabled === undefined ? [...ctx.team.formTemplates.all()] : ctx.team.formTemplates.filter((template) => template.is_enabled === enabled)
}

type Input = FormTemplateFieldInputJson

/** validation is null or ["required"] (docs/specification-notes.md "Forms and form templates"); [] and a missing one read as null. */
const validationOf = (input: Input): ['required'] | null => (input.validation?.length ? ['required'] : null)

/** show_if is null or a non-empty mapping of field ids to values; {} and a missing one read as null. */
const showIfOf = (input: Input): Readonly<Record<string, string>> | null => (input.show_if && Object.keys(input.show_if).length > 0 ? (input.show_if as Record<string, string>) : null)

/** A field as stored, with only what its type has (the contract checked the shape of each). */
function storedField(input: Input): TemplateField {
  const { id } = input
  // A copy: the row keeps nothing of the request's body. Its values are strings (the contract's).
  const given = showIfOf(input)
  const showIf = given && { ...given }
  switch (input.type) {
    case 'section':
      // A blank label arrives as null (input is trimmed, blanks become null): a section's label may be "".
      return { id, type: 'section', label: typeof input.label === 'string' ? input.label : '', fields: [...(input.fields ?? [])] }
    case 'heading':
      return { id, type: 'heading', label: input.label as string, show_if: showIf }
    case 'rich_text':
      return { id, type: 'rich_text', json_content: copyJson(input.json_content) as RichTextJson, show_if: showIf }
    case 'text':
    case 'textarea':
      return { id, type: input.type, label: input.label as string, validation: validationOf(input), show_if: showIf }
    case 'radio':
    case 'checkbox': {
      // The contract checked that a choice has at least two options.
      const label = input.label as { value: string; options: [string, string, ...string[]] }
      return { id, type: input.type, label: { value: label.value, options: [...label.options] }, validation: validationOf(input), show_if: showIf }
    }
    case 'document':
      return typeof input.template_id === 'number'
        ? { id, type: 'document', template_id: input.template_id, validation: validationOf(input), show_if: showIf }
        : { id, type: 'document', label: input.label as string, description: typeof input.description === 'string' ? input.description : null, validation: validationOf(input), show_if: showIf }
  }
}

/** The options a choice field offers, or undefined for a field without options. */
const optionsOf = (input: Input): readonly string[] | undefined =>
  input.type === 'radio' || input.type === 'checkbox' ? (input.label as { options: string[] }).options : undefined

/**
 * The rules across fields, each failing field named (fields.N...), and the fields kept: sections,
 * and the fields a section holds; the others are dropped (docs/specification-notes.md "Forms and form templates"). Sections nest (docs/specification-notes.md "Forms and form templates"): a
 * section may hold another, but not itself nor one that holds it, and no field is in two sections.
 */
function checkFields(ctx: TeamContext, inputs: readonly Input[]): { errors: ValidationErrors; kept: Input[] } {
  const errors: ValidationErrors = {}
  const fail = (key: string, message: string) => {
    const messages = (errors[key] ??= [])
    if (!messages.includes(message)) messages.push(message)
  }
  if (inputs[0]?.type !== 'section') fail('fields.0.type', 'The first field must be a section.')

  // Laravel's distinct rule names every field that shares its id, the first one too.
  const indexes = new Map<string, number[]>()
  inputs.forEach((input, index) => indexes.set(input.id, [...(indexes.get(input.id) ?? []), index]))
  for (const [, shared] of indexes) if (shared.length > 1) for (const index of shared) fail(`fields.${index}.id`, 'The id field has a duplicate value.')
  const byId = new Map([...indexes].map(([id, shared]) => [id, inputs[shared[0] as number] as Input]))

  // The section holding each field (the first that names it); the root section is held by none.
  const holder = new Map<string, string>()
  const root = inputs[0]?.type === 'section' ? inputs[0].id : undefined
  inputs.forEach((input, index) => {
    if (input.type !== 'section') return
    ;(input.fields ?? []).forEach((id, position) => {
      const key = `fields.${index}.fields.${position}`
      if (byId.get(id) === undefined || id === input.id || id === root) fail(key, 'The selected fields is invalid.')
      else if (holder.has(id)) fail(key, 'The fields field has a duplicate value.')
      else holder.set(id, input.id)
    })
  })
  // A section inside one it holds would never be reached: the entry closing the loop is refused.
  inputs.forEach((input, index) => {
    if (input.type !== 'section') return
    ;(input.fields ?? []).forEach((id, position) => {
      if (byId.get(id)?.type !== 'section' || holder.get(id) !== input.id) return
      let above = holder.get(input.id)
      for (let depth = 0; above !== undefined && depth < inputs.length; depth += 1) {
        if (above === id) {
          fail(`fields.${index}.fields.${position}`, 'The selected fields is invalid.')
          holder.delete(id)
          return
        }
        above = holder.get(above)
      }
    })
  })
  const kept = inputs.filter((input) => input.type === 'section' || holder.has(input.id))

  inputs.forEach((input, index) => {
    if (input.type === 'document' && typeof input.template_id === 'number' && !ctx.team.documentTemplates.get(input.template_id)) {
      fail(`fields.${index}.template_id`, 'The selected template id is invalid.')
    }
    // show_if names another kept field that takes an answer, with one of its options for a choice field.
    const showIf = input.type === 'section' ? null : showIfOf(input)
    for (const [id, value] of Object.entries(showIf ?? {})) {
      const target = byId.get(id)
      const options = target && optionsOf(target)
      const valid = target !== undefined && target !== input && INPUT_TYPES.has(target.type) && kept.includes(target) && (options === undefined || options.includes(value))
      if (!valid) fail(`fields.${index}.show_if`, 'The selected show if is invalid.')
    }
  })
  return { errors, kept }
}

/** The fields as stored: checked across fields (a 422 naming every failing field), those held by no section dropped, in the order given. */
export function templateFields(ctx: TeamContext, inputs: readonly Input[]): TemplateField[] {
  const { errors, kept } = checkFields(ctx, inputs)
  assertValid(errors)
  return kept.map(storedField)
}

/**
 * A create or update body beyond its contract: the rules across fields, once every field has
 * passed the schema (they read each field's shape). The gate merges them with the schema's errors.
 */
export function formTemplateErrors(ctx: TeamContext, input: FormTemplateUpdateJson, passed: (key: string) => boolean): ValidationErrors {
  return input.fields !== undefined && passed('fields') ? checkFields(ctx, input.fields).errors : {}
}

/** POST /form-templates: version 1, enabled unless said otherwise. */
export function createFormTemplate(ctx: RequestContext, input: FormTemplateCreateJson): FormTemplateRow {
  const fields = templateFields(ctx, input.fields)
  const now = ctx.clock.timestamp()
  return ctx.team.formTemplates.insert({
    id: ctx.store.nextId('form_template'),
    reference: ctx.random.uuid(),
    name: input.name,
    description: input.description ?? null,
    instructions: input.instructions ?? null,
    fields,
    version: 1,
    is_enabled: input.is_enabled ?? true,
    created_at: now,
    updated_at: now,
    archived_at: null,
  })
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** PATCH /form-templates/{reference}: what is given replaces what was; version rises by one when something changed. */
export function updateFormTemplate(ctx: RequestContext, template: FormTemplateRow, input: FormTemplateUpdateJson): FormTemplateRow {
  const next: Pick<FormTemplateRow, 'name' | 'description' | 'instructions' | 'fields' | 'is_enabled'> = {
    name: input.name ?? template.name,
    description: input.description !== undefined ? input.description : template.description,
    instructions: input.instructions !== undefined ? input.instructions : template.instructions,
    fields: input.fields !== undefined ? templateFields(ctx, input.fields) : template.fields,
    is_enabled: input.is_enabled ?? template.is_enabled,
  }
  const changed = (Object.keys(next) as Array<keyof typeof next>).filter((key) => !same(next[key], template[key]))
  if (changed.length === 0) return template
  return ctx.team.formTemplates.update(template, { ...next, version: template.version + 1, updated_at: ctx.clock.timestamp() })
}

/** DELETE /form-templates/{reference}: forms made from it keep their copy of its fields. */
export function deleteFormTemplate(ctx: RequestContext, template: FormTemplateRow): void {
  ctx.team.formTemplates.delete(template.id)
}
