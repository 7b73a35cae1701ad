// Files: a client's attachments with where they came from. The team's own uploads come through
// POST /clients/{id}/files (routes.ts); record documents, forms and checks add theirs here when an
// attachment becomes part of them, so GET /files and the client's files list show everything.
import type { RequestContext, TeamContext } from '../../context.ts'
import type { ClientsFilesListQuery, FileCreateJson, FilesListQuery } from '../../contracts/generated.ts'
import type { Binary } from '../../contracts/binary.ts'
import { toTimestamp } from '../../kernel/clock.ts'
import { assertValid, everyKeyPassed, forbidden, HttpError, invalid, notFound, type ValidationErrors } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import { matchesSearch, searchWords } from '../../kernel/search.ts'
import { inListOrder, type ListedRows } from '../../kernel/pagination.ts'
import { sortRows, type SortAccessors, type SortKey } from '../../kernel/sort.ts'
import { isAttachmentUsed, releaseAttachments, type AttachmentRow } from '../attachments/index.ts'
import { findClient, type ClientRow } from '../clients/index.ts'
import type { ClientDocumentRow, FileRow } from './rows.ts'

export type NewFile = Omit<FileRow, 'id' | 'created_at' | 'updated_at' | 'is_deletable' | 'expires_at'> &
  Partial<Pick<FileRow, 'is_deletable' | 'expires_at'>>

/** Adds a client file; only the team's own files (source client) are deletable by default. */
export function addFile(ctx: TeamContext, file: NewFile): FileRow {
  const now = ctx.clock.timestamp()
  return ctx.team.files.insert({
    id: ctx.store.nextId('file'),
    is_deletable: file.source.type === 'client',
    expires_at: null,
    ...file,
    created_at: now,
    updated_at: now,
  })
}

const sortAccessors: SortAccessors<FileRow, SortKey<FilesListQuery> | SortKey<ClientsFilesListQuery>> = {
  name: (file) => file.name,
  created_at: (file) => file.created_at,
  updated_at: (file) => file.updated_at,
  expires_at: (file) => file.expires_at,
}

/** GET /files: every client's files; an assigned-only member's, of the clients assigned to them (docs/specification-notes.md "Roles"). */
export function listFiles(ctx: RequestContext, query: FilesListQuery): ListedRows<FileRow> {
  // Stored in id order, as the assigned-only member's part is: the default sort is then the rows as they are.
  if (seesOnlyAssigned(ctx.member.role)) {
    const files = ctx.team.filesByAssignee.get(ctx.user.id)
    return (query.sort_by as string) === 'id' ? inListOrder(files, query.order_by) : sortRows(files, sortAccessors, query)
  }
  return (query.sort_by as string) === 'id' && ctx.team.filesInIdOrder.holds ? inListOrder(ctx.team.files.all(), query.order_by) : sortRows(ctx.team.files.all(), sortAccessors, query)
}

/** GET /clients/{id}/files: source_type narrows a source, so it requires one (a 422 keyed source, as Laravel's required_with). */
export function listClientFiles(ctx: RequestContext, client: ClientRow, query: ClientsFilesListQuery): FileRow[] {
  const { source, source_type: sourceType, search } = query
  if (sourceType !== undefined && source === undefined) throw invalid({ source: ['The source field is required when source type is present.'] })
  const words = search ? searchWords(search) : []
  const files = ctx.team.filesByClient
    .get(client.id)
    .filter(
      (file) =>
        (source === undefined || file.source.type === source) &&
        (sourceType === undefined || file.source_subtype === sourceType) &&
        (words.length === 0 || matchesSearch(words, [file.name])),
    )
  return sortRows(files, sortAccessors, query)
}

/** POST /clients/{id}/files beyond its contract (the gate merges these with the schema's errors): the attachment and template exist, the attachment unused. */
export function clientFileErrors(ctx: RequestContext, input: FileCreateJson, passed: (key: string) => boolean = everyKeyPassed): ValidationErrors {
  const errors: ValidationErrors = {}
  if (passed('attachment')) {
    const attachment = ctx.team.attachments.get(input.attachment)
    if (!attachment) errors.attachment = ['The selected attachment is invalid.']
    else if (isAttachmentUsed(ctx.team, attachment.id)) errors.attachment = ['The attachment has already been taken.']
  }
  if (input.template !== undefined && passed('template') && !ctx.team.documentTemplates.get(input.template)?.is_enabled) {
    errors.template = ['The selected template is invalid.']
  }
  return errors
}

