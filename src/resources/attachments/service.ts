// Attachments: uploaded binaries of a team. Uploads come through POST /attachments (routes.ts);
// the lifecycle (a client's uploads) and the seed make them here from bytes or sample files.
import type { TeamContext } from '../../context.ts'
import { BlobStore } from '../../store/blobs.ts'
import type { AttachmentRow, AvStatus } from './rows.ts'

/** The file name extension the stored name gets for each accepted type. */
export const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel': 'xls',
  'text/csv': 'csv',
  'text/plain': 'txt',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/tiff': 'tiff',
  'application/zip': 'zip',
}

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
