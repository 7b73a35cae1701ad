import type { RequestContext, TeamContext } from '../../context.ts'
import type { RecordJson, StepJson } from '../../contracts/generated.ts'
import type { Expand } from '../../kernel/expand.ts'
import { presentClient, presentName } from '../clients/index.ts'
import type { RecordRow, StepRow } from './rows.ts'
import { isOpen, recordStatus } from './status.ts'

/** Where the client does the steps: a page of the mock itself, outside the API. */
export function performUrl(baseUrl: string, record: RecordRow): string {
  return `${baseUrl.slice(0, baseUrl.indexOf('/', baseUrl.indexOf('//') + 2))}/perform/${record.perform_token}`
}

/** A step as a record embeds it: every expandable collapsed (expansion is one level: docs/specification-notes.md "Lists, pagination and expansion"). */
export function presentStep(step: StepRow): StepJson {
  return {
    object: 'step' as const,
    id: step.id,
    type: step.type,
    // As in the service's published examples, form steps show no preferences.
    ...(step.type !== 'form' && { preferences: step.preferences }),
    ...(step.check !== null && { check: step.check }),
    ...(step.document !== null && { document: step.document }),
    ...(step.form !== null && { form: step.form }),
    cost: step.cost,
    completed_at: step.completed_at,
    review: step.review,
  }
}

/** ctx: the caller's (the control API has none, and never expands the client). */
export function presentRecord(ctx: RequestContext | TeamContext, record: RecordRow, expand: Expand, baseUrl: string): RecordJson {
  const now = ctx.clock.timestamp()
  const client = expand.has('client') && 'member' in ctx ? ctx.team.clients.get(record.client) : undefined
  return {
    object: 'record' as const,
    id: record.id,
    status: recordStatus(ctx.team, record, now),
    perform_url: isOpen(record, now) ? performUrl(baseUrl, record) : (false as const),
    email: record.email,
    client: client ? presentClient(ctx as RequestContext, client) : record.client,
    name: presentName(record.name),
    reference: record.reference,
    // A record always has a step (the create body requires one).
    steps: record.steps.map(presentStep) as RecordJson['steps'],
    has_reminders: record.has_reminders,
    is_declaration_required: record.is_declaration_required,
    created_at: record.created_at,
    updated_at: record.updated_at,
    expired_at: record.expired_at,
    archived_at: record.archived_at,
    declaration_confirmed_at: record.declaration_confirmed_at,
  }
}
