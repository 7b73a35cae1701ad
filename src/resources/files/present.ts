import type { RequestContext } from '../../context.ts'
import type { ClientDocumentJson, FileJson } from '../../contracts/generated.ts'
import type { Expand } from '../../kernel/expand.ts'
import { canWrite } from '../../kernel/roles.ts'
import { presentAttachment } from '../attachments/index.ts'
import { presentClient } from '../clients/index.ts'
import { presentMember } from '../team/index.ts'
import type { ClientDocumentRow, FileRow } from './rows.ts'

type SourceRef = FileRow['source']

/**
 * How a source owned by a resource above files (a check, a record document, a form) shows with
 * expand=source; undefined once it no longer exists. Those resources add their files through this
 * one, so they give their presenters (checks/, record-documents/, forms/) and app.ts passes them in.
 */
export type FileSourcePresenter = (ctx: RequestContext, source: SourceRef, baseUrl: string) => FileJson['source'] | undefined
export type FileSourcePresenters = Record<'check' | 'record_document' | 'form', FileSourcePresenter>

/** docs/specification-notes.md "Clients": a client document as the expanded source of its file. */
export function presentClientDocument(document: ClientDocumentRow): ClientDocumentJson {
  return {
    object: 'client_document' as const,
    id: document.id,
    client: document.client,
    name: document.name,
    config: { instructions: document.config.instructions },
    created_at: document.created_at,
    updated_at: document.updated_at,
  }
}

/** The source itself with expand=source (one level: its own expandables collapsed); {id, type} when it no longer exists. */
function expandSource(ctx: RequestContext, source: SourceRef, baseUrl: string, sources: FileSourcePresenters): FileJson['source'] {
  const { team } = ctx
  switch (source.type) {
    case 'check':
      return sources.check(ctx, source, baseUrl) ?? { id: source.id, type: source.type }
    case 'client': {
      const client = team.clients.get(source.id)
      if (client) return presentClient(ctx, client)
      break
    }
    case 'client_document': {
      const document = team.clientDocuments.get(source.id)
      if (document) return presentClientDocument(document)
      break
    }
    case 'record_document':
      return sources.record_document(ctx, source, baseUrl) ?? { id: source.id, type: source.type }
    case 'form':
    case 'client_form':
      return sources.form(ctx, source, baseUrl) ?? { id: source.id, type: source.type }
  }
  return { id: source.id, type: source.type }
}

/** The team member (someone who left included) or client who added the file, with expand=created_by. */
function expandCreatedBy(ctx: RequestContext, createdBy: FileRow['created_by']): FileJson['created_by'] {
  if (createdBy.type === 'team_member') {
    const member = ctx.team.membership(createdBy.id)
    const user = ctx.store.user(createdBy.id)
    if (member && user) return presentMember(member, user)
  } else {
    const client = ctx.team.clients.get(createdBy.id)
    if (client) return presentClient(ctx, client)
  }
  return { id: createdBy.id, type: createdBy.type }
}

/**
 * A file: object file in GET /files, client_file under a client. is_deletable says whether the
 * caller may delete it (the team's own uploads, never for a read-only member); redacted_at is its
 * attachment's (docs/specification-notes.md "Attachments and files").
 */
export function presentFile<O extends 'file' | 'client_file'>(ctx: RequestContext, file: FileRow, object: O, expand: Expand, baseUrl: string, sources: FileSourcePresenters) {
  const attachment = ctx.team.attachments.get(file.attachment)
  if (!attachment) throw new Error(`files: file ${file.id} has no attachment ${file.attachment}`)
  return {
    object,
    id: file.id,
    type: file.type,
    source: expand.has('source') ? expandSource(ctx, file.source, baseUrl, sources) : { id: file.source.id, type: file.source.type },
    name: file.name,
    attachment: presentAttachment(attachment),
    created_by: expand.has('created_by') ? expandCreatedBy(ctx, file.created_by) : { id: file.created_by.id, type: file.created_by.type },
    is_deletable: file.is_deletable && canWrite(ctx.member.role),
    expires_at: file.expires_at,
    created_at: file.created_at,
    updated_at: file.updated_at,
    redacted_at: attachment.redacted_at,
  }
}
