export { ACCEPTED_EXTENSIONS, fileContains } from './content.ts'
export { DEFAULT_SCAN_DELAY_SECONDS, SCAN_JOB } from './jobs.ts'
export { presentAttachment } from './present.ts'
export type { AttachmentRow, AvStatus } from './rows.ts'
export {
  attachmentFromBytes,
  attachmentsInAnswers,
  findAttachment,
  insertAttachment,
  isAttachmentUsed,
  MAX_ATTACHMENT_BYTES,
  releaseAttachments,
  sampleAttachment,
  SAMPLES,
  type SampleName,
  uploadAttachment,
  uploadedType,
} from './service.ts'
export { attachmentTables } from './tables.ts'
