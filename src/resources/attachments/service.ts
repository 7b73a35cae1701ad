// Attachments: uploaded binaries of a team. Uploads come through POST /attachments (routes.ts),
// streamed to the uploads folder by the operation gate and taken here once their content is known
// (content.ts), with a virus scan on the clock (lifecycle/scans.ts); the lifecycle (a client's
// uploads) and the seed make them from bytes or sample files. Whatever holds an attachment (files,
// library documents, record documents, form answers) keeps it; one nothing holds any more is
// deleted with its bytes, so nothing is hoarded.
import { canSee, type RequestContext, type TeamContext } from '../../context.ts'
import { forbidden, NOT_ASSIGNED, invalid, notFound } from '../../kernel/errors.ts'
import { seesOnlyAssigned } from '../../kernel/roles.ts'
import type { ReceivedFile } from '../../kernel/multipart.ts'
import { BlobStore } from '../../store/blobs.ts'
import type { Team } from '../../store/world.ts'
import { cancelScan, scheduleScan } from './jobs.ts'
import { ACCEPTED_EXTENSIONS, detectType, EXTENSIONS } from './content.ts'
import type { AttachmentRow, AvStatus } from './rows.ts'

/** docs/specification-notes.md "Limits": 100 MB; a larger upload is a 413 (docs/specification-notes.md "Wire details"). */
export const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024

/** A generated stored name: a uuid with the type's extension. */
export function storedName(ctx: TeamContext, type: string): string {
  const extension = EXTENSIONS[type]
  return extension ? `${ctx.random.uuid()}.${extension}` : ctx.random.uuid()
}

export interface NewAttachment {
  original: string
  type: string
  /** Where its bytes are already (a blob key), with their size. */
  blob: string
  size: number
  av_status: AvStatus
  uploaded_by?: number
}

export function insertAttachment(ctx: TeamContext, attachment: NewAttachment, name = storedName(ctx, attachment.type)): AttachmentRow {
  const now = ctx.clock.timestamp()
  return ctx.team.attachments.insert({ id: ctx.store.nextId('attachment'), name, ...attachment, redacted_at: null, created_at: now, updated_at: now })
}

/** An attachment from bytes at hand (a client's upload while completing a step), scanned clean. */
export function attachmentFromBytes(ctx: TeamContext, original: string, type: string, bytes: Uint8Array): AttachmentRow {
  const name = storedName(ctx, type)
  const blob = ctx.blobs.write(name, bytes)
  return insertAttachment(ctx, { original, type, blob, size: bytes.byteLength, av_status: 'clean' }, name)
}

/** Sample files of fixtures/samples that seeded and simulated uploads use, with their types. */
export const SAMPLES = {
  passport: { file: 'passport.jpg', type: 'image/jpeg' },
  drivingLicence: { file: 'driving-licence.jpg', type: 'image/jpeg' },
  selfie: { file: 'selfie.jpg', type: 'image/jpeg' },
  signature: { file: 'signature.png', type: 'image/png' },
  proofOfAddress: { file: 'proof-of-address.pdf', type: 'application/pdf' },
  bankStatement: { file: 'bank-statement.pdf', type: 'application/pdf' },
  employeeHandbook: { file: 'employee-handbook.pdf', type: 'application/pdf' },
  privacyNotice: { file: 'privacy-notice.pdf', type: 'application/pdf' },
  contractOfEmployment: { file: 'contract-of-employment.pdf', type: 'application/pdf' },
} as const

export type SampleName = keyof typeof SAMPLES

/**
 * An attachment whose bytes are a sample file (shared, never copied): what the seed gives teams,
 * and what a simulated client uploads. Scanned clean.
 */
export function sampleAttachment(ctx: TeamContext, sample: SampleName, original: string = SAMPLES[sample].file): AttachmentRow {
  const { file, type } = SAMPLES[sample]
  const blob = BlobStore.sample(file)
  return insertAttachment(ctx, { original, type, blob, size: ctx.blobs.size(blob), av_status: 'clean' })
}

/** Laravel's mimes rule message, with the types of docs/specification-notes.md "Attachments and files". */
const TYPE_MESSAGE = `The attachment field must be a file of type: ${ACCEPTED_EXTENSIONS.join(', ')}.`

/** What an uploaded file is by its content (a media type), or undefined when it is of no accepted type. */
export function uploadedType(file: ReceivedFile): string | undefined {
  return detectType(file.path, file.filename)
}

/**
 * POST /attachments: an uploaded file of an accepted type (by its content) becomes a pending
 * attachment, its bytes moved (not copied) from the uploads folder to their stored name; its scan
 * is scheduled. Another type is a 422 keyed attachment (the gate deletes the file). `uploadedBy` is
 * the team member who sent it (none for a client's upload on the perform page).
 */
export function uploadAttachment(ctx: TeamContext, file: ReceivedFile, uploadedBy?: number): AttachmentRow {
  const type = detectType(file.path, file.filename)
  if (type === undefined) throw invalid({ attachment: [TYPE_MESSAGE] })
  const name = storedName(ctx, type)
  const blob = ctx.blobs.adopt(file.path, name)
  const attachment = insertAttachment(ctx, { original: file.filename, type, blob, size: file.size, av_status: 'pending', ...(uploadedBy !== undefined && { uploaded_by: uploadedBy }) }, name)
  scheduleScan(ctx, attachment)
  return attachment
}

