export { fileContains } from './content.ts'
export { presentAttachment } from './present.ts'
export type { AttachmentRow, AvStatus } from './rows.ts'
export {
  attachmentFromBytes,
  findAttachment,
  insertAttachment,
  isAttachmentUsed,
  releaseAttachments,
  sampleAttachment,
  SAMPLES,
  type SampleName,
} from './service.ts'
