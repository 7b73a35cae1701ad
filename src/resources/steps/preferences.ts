// A step's preferences as stored and returned: what the request gave, completed with the defaults
// of docs/specification-notes.md "Step types, preferences and costs" and the contracts (the `default` of each field in
// step-input.json; a test keeps the two in step), in the shape step.json gives each type. Fields
// a type does not have are dropped; the open types keep what they were given.
import type {
  StepBankingInformationPreferencesJson,
  StepCriminalRecordPreferencesJson,
  StepDocumentRequestPreferencesJson,
  StepDocumentTransferPreferencesJson,
  StepDummyPreferencesJson,
  StepEmploymentReferencingPreferencesJson,
  StepFormPreferencesJson,
  StepHscniAccessNiPreferencesJson,
  StepNhsEsrPreferencesJson,
  StepPhotoIdPreferencesJson,
  StepReferencePreferencesJson,
  StepTypeJson,
  StepWatchlistPreferencesJson,
} from '../../contracts/generated.ts'
import { copyJson, deepFreeze } from '../../kernel/frozen.ts'

/** Preferences as a request gives them (validated against step-input.json). */
export type GivenPreferences = Record<string, unknown>

/** The types whose preferences the spec does not show: an open object, kept as given. */
export const OPEN_TYPES = ['check.credit', 'check.identity', 'check.thorntons_onboarding', 'check.video'] as const satisfies readonly StepTypeJson[]

interface PreferencesByType {
  'check.photo_id': StepPhotoIdPreferencesJson
  'check.criminal_record': StepCriminalRecordPreferencesJson
  'document.request': StepDocumentRequestPreferencesJson
  'document.transfer': StepDocumentTransferPreferencesJson
  form: StepFormPreferencesJson
  'check.hscni_access_ni': StepHscniAccessNiPreferencesJson
  'check.nhs_esr': StepNhsEsrPreferencesJson
  'check.employment_referencing': StepEmploymentReferencingPreferencesJson
  'check.reference': StepReferencePreferencesJson
  'check.banking_information': StepBankingInformationPreferencesJson
  'check.watchlist': StepWatchlistPreferencesJson
  'check.dummy': StepDummyPreferencesJson
}

/** The stored preferences of a step type (step.json). */
export type PreferencesOf<T extends StepTypeJson> = T extends keyof PreferencesByType ? PreferencesByType[T] : Record<string, unknown>

/** A given value, or the default when it was left out (null stays null where null is valid). */
function or<T>(given: GivenPreferences, name: string, fallback: T): T {
  const value = given[name]
  return value === undefined || value === null ? fallback : (value as T)
}

const value = <T>(given: GivenPreferences, name: string): T => given[name] as T

type Completers = { [T in keyof PreferencesByType]: (given: GivenPreferences) => PreferencesByType[T] }

