// An upload's virus scan on the mock's clock; lifecycle/scans.ts says what it finds.
import type { TeamContext } from '../../context.ts'
import type { AttachmentRow } from './rows.ts'

export const SCAN_JOB = 'attachment.scan'

/** Seconds of the mock's clock an upload's virus scan takes unless --scan-delay says otherwise. */
export const DEFAULT_SCAN_DELAY_SECONDS = 5

/** An upload's virus scan, done after the scan delay (--scan-delay) on the mock's clock. */
export function scheduleScan(ctx: TeamContext, attachment: AttachmentRow): void {
  const delay = (ctx.behaviour.scanDelaySeconds ?? DEFAULT_SCAN_DELAY_SECONDS) * 1000
  ctx.scheduler.schedule(SCAN_JOB, ctx.team.id, attachment.id, new Date(ctx.clock.nowMs() + delay))
}

/** An attachment that is deleted or redacted is never scanned. */
export function cancelScan(ctx: TeamContext, attachment: AttachmentRow): void {
  ctx.scheduler.cancel(SCAN_JOB, ctx.team.id, attachment.id)
}
