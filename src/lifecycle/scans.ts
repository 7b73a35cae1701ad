// An upload's virus scan (docs/specification-notes.md "Attachments and files": av_status pending, clean, infected, error, unsupported). It
// ends after the scan delay on the mock's clock, in the spirit of the check outcomes: a magic tag in
// the uploaded file's name forces a result, the standard antivirus test file (EICAR) anywhere in
// the bytes is infected, and anything else is clean.
import type { TeamContext } from '../context.ts'
import { fileContains, type AttachmentRow, type AvStatus } from '../resources/attachments/index.ts'

/** The EICAR test string every antivirus reports as a virus, harmless by design. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'

/** Tags in the uploaded file's name, e.g. passport+scan-error.pdf, and the result each forces. */
export const SCAN_TAGS: ReadonlyArray<readonly [string, AvStatus]> = [
  ['+scan-infected', 'infected'],
  ['+scan-error', 'error'],
  ['+scan-unsupported', 'unsupported'],
]

export function scanResult(original: string, bytesPath: string): AvStatus {
  const name = original.toLowerCase()
  const tagged = SCAN_TAGS.find(([tag]) => name.includes(tag))
  if (tagged) return tagged[1]
  return fileContains(bytesPath, EICAR) ? 'infected' : 'clean'
}

/** The scan of a pending attachment ends. */
export function finishScan(ctx: TeamContext, attachment: AttachmentRow): void {
  if (attachment.av_status !== 'pending') return
  ctx.team.attachments.update(attachment, { av_status: scanResult(attachment.original, ctx.blobs.path(attachment.blob)), updated_at: ctx.clock.timestamp() })
}