const completers: Completers = {
  'check.photo_id': (given) =>
    given.report_type === 'biometric'
      ? {
          report_type: 'biometric',
          issuing_countries: or(given, 'issuing_countries', null),
          allow_fallback: or(given, 'allow_fallback', false),
          right_to_work: or(given, 'right_to_work', null),
          right_to_rent: or(given, 'right_to_rent', null),
        }
      : {
          report_type: 'standard',
          face: or(given, 'face', false),
          liveness: or(given, 'liveness', false),
          facial_similarity: or(given, 'facial_similarity', false),
          live_document: or(given, 'live_document', false),
          docs: value(given, 'docs'),
          issuing_countries: or(given, 'issuing_countries', null),
          right_to_work: or(given, 'right_to_work', null),
          right_to_rent: or(given, 'right_to_rent', null),
        },
  'check.criminal_record': (given) => {
    const type = value<StepCriminalRecordPreferencesJson['type']>(given, 'type')
    return {
      region: value(given, 'region'),
      ...(type !== undefined && { type }),
      enable_payment: or(given, 'enable_payment', false),
      // Deprecated and read-only (docs/specification-notes.md "Step types, preferences and costs"): England standard and enhanced checks always carry it, false.
      ...(given.region === 'england' && (type === 'standard' || type === 'enhanced') && { free_volunteer: false as const }),
    }
  },
  // A request naming a template is resolved to the template's title and instructions first (prepareSteps).
  'document.request': (given) => ({ title: value(given, 'title'), instructions: value(given, 'instructions') }),
  'document.transfer': (given) => ({
    require_return: or(given, 'require_return', false),
    require_confirmation: or(given, 'require_confirmation', false),
    instructions: or(given, 'instructions', null),
    return_message: or(given, 'return_message', null),
  }),
  form: (given) => ({ form: value(given, 'form') }),
  'check.hscni_access_ni': (given) => ({
    type: value(given, 'type'),
    pin_number: value(given, 'pin_number'),
    ...(given.type === 'enhanced_barring' && {
      barring_adults: or(given, 'barring_adults', false),
      barring_children: or(given, 'barring_children', false),
    }),
  }),
  'check.nhs_esr': (given) => ({
    GMC: or(given, 'GMC', false),
    NMC: or(given, 'NMC', false),
    HCP: or(given, 'HCP', false),
    GDC: or(given, 'GDC', false),
    GPC: or(given, 'GPC', false),
  }),
  'check.employment_referencing': (given) => ({
    type: value(given, 'type'),
    timeframe: value(given, 'timeframe'),
    gap_threshold: value(given, 'gap_threshold'),
    supporting_evidence: or(given, 'supporting_evidence', null),
    verification_method: or(given, 'verification_method', null),
    ...(given.type === 'automated_references' && {
      review_references: or(given, 'review_references', false),
      referee_form: or(given, 'referee_form', null),
    }),
  }),
  'check.reference': (given) => ({ years: value(given, 'years') }),
  'check.banking_information': (given) => ({
    balance: or(given, 'balance', false),
    transactions: or(given, 'transactions', false),
    custom_form_template_id: or(given, 'custom_form_template_id', null),
  }),
  'check.watchlist': (given) => ({
    silent: or(given, 'silent', true),
    monitor: or(given, 'monitor', false),
    search_profile: or(given, 'search_profile', 'peps_sanctions_media'),
    all_entity_types: or(given, 'all_entity_types', false),
  }),
  'check.dummy': (given) => ({
    payment_amount: or(given, 'payment_amount', null),
    credit_cost: or(given, 'credit_cost', null),
    cancel: or(given, 'cancel', false),
    replay: or(given, 'replay', false),
    state: or(given, 'state', 'pending'),
  }),
}

const isTyped = (type: StepTypeJson): type is keyof PreferencesByType => type in completers

/**
 * The preferences a step stores and returns, from preferences that passed step-input.json (null
 * or left out is {}). A document.request naming a template must have been resolved to the
 * template's title and instructions first.
 */
export function completePreferences<T extends StepTypeJson>(type: T, given: GivenPreferences | null | undefined): PreferencesOf<T>
export function completePreferences(type: StepTypeJson, given: GivenPreferences | null | undefined): Record<string, unknown> {
  if (!given || !Object.isFrozen(given)) return completed(type, given ?? {})
  // A frozen input (the seed's step sets, used by thousands of records): completed once, shared frozen.
  let byType = sharedCompletions.get(given)
  if (!byType) sharedCompletions.set(given, (byType = new Map()))
  const shared = byType.get(type) ?? deepFreeze(completed(type, given))
  byType.set(type, shared)
  return shared
}

const sharedCompletions = new WeakMap<GivenPreferences, Map<StepTypeJson, Record<string, unknown>>>()

function completed(type: StepTypeJson, input: GivenPreferences): Record<string, unknown> {
  if (!isTyped(type)) return copyJson(input)
  // Values are JSON from a parsed body; copied so the stored row shares nothing with the request.
  return copyJson(completers[type](input)) as unknown as Record<string, unknown>
}
