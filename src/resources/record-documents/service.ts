// A record's documents (spec, Record document): one per document step, made with the record;
// a transfer that requires a return gets the client's returned document when they complete it.
// Record creation and the lifecycle engine call these; GET /records/{id}/documents lists them.
import type { TeamContext } from '../../context.ts'
import type { RecordDocumentRow, RecordRow, StepRow } from '../records/index.ts'

const DOCUMENT_STEPS: ReadonlySet<StepRow['type']> = new Set(['document.request', 'document.transfer'])

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** The transfer settings a document.transfer step returns (FACTS.md): the booleans default to false. */
function transferConfig(preferences: Record<string, unknown>) {
  return {
    require_return: preferences.require_return === true,
    require_confirmation: preferences.require_confirmation === true,
    instructions: text(preferences.instructions),
    return_message: text(preferences.return_message),
  }
}

/** What the step's preparation resolved for its document (name and attachments from the library or the request). */
export interface DocumentSource {
  name: string
  attachments: number[]
}

function documentFor(ctx: TeamContext, record: RecordRow, step: StepRow, now: string, source: DocumentSource | undefined): RecordDocumentRow {
  const { preferences } = step
  const common = {
    id: ctx.store.nextId('record_document'),
    record: record.id,
    status: 'pending' as const,
    source: { type: 'record' as const, id: record.id },
    attachments: [],
    created_at: now,
    updated_at: now,
    completed_at: null,
  }
  if (step.type === 'document.request') {
    // A request naming a template has had its title and instructions resolved from it by then.
    return { ...common, type: 'requested', name: source?.name ?? text(preferences.title) ?? 'Requested document', config: { instructions: text(preferences.instructions) ?? '' } }
  }
  // A transfer is {name, attachment} or {template} (FACTS.md): the team's file goes to the client.
  const attachment = preferences.attachment
  return {
    ...common,
    type: 'sent',
    name: source?.name ?? text(preferences.name) ?? 'Document',
    config: transferConfig(preferences),
    attachments: source ? [...source.attachments] : typeof attachment === 'number' ? [attachment] : [],
  }
}

/**
 * The record documents of a new record: for each document.request step a requested document
 * (config {instructions}), for each document.transfer step a sent document (config: the four
 * transfer settings), both pending; each step's document is set to it. Steps that have their
 * document already are left alone. Publishes nothing (record.created says it all).
 */
export function createRecordDocuments(ctx: TeamContext, record: RecordRow, sources: ReadonlyMap<number, DocumentSource> = new Map()): RecordDocumentRow[] {
  const now = ctx.clock.timestamp()
  const created: RecordDocumentRow[] = []
  for (const step of record.steps) {
    if (!DOCUMENT_STEPS.has(step.type) || step.document !== null) continue
    const document = ctx.team.recordDocuments.insert(documentFor(ctx, record, step, now, sources.get(step.id)))
    step.document = document.id
    created.push(document)
  }
  return created
}

/**
 * The client completes a document step: its document becomes complete (a requested document
 * holds the uploaded attachments); a transfer with require_return adds the client's returned
 * document (source: the sent document). Returns the documents changed or added. The caller marks
 * the step completed and publishes the record's change (recordChanged).
 */
export function completeRecordDocument(ctx: TeamContext, step: StepRow, attachments: readonly number[] = []): RecordDocumentRow[] {
  const document = step.document === null ? undefined : ctx.team.recordDocuments.get(step.document)
  if (!document) throw new Error(`record documents: step ${step.id} has no document`)
  const now = ctx.clock.timestamp()
  document.status = 'complete'
  document.completed_at = now
  document.updated_at = now
  if (document.type !== 'sent') {
    for (const id of attachments) if (!document.attachments.includes(id)) document.attachments.push(id)
    return [document]
  }
  if (document.config === null || !('require_return' in document.config) || !document.config.require_return) return [document]
  const returned = ctx.team.recordDocuments.insert({
    id: ctx.store.nextId('record_document'),
    record: document.record,
    type: 'returned',
    name: document.name,
    status: 'complete',
    config: null,
    source: { type: 'record_document', id: document.id },
    attachments: [...new Set(attachments)],
    created_at: now,
    updated_at: now,
    completed_at: now,
  })
  return [document, returned]
}

/** A record's documents in the order they were made (one per document step, returns after). */
export function documentsOf(ctx: TeamContext, record: RecordRow): readonly RecordDocumentRow[] {
  return ctx.team.documentsByRecord.get(record.id)
}
