// A valid step input of every type with only what its type requires, for tests that need steps
// without caring about their preferences. document.transfer and form steps name library items
// (src/resources/steps/library.ts) at fixed ids: prepareSteps takes them only where the team
// holds them (a seeded team's own attachment 1, say), so API tests name their team's rows.
import type { StepTypeJson } from '../../src/contracts/generated.ts'

export const FORM_TEMPLATE = '8f14e45f-ceea-4e67-a2b6-1f2d3c4b5a69'

export const MINIMAL_PREFERENCES: Record<StepTypeJson, Record<string, unknown> | undefined> = {
  'check.credit': undefined,
  'check.criminal_record': { region: 'england', type: 'standard' },
  'check.dummy': undefined,
  'check.hscni_access_ni': { type: 'standard', pin_number: '123456' },
  'check.identity': undefined,
  'check.nhs_esr': { GMC: true },
  'check.banking_information': undefined,
  'check.photo_id': { report_type: 'standard', docs: ['passport'] },
  'check.employment_referencing': { type: 'standard', timeframe: 3, gap_threshold: 28 },
  'check.reference': { years: 3 },
  'check.thorntons_onboarding': undefined,
  'check.video': undefined,
  'check.watchlist': undefined,
  'document.request': { title: 'Proof of address', instructions: 'A utility bill or bank statement from the last three months.' },
  'document.transfer': { name: 'Terms of business', attachment: 1 },
  form: { form: FORM_TEMPLATE },
}

/** A minimal step input of a type ({type} alone when its preferences are optional). */
export function minimalStep(type: StepTypeJson): { type: StepTypeJson; preferences?: Record<string, unknown> } {
  const preferences = MINIMAL_PREFERENCES[type]
  return preferences === undefined ? { type } : { type, preferences: structuredClone(preferences) }
}