/** The attachments a form's answers hold: the values of its document fields (arrays of attachment ids). */
export function attachmentsInAnswers(fields: ReadonlyArray<{ type: string; value?: unknown }>): number[] {
  return fields.flatMap((field) => (field.type === 'document' && Array.isArray(field.value) ? field.value.filter((id): id is number => typeof id === 'number') : []))
}

/** What holds an attachment (each by an index but the team's library, a few documents). */
function holdersOf(team: Team, id: number) {
  return {
    files: team.filesByAttachment.get(id),
    libraryDocuments: team.libraryDocuments.filter((document) => document.attachment === id),
    recordDocuments: team.documentsByAttachment.get(id),
    forms: team.formsByAttachment.get(id),
  }
}

/** Whether anything holds the attachment: a file, a library document, a record document or a form answer. */
export function isAttachmentUsed(team: Team, id: number): boolean {
  return Object.values(holdersOf(team, id)).some((holders) => holders.length > 0)
}

/** The clients whose records, forms or files hold the attachment. */
function clientsHolding(team: Team, id: number): number[] {
  const holders = holdersOf(team, id)
  return [
    ...holders.files.map((file) => file.client),
    ...holders.forms.map((form) => form.client),
    ...holders.recordDocuments.map((document) => team.records.get(document.record)?.client).filter((client) => client !== undefined),
  ]
}

/**
 * The attachment a path names: 404 {"error": "Attachment not found"} when the team has none (docs/specification-notes.md "Status codes and bodies"),
 * 403 when it belongs to a client an assigned-only caller may not see.
 */
export function findAttachment(ctx: RequestContext, params: { id: number }): AttachmentRow {
  const attachment = ctx.team.attachments.get(params.id)
  if (!attachment) throw notFound('Attachment')
  for (const id of clientsHolding(ctx.team, attachment.id)) {
    const client = ctx.team.clients.get(id)
    if (client && !canSee(ctx, client)) throw forbidden(NOT_ASSIGNED)
  }
  return attachment
}

/** Deletes an attachment with its bytes (a shared sample's stay), and its scan if still due. */
function forget(ctx: TeamContext, attachment: AttachmentRow): void {
  cancelScan(ctx, attachment)
  ctx.blobs.remove(attachment.blob)
  ctx.team.attachments.delete(attachment.id)
}

/**
 * Whether the caller may delete the attachment: an assigned-only member only one they uploaded
 * themselves (the team's other unattached uploads are not theirs to throw away).
 */
export const mayDeleteAttachment = (ctx: RequestContext, attachment: AttachmentRow): boolean =>
  !seesOnlyAssigned(ctx.member.role) || attachment.uploaded_by === ctx.user.id

/** DELETE /attachments/{id}: only an attachment nothing holds (docs/specification-notes.md "Attachments and files"); 403 otherwise. */
export function deleteAttachment(ctx: TeamContext, attachment: AttachmentRow): void {
  if (isAttachmentUsed(ctx.team, attachment.id)) throw forbidden('the attachment is in use')
  forget(ctx, attachment)
}

/** After what held them is gone (a file, a client): deletes those of the attachments nothing holds any more. */
export function releaseAttachments(ctx: TeamContext, ids: Iterable<number>): void {
  for (const id of ids) {
    const attachment = ctx.team.attachments.get(id)
    if (attachment && !isAttachmentUsed(ctx.team, id)) forget(ctx, attachment)
  }
}

/** The generic image a redacted attachment's bytes become (fixtures/samples/redacted.png). */
const REDACTED = { blob: BlobStore.sample('redacted.png'), type: 'image/png', extension: 'png' }

const withoutExtension = (name: string) => name.replace(/\.[^.]*$/, '')

/**
 * PUT /attachments/{id}/redact (docs/specification-notes.md "Attachments and files"): only an attachment of a record document or of a
 * form (a form answer, or a file whose source is a record document or a form), not a library
 * document's, and only once; 422 keyed attachment otherwise. Its bytes become the generic
 * "removed after a data deletion request" PNG, the uploaded bytes are deleted, original gets the
 * suffix -redacted (passport.jpg -> passport-redacted.png), and its files show redacted_at.
 */
export function redactAttachment(ctx: TeamContext, attachment: AttachmentRow): AttachmentRow {
  const holders = holdersOf(ctx.team, attachment.id)
  const eligible =
    holders.libraryDocuments.length === 0 &&
    (holders.recordDocuments.length > 0 ||
      holders.forms.length > 0 ||
      holders.files.some((file) => file.source.type === 'record_document' || file.source.type === 'form' || file.source.type === 'client_form'))
  if (!eligible) throw invalid({ attachment: ['Only attachments of record documents or form uploads can be redacted.'] })
  if (attachment.redacted_at !== null) throw invalid({ attachment: ['The attachment has already been redacted.'] })
  const now = ctx.clock.timestamp()
  cancelScan(ctx, attachment)
  ctx.blobs.remove(attachment.blob)
  ctx.team.attachments.update(attachment, {
    blob: REDACTED.blob,
    type: REDACTED.type,
    size: ctx.blobs.size(REDACTED.blob),
    name: `${withoutExtension(attachment.name)}.${REDACTED.extension}`,
    original: `${withoutExtension(attachment.original)}-redacted.${REDACTED.extension}`,
    av_status: 'clean',
    redacted_at: now,
    updated_at: now,
  })
  for (const file of holders.files) ctx.team.files.update(file, { updated_at: now })
  return attachment
}
