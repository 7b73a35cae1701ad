// What a check's response is made from (responses.ts and photo-id.ts build from it).
import type { CheckJson } from '../contracts/generated.ts'
import type { Random } from '../kernel/random.ts'
import type { NameRow } from '../resources/clients/index.ts'
import type { Outcome } from '../resources/records/index.ts'

export type CheckType = CheckJson['type']

/** Everything a check's response is made from. */
export interface CheckResponseInput {
  /** The check's type (CheckRow.type: its step type without `check.`). */
  type: CheckType
  /** What the check concluded (src/lifecycle/outcomes.ts). */
  outcome: Outcome
  /**
   * The step's preferences as returned (StepRow.preferences). Read: photo ID docs (the first is the
   * document shown, passport by default), issuing_countries (the first issues it, GBR by default),
   * facial_similarity; watchlist search_profile, monitor; criminal record region, type; AccessNI
   * type, barring_adults, barring_children; employment referencing type, timeframe, gap_threshold;
   * reference years; banking balance, transactions; NHS ESR GMC, NMC, HCP, GDC, GPC.
   */
  preferences: Record<string, unknown>
  /** The record's snapshot of the client's name (RecordRow.name). */
  name: NameRow
  /** The record's snapshot of the client's email (RecordRow.email). */
  email: string
  /**
   * The client's date of birth (YYYY-MM-DD), null when unknown: then one is derived from the name
   * and email (the same for every check of that client, between 22 and 64 years before `now`).
   */
  dob: string | null
  /** Seeded by the check's recipe: document numbers, certificate numbers, scores, uuids. */
  random: Random
  /** When the result came back (the recipe's at): issue dates, expiry dates, received_at. */
  now: Date
}
