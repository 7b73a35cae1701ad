// What a check returns, in the spirit of payment test cards: a forced outcome (control API), a
// dummy step's state, or a magic tag in the client's email address; clear otherwise.
import type { StepRow } from '../resources/records/index.ts'
import type { CheckRow, CheckStatus, Outcome } from '../resources/checks/index.ts'

export const OUTCOMES: readonly Outcome[] = ['clear', 'consider', 'rejected', 'refer', 'failed', 'paused']

/** The check status each outcome leaves (consider is a processed check whose result needs a look). */
export const OUTCOME_STATUS: Record<Outcome, CheckStatus> = {
  clear: 'accepted',
  consider: 'accepted',
  rejected: 'rejected',
  refer: 'refer',
  failed: 'failed',
  paused: 'paused',
}

const isOutcome = (value: string): value is Outcome => (OUTCOMES as readonly string[]).includes(value)

/**
 * Tags after a + in the email's local part: `+consider` applies to every check of the record,
 * `+watchlist-consider` only to that check type, and wins over a plain tag.
 * ann+photo_id-rejected+consider@example.com: photo ID rejected, every other check consider.
 */
export function magicOutcome(email: string, checkType: string): Outcome | undefined {
  const tags = (email.split('@')[0] ?? '').toLowerCase().split('+').slice(1)
  let outcome: Outcome | undefined
  for (const tag of tags) {
    const dash = tag.lastIndexOf('-')
    if (dash > 0 && tag.slice(0, dash) === checkType && isOutcome(tag.slice(dash + 1))) return tag.slice(dash + 1) as Outcome
    if (isOutcome(tag)) outcome ??= tag
  }
  return outcome
}

/** A check.dummy step's state preference (docs/specification-notes.md "Step types, preferences and costs"): pending never returns a result. */
const DUMMY_STATE: Record<string, Outcome | null> = {
  pending: null,
  accepted: 'clear',
  rejected: 'rejected',
  refer: 'refer',
  failed: 'failed',
  paused: 'paused',
}

/**
 * The outcome of a check the client just submitted: forced, else a dummy step's state, else the
 * magic tag, else clear. null: it never returns (a dummy in state pending).
 */
export function outcomeFor(check: CheckRow, step: StepRow, email: string, forced: Outcome | undefined): Outcome | null {
  if (forced) return forced
  if (step.type === 'check.dummy') {
    const state = step.preferences.state
    return DUMMY_STATE[typeof state === 'string' ? state : 'pending'] ?? null
  }
  return magicOutcome(email, check.type) ?? 'clear'
}
