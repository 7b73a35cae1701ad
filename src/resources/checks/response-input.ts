// What a photo ID check's response is made from (responses.ts and photo-id.ts build from it).
import type { Random } from '../../kernel/random.ts'
import type { NameRow } from '../clients/index.ts'
import type { Outcome } from './rows.ts'

/** Everything a photo ID check's response is made from. */
export interface CheckResponseInput {
  /** What the check concluded (src/lifecycle/outcomes.ts). */
  outcome: Outcome
  /**
   * The step's preferences as returned (StepRow.preferences). Read: docs (the first is the document
   * shown, passport by default), issuing_countries (the first issues it, GBR by default),
   * facial_similarity.
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
  /** Seeded by the check's recipe: document numbers, scores. */
  random: Random
  /** When the result came back (the recipe's at): issue and expiry dates. */
  now: Date
}
