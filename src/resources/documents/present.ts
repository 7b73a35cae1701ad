import type { DocumentJson, DocumentTemplateJson, EmailTemplateJson } from '../../contracts/generated.ts'
import type { TeamContext } from '../../context.ts'
import type { Expand } from '../../kernel/expand.ts'
import { presentAttachment } from '../attachments/index.ts'
import type { DocumentTemplateRow, EmailTemplateRow, LibraryDocumentRow, LibraryTemplateRow } from './rows.ts'

/** A library document: attachment is its id, the attachment itself with expand=attachment. */
export function presentLibraryDocument(ctx: TeamContext, document: LibraryDocumentRow, expand: Expand): DocumentJson {
  const attachment = expand.has('attachment') ? ctx.team.attachments.get(document.attachment) : undefined
  return {
    object: 'document' as const,
    id: document.id,
    name: document.name,
    description: document.description,
    is_enabled: document.is_enabled,
    attachment: attachment ? presentAttachment(attachment) : document.attachment,
    created_at: document.created_at,
    updated_at: document.updated_at,
  }
}

/** An email or document template: the same fields, each its own object name. */
function presentTemplate<O extends 'email_template' | 'document_template'>(object: O, template: LibraryTemplateRow) {
  return {
    object,
    id: template.id,
    name: template.name,
    description: template.description,
    content: template.content,
    is_enabled: template.is_enabled,
    created_at: template.created_at,
    updated_at: template.updated_at,
  }
}

export const presentEmailTemplate = (template: EmailTemplateRow): EmailTemplateJson => presentTemplate('email_template', template)

export const presentDocumentTemplate = (template: DocumentTemplateRow): DocumentTemplateJson => presentTemplate('document_template', template)
