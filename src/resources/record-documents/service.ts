// A record's documents (docs/specification-notes.md "Step reviews and record documents"): one per document step, made with the record;
// a transfer that requires a return gets the client's returned document when they complete it.
// Record creation and the lifecycle engine call these; GET /records/{id}/documents lists them.
// Every attachment a document holds is also a file of the client (src/resources/files), so the
// client's files show what was sent to them and what they gave back.
import type { TeamContext } from '../../context.ts'
import { addFile, type FileRow } from '../files/index.ts'
import type { RecordRow, StepRow } from '../records/index.ts'
import type { RecordDocumentRow } from './rows.ts'
import { clientUpload } from './uploads.ts'
import type { Draft } from '../../store/table.ts'

const DOCUMENT_STEPS: ReadonlySet<StepRow['type']> = new Set(['document.request', 'document.transfer'])

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** The transfer settings a document.transfer step returns (docs/specification-notes.md "Step types, preferences and costs"): the booleans default to false. */
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
  const id = ctx.store.nextId('record_document')
  // Each kind written out whole, its keys in one order: spreading a shared part into each cost a
  // fiftieth of making a large team.
  if (step.type === 'document.request') {
    // A request naming a template has had its title and instructions resolved from it by then.
    return {
      id,
      record: record.id,
      status: 'pending',
      source: { type: 'record', id: record.id },
      attachments: [],
      created_at: now,
      updated_at: now,
      completed_at: null,
      type: 'requested',
      name: source?.name ?? text(preferences.title) ?? 'Requested document',
      config: { instructions: text(preferences.instructions) ?? '' },
    }
  }
  // A transfer is {name, attachment} or {template} (docs/specification-notes.md "Step types, preferences and costs"): the team's file goes to the client.
  const attachment = preferences.attachment
  const attachments = source ? source.attachments : typeof attachment === 'number' ? [attachment] : []
  return {
    id,
    record: record.id,
    status: 'pending',
    source: { type: 'record', id: record.id },
    // Only what the team holds (a step validated on creation always names an attachment it has).
    attachments: attachments.filter((held) => ctx.team.attachments.get(held) !== undefined),
    created_at: now,
    updated_at: now,
    completed_at: null,
    type: 'sent',
    name: source?.name ?? text(preferences.name) ?? 'Document',
    config: transferConfig(preferences),
  }
}

/**
 * Who a document's files are created by: the client for what they gave back; for what was sent,
 * the record's creator (the team's owner for a record made without one).
 */
function fileCreator(ctx: TeamContext, record: RecordRow, document: RecordDocumentRow): FileRow['created_by'] | undefined {
  if (document.type !== 'sent') return { type: 'client', id: record.client }
  const sender = record.created_by ?? ctx.team.members.find((member) => member.role === 'owner')?.user
  return sender === undefined ? undefined : { type: 'team_member', id: sender }
}

/** A file of the client for each attachment of a document: sent by the team, or received from the client. */
function fileDocument(ctx: TeamContext, record: RecordRow, document: RecordDocumentRow, attachments: readonly number[]): void {
  const createdBy = fileCreator(ctx, record, document)
  if (!createdBy) return
  for (const attachment of attachments) {
    addFile(ctx, {
      client: record.client,
      type: document.type === 'sent' ? 'sent' : 'received',
      source: { type: 'record_document', id: document.id },
      source_subtype: document.type,
      name: document.name,
      attachment,
      created_by: createdBy,
    })
  }
}

/**
 * The record documents of a new record: for each document.request step a requested document
 * (config {instructions}), for each document.transfer step a sent document (config: the four
 * transfer settings) holding the attachment it sends, which becomes a sent file of the client
 * (created by the record's creator); both pending, each step's document set to it. Steps that
 * have their document already are left alone. Publishes nothing (record.created says it all).
 */
export function createRecordDocuments(ctx: TeamContext, record: Draft<RecordRow>, sources: ReadonlyMap<number, DocumentSource> = new Map()): RecordDocumentRow[] {
  const now = ctx.clock.timestamp()
  const created: RecordDocumentRow[] = []
  for (const step of record.steps) {
    if (!DOCUMENT_STEPS.has(step.type) || step.document !== null) continue
    const document = ctx.team.recordDocuments.insert(documentFor(ctx, record, step, now, sources.get(step.id)))
    step.document = document.id
    fileDocument(ctx, record, document, document.attachments)
    created.push(document)
  }
  return created
}

function requireAttachments(ctx: TeamContext, ids: readonly number[]): number[] {
  for (const id of ids) if (!ctx.team.attachments.get(id)) throw new Error(`record documents: team ${ctx.team.id} has no attachment ${id}`)
  return [...new Set(ids)]
}

/**
 * The client completes a document step: its document becomes complete. A requested document
 * holds what the client uploaded; a transfer with require_return adds the client's returned
 * document (source: the sent document) holding their copy. Each upload becomes a received file
 * of the client (source_subtype requested or returned). `uploads` are the attachments the client
 * gave; by default the simulated client uploads a sample file (clientUpload). Returns the
 * documents changed or added (the record follows them: records/tables.ts). The caller marks the
 * step completed and publishes record.updated.
 */
export function completeRecordDocument(ctx: TeamContext, record: RecordRow, step: StepRow, uploads?: readonly number[]): RecordDocumentRow[] {
  const document = step.document === null ? undefined : ctx.team.recordDocuments.get(step.document)
  if (!document) throw new Error(`record documents: step ${step.id} has no document`)
  const now = ctx.clock.timestamp()
  ctx.team.recordDocuments.update(document, { status: 'complete', completed_at: now, updated_at: now })
  const given = () => (uploads === undefined ? [clientUpload(ctx, document).id] : requireAttachments(ctx, uploads))
  if (document.type !== 'sent') {
    const added = given().filter((id) => !document.attachments.includes(id))
    ctx.team.recordDocuments.update(document, { attachments: [...document.attachments, ...added] })
    fileDocument(ctx, record, document, added)
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
    attachments: given(),
    created_at: now,
    updated_at: now,
    completed_at: now,
  })
  fileDocument(ctx, record, returned, returned.attachments)
  return [document, returned]
}

/** A record's documents in the order they were made (one per document step, returns after). */
export function documentsOf(ctx: TeamContext, record: RecordRow): readonly RecordDocumentRow[] {
  return ctx.team.documentsByRecord.get(record.id)
}
