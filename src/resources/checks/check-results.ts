// What a check's outcome gives its response (the table at the top of checks/responses.ts):
// whether it has one, and the result a photo ID response states. The response itself is made in
// lifecycle/; the record's PDF needs only the result.
import type { CheckResponsePhotoIdJson } from '../../contracts/generated.ts'
import type { Outcome } from './rows.ts'

/** Whether a check of this outcome has a response: failed and paused checks have none. */
export function hasResponse(outcome: Outcome): outcome is Exclude<Outcome, 'failed' | 'paused'> {
  return outcome !== 'failed' && outcome !== 'paused'
}

/**
 * The result a photo ID response states for an outcome that has a response (refer reads as
 * consider: the check's status is what says refer). Only photo ID's response states a result
 * (docs/specification-notes.md "Checks and responses").
 */
export function photoIdResult(outcome: Exclude<Outcome, 'failed' | 'paused'>): Extract<CheckResponsePhotoIdJson['result'], 'clear' | 'consider' | 'rejected'> {
  return outcome === 'clear' ? 'clear' : outcome === 'rejected' ? 'rejected' : 'consider'
}