/**
 * POST /clients/{id}/files (docs/specification-notes.md "Clients"): an attachment of the team that nothing holds yet
 * becomes an internal file of the client, added by the caller; with template (a document
 * template), a requested client document made from it is the file's source. 422 keyed attachment
 * for an unknown or used attachment, keyed template for an unknown or disabled template.
 */
export function createClientFile(ctx: RequestContext, client: ClientRow, input: FileCreateJson): FileRow {
  assertValid(clientFileErrors(ctx, input))
  const attachment = ctx.team.attachments.get(input.attachment) as AttachmentRow
  const template = input.template === undefined ? undefined : ctx.team.documentTemplates.get(input.template)
  const now = ctx.clock.timestamp()
  const document: ClientDocumentRow | undefined = template && {
    id: ctx.store.nextId('client_document'),
    client: client.id,
    template: template.id,
    name: template.name,
    config: { instructions: template.content },
    created_at: now,
    updated_at: now,
  }
  if (document) ctx.team.clientDocuments.insert(document)
  return addFile(ctx, {
    client: client.id,
    type: 'internal',
    source: document ? { type: 'client_document', id: document.id } : { type: 'client', id: client.id },
    source_subtype: document ? 'requested' : null,
    name: input.name ?? attachment.original,
    attachment: attachment.id,
    created_by: { type: 'team_member', id: ctx.user.id },
    is_deletable: true,
    expires_at: input.expires_at ? toTimestamp(new Date(input.expires_at)) : null,
  })
}

export interface ClientFile {
  client: ClientRow
  file: FileRow
}

/** The client and file a path names: the client first (404 Client not found, 403), then 404 File not found (docs/specification-notes.md "Status codes and bodies"). */
export function findClientFile(ctx: RequestContext, params: { clientId: number; fileId: number }): ClientFile {
  const client = findClient(ctx, params)
  const file = ctx.team.files.get(params.fileId)
  if (!file || file.client !== client.id) throw notFound('File')
  return { client, file }
}

/**
 * DELETE /clients/{clientId}/files/{fileId}: only a deletable file (403 otherwise). The client
 * document its template form made goes with it, and so does its attachment, bytes and all, when
 * nothing else holds it.
 */
export function deleteClientFile(ctx: RequestContext, { file }: ClientFile): void {
  if (!file.is_deletable) throw forbidden('the file is not deletable')
  ctx.team.files.delete(file.id)
  if (file.source.type === 'client_document') ctx.team.clientDocuments.delete(file.source.id)
  releaseAttachments(ctx, [file.attachment])
}

const EXTENSION = /\.[A-Za-z0-9]{1,5}$/

/**
 * GET /clients/{clientId}/files/{fileId}/download: the stored bytes, streamed from disk, with their
 * type, under the file's name (the attachment's extension added when the name has none).
 * docs/specification-notes.md "Status codes and bodies":
 * 423 while the scan is pending (and, the mock's choice, when it ended in error or unsupported:
 * the file was never found clean), 410 when it found a virus.
 */
export function downloadClientFile(ctx: RequestContext, { file }: ClientFile): Binary {
  const attachment = ctx.team.attachments.get(file.attachment)
  if (!attachment) throw notFound('File')
  if (attachment.av_status === 'infected') throw new HttpError(410, { error: 'File scan detected a virus' })
  if (attachment.av_status !== 'clean') throw new HttpError(423, { error: 'File scan is not yet complete' })
  const extension = EXTENSION.exec(attachment.original)?.[0] ?? ''
  const filename = EXTENSION.test(file.name) || extension === '' ? file.name : `${file.name}${extension}`
  return { kind: 'binary', type: attachment.type, bytes: ctx.blobs.stream(attachment.blob), size: attachment.size, filename }
}
