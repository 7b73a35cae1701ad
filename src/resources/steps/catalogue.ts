// The step types a record can have, with what each costs (docs/specification-notes.md "Step types, preferences and costs"). The
// costs docs/specification-notes.md "Step types, preferences and costs" gives: identity [1], photo ID [1, 2, 3, 4], watchlist [2, 3, 4], document steps
// and forms 0. The others are the mock's choice (docs/behaviour-notes.md "Steps and costs"), in the same range.
import type { StepTypeJson } from '../../contracts/generated.ts'
import type { PreferencesOf } from './preferences.ts'

export interface AvailableStep {
  type: StepTypeJson
  /** Every cost the step can have, depending on its preferences, ascending. */
  costs: readonly [number, ...number[]]
}

/** Every step type, in the order of docs/specification-notes.md "Step types, preferences and costs", as GET /steps lists them. */
export const STEP_CATALOGUE: readonly AvailableStep[] = [
  // A credit report from a credit reference agency: one price.
  { type: 'check.credit', costs: [2] },
  // By disclosure level: basic 4, standard 6, enhanced 8 (a Scottish check without a type is basic).
  { type: 'check.criminal_record', costs: [4, 6, 8] },
  // A test step: its credit_cost when given, else free (any cost 0..100 can be set per step).
  { type: 'check.dummy', costs: [0] },
  // AccessNI, as the criminal record levels: standard 6, enhanced (with or without barring) 8.
  { type: 'check.hscni_access_ni', costs: [6, 8] },
  { type: 'check.identity', costs: [1] },
  { type: 'check.nhs_esr', costs: [1] },
  { type: 'check.banking_information', costs: [1] },
  // 1, +1 facial_similarity, +1 live_document, +1 a right to work or rent check; biometric 2 (+1 right to work or rent).
  { type: 'check.photo_id', costs: [1, 2, 3, 4] },
  // By type: instant_verification 2, automated_references 3, standard (manual referencing) 5.
  { type: 'check.employment_referencing', costs: [2, 3, 5] },
  { type: 'check.reference', costs: [2] },
  { type: 'check.thorntons_onboarding', costs: [1] },
  { type: 'check.video', costs: [1] },
  // 2, +1 a PEPs search profile, +1 or +2 monitoring (1 or 3 years), at most 4.
  { type: 'check.watchlist', costs: [2, 3, 4] },
  { type: 'document.request', costs: [0] },
  { type: 'document.transfer', costs: [0] },
  { type: 'form', costs: [0] },
]

const CRIMINAL_RECORD_LEVELS = { basic: 4, standard: 6, enhanced: 8 } as const
const HSCNI_LEVELS = { standard: 6, enhanced: 8, enhanced_barring: 8 } as const
const REFERENCING_TYPES = { instant_verification: 2, automated_references: 3, standard: 5 } as const
const WATCHLIST_MAX = 4

const flat = new Map(STEP_CATALOGUE.filter((step) => step.costs.length === 1).map((step) => [step.type, step.costs[0]]))

/**
 * Credits a step costs, from its preferences as stored (completed with their defaults: see
 * completePreferences). Photo ID: 1, facial_similarity +1, live_document +1, a right to work or
 * right to rent check +1 (standard, 1 to 4); biometric 2, +1 for a right to work or rent check.
 * Watchlist: 2, a PEPs search profile +1, monitoring +1 (1 year) or +2 (3 years), capped at 4 so
 * it stays within the costs GET /steps lists. Dummy: its credit_cost, or 0.
 */
export function stepCost<T extends StepTypeJson>(type: T, preferences: PreferencesOf<T>): number
export function stepCost(type: StepTypeJson, preferences: Record<string, unknown>): number
export function stepCost(type: StepTypeJson, preferences: Record<string, unknown>): number {
  const p = preferences
  switch (type) {
    case 'check.photo_id': {
      const rightCheck = p.right_to_work === 'GBR' || p.right_to_rent === 'GBR' ? 1 : 0
      if (p.report_type === 'biometric') return 2 + rightCheck
      return 1 + (p.facial_similarity === true ? 1 : 0) + (p.live_document === true ? 1 : 0) + rightCheck
    }
    case 'check.watchlist': {
      const peps = (p.search_profile ?? 'peps_sanctions_media') === 'sanctions' ? 0 : 1
      const monitoring = p.monitor === 3 ? 2 : p.monitor === 1 ? 1 : 0
      return Math.min(2 + peps + monitoring, WATCHLIST_MAX)
    }
    case 'check.criminal_record':
      return CRIMINAL_RECORD_LEVELS[(p.type as keyof typeof CRIMINAL_RECORD_LEVELS | undefined) ?? 'basic']
    case 'check.hscni_access_ni':
      return HSCNI_LEVELS[p.type as keyof typeof HSCNI_LEVELS]
    case 'check.employment_referencing':
      return REFERENCING_TYPES[p.type as keyof typeof REFERENCING_TYPES]
    case 'check.dummy':
      return typeof p.credit_cost === 'number' ? p.credit_cost : 0
    default:
      return flat.get(type) ?? 0
  }
}
