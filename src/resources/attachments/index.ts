export { fileContains } from './content.ts'
export { DEFAULT_SCAN_DELAY_SECONDS, SCAN_JOB } from './jobs.ts'
export { presentAttachment } from './present.ts'
export type { AttachmentRow, AvStatus } from './rows.ts'
export {
  attachmentFromBytes,
  attachmentsInAnswers,
  findAttachment,
  insertAttachment,
  isAttachmentUsed,
  releaseAttachments,
  sampleAttachment,
  SAMPLES,
  type SampleName,
} from './service.ts'
export { attachmentTables } from './tables.ts'
