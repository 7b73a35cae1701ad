import type { RequestContext } from '../../context.ts'
import type { AttachmentJson, RecordDocumentJson } from '../../contracts/generated.ts'
import { NO_EXPAND, type Expand } from '../../kernel/expand.ts'
import { presentAttachment } from '../attachments/index.ts'
import type { FileSourcePresenter } from '../files/index.ts'
import type { RecordDocumentRow } from './rows.ts'

type NonEmpty<T> = [T, ...T[]]

/**
 * null when the document has none yet (docs/specification-notes.md "Lists, pagination and expansion": an empty expandable is null, expanded or not);
 * attachment ids collapsed; the attachments themselves with expand=attachments.
 */
function presentAttachments(ctx: RequestContext, ids: readonly number[], expanded: boolean): NonEmpty<number> | NonEmpty<AttachmentJson> | null {
  const rows = ids.flatMap((id) => ctx.team.attachments.get(id) ?? [])
  if (rows.length === 0) return null
  return (expanded ? rows.map(presentAttachment) : rows.map((row) => row.id)) as NonEmpty<number> | NonEmpty<AttachmentJson>
}

/** A record document as the expanded source of a file (files/present.ts). */
export const recordDocumentAsFileSource: FileSourcePresenter = (ctx, source) => {
  const document = ctx.team.recordDocuments.get(source.id)
  return document && presentRecordDocument(ctx, document, NO_EXPAND)
}

export function presentRecordDocument(ctx: RequestContext, document: RecordDocumentRow, expand: Expand): RecordDocumentJson {
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
