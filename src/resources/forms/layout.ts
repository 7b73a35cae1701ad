// What a form's PDF (GET /clients/{id}/forms/{reference}/download) says, as blocks for the PDF
// renderer of record-download: the form and its client, then each section (nested ones in place) with the fields the
// form shows (show_if) and their answers; uploads by their file names. Pure (state and clock in).
import type { RequestContext } from '../../context.ts'
import { presentName } from '../clients/index.ts'
import type { Block } from '../record-download/index.ts'
import type { AnswerField, FormField, FormRow } from './rows.ts'
import { isAnswerField, question, shown } from './service.ts'
import { plainText } from './text.ts'

const NONE = '-'

const field = (label: string, value: string | number | null): Block => ({ kind: 'field', label, value: value === null ? NONE : String(value) })

function answerText(ctx: RequestContext, answer: AnswerField): string {
  const { value } = answer
  if (value === null) return 'Not answered'
  if (typeof value === 'string') return value
  if (answer.type === 'document') return value.map((id) => ctx.team.attachments.get(Number(id))?.original ?? `attachment ${id}`).join(', ')
  return value.join(', ')
}

function questionLine(ctx: RequestContext, answer: AnswerField): string {
  return `${question(ctx, answer)}${answer.validation === null ? '' : ' *'}${answer.flag ? ' (flagged)' : ''}`
}

function fieldBlocks(ctx: RequestContext, item: FormField): Block[] {
  if (isAnswerField(item)) return [{ kind: 'question', text: questionLine(ctx, item) }, { kind: 'text', text: answerText(ctx, item) }]
  if (item.type === 'heading') return [{ kind: 'step', text: item.label }]
  if (item.type === 'rich_text') return [{ kind: 'text', text: plainText(item.json_content) ?? '' }]
  return []
}

export function formSummary(ctx: RequestContext, form: FormRow): Block[] {
  const client = ctx.team.clients.get(form.client)
  const byId = new Map(form.fields.map((item) => [item.id, item]))
  const answerOf = (id: string) => {
    const item = byId.get(id)
    return item && isAnswerField(item) ? item.value : null
  }
  const blocks: Block[] = [
    { kind: 'title', text: form.name },
    { kind: 'subtitle', text: `${ctx.team.row.name}, as of ${ctx.clock.timestamp()}` },
    { kind: 'heading', text: 'Client' },
    field('Name', client ? presentName(client.name).complete_name : null),
    field('Email', client?.email ?? null),
    field('Client id', form.client),
    { kind: 'heading', text: 'Form' },
    field('Reference', form.reference),
    field('Type', form.type === 'internal' ? 'internal (completed by the team)' : 'requested (completed by the client)'),
    field('Record', form.record),
    field('Version', form.version),
    field('Created at', form.created_at),
    field('Completed at', form.completed_at ?? 'not completed'),
  ]
  if (form.description !== null) blocks.push(field('Description', form.description))
  if (form.instructions !== null) blocks.push({ kind: 'heading', text: 'Instructions' }, { kind: 'text', text: form.instructions })
  // Sections nest (docs/specification-notes.md "Forms and form templates"): a section another holds is laid out where it stands, under its own
  // heading when it has a label; the sections no section holds start each part.
  const held = new Set(form.fields.flatMap((item) => (item.type === 'section' ? item.fields : [])))
  const laidOut = new Set<string>()
  const layOut = (section: Extract<FormField, { type: 'section' }>, heading: string | undefined): void => {
    if (laidOut.has(section.id)) return
    laidOut.add(section.id)
    if (heading !== undefined) blocks.push({ kind: 'heading', text: heading })
    for (const id of section.fields) {
      const item = byId.get(id)
      if (item?.type === 'section') layOut(item, item.label === '' ? undefined : item.label)
      else if (item && shown(item, answerOf)) blocks.push(...fieldBlocks(ctx, item))
    }
  }
  // An unlabelled part gets a heading of its own unless it only holds sections, which have theirs.
  const partHeading = (section: Extract<FormField, { type: 'section' }>): string | undefined =>
    section.label !== '' ? section.label : section.fields.every((id) => byId.get(id)?.type === 'section') ? undefined : 'Questions'
  for (const section of form.fields) {
    if (section.type === 'section' && !held.has(section.id)) layOut(section, partHeading(section))
  }
  blocks.push({ kind: 'note', text: 'Fields marked * are required.' })
  return blocks
}
