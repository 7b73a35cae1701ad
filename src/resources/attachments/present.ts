import type { AttachmentJson } from '../../contracts/generated.ts'
import type { AttachmentRow } from './rows.ts'

export function presentAttachment(attachment: AttachmentRow): AttachmentJson {
  return {
    object: 'attachment' as const,
    id: attachment.id,
    name: attachment.name,
    original: attachment.original,
    type: attachment.type,
    size: attachment.size,
    av_status: attachment.av_status,
    created_at: attachment.created_at,
    updated_at: attachment.updated_at,
  }
}
