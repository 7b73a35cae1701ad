// What a check's outcome gives its response (the table at the top of lifecycle/responses.ts):
// whether it has one, and the result it states. The response itself is made in lifecycle/; the
// record's PDF needs only its result.
import type { CheckResponseCommonResultJson } from '../../contracts/generated.ts'
import type { Outcome } from './rows.ts'

/** Whether a check of this outcome has a response: failed and paused checks have none. */
export function hasResponse(outcome: Outcome): outcome is Exclude<Outcome, 'failed' | 'paused'> {
  return outcome !== 'failed' && outcome !== 'paused'
}

/** The response result of an outcome that has a response (refer reads as consider: the check's status is what says refer). */
export function responseResult(outcome: Exclude<Outcome, 'failed' | 'paused'>): Exclude<CheckResponseCommonResultJson, null> {
  return outcome === 'clear' ? 'clear' : outcome === 'rejected' ? 'rejected' : 'consider'
}
