import type { RequestContext } from '../../context.ts'
import type { AttachmentJson } from '../../contracts/generated.ts'
import type { Expand } from '../../kernel/expand.ts'
import type { RecordDocumentRow } from '../records/index.ts'

type NonEmpty<T> = [T, ...T[]]

/**
 * With expand=attachments, the attachment objects. Attachments have no table yet (a later issue):
 * until then no record document holds any, and this is the one place their presenter plugs in
 * (ids stay ids meanwhile, which the contract allows).
 */
function expandAttachments(_ctx: RequestContext, ids: NonEmpty<number>): NonEmpty<number> | NonEmpty<AttachmentJson> {
  return ids
}

/** null when the document has none yet; attachment ids collapsed; the attachments with expand=attachments. */
function presentAttachments(ctx: RequestContext, ids: readonly number[], expanded: boolean) {
  if (ids.length === 0) return null
  const nonEmpty = [...ids] as NonEmpty<number>
  return expanded ? expandAttachments(ctx, nonEmpty) : nonEmpty
}

export function presentRecordDocument(ctx: RequestContext, document: RecordDocumentRow, expand: Expand) {
  return {
    object: 'record_document' as const,
    id: document.id,
    type: document.type,
    name: document.name,
    status: document.status,
    config: document.config && { ...document.config },
    source: { type: document.source.type, id: document.source.id },
    attachments: presentAttachments(ctx, document.attachments, expand.has('attachments')),
    created_at: document.created_at,
    updated_at: document.updated_at,
    completed_at: document.completed_at,
  }
}
