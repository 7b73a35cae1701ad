export { presentAttachment } from './present.ts'
export type { AttachmentRow, AvStatus } from './rows.ts'
export { attachmentFromBytes, insertAttachment, sampleAttachment, SAMPLES, type SampleName } from './service.ts'
