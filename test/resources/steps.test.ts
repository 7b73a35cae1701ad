// Step types, their preferences, costs and validation (docs/specification-notes.md "Step types, preferences and costs"):
// GET /steps (the catalogue), POST /steps (validate and price) and prepareSteps, which a record
// create uses too, so its 422 keys and messages are those of POST /steps.
import { describe, expect, it } from 'vitest'
import type { ValidateFunction } from 'ajv'
import type { StepTypeJson } from '../../src/contracts/generated.ts'
import { HttpError } from '../../src/kernel/errors.ts'
import { normalizeInput, validateBody } from '../../src/contracts/request.ts'
import { toValidationErrors } from '../../src/kernel/validate.ts'
import { completePreferences, OPEN_TYPES, prepareSteps, STEP_CATALOGUE, stepCost, stepLibrary, type StepLibrary } from '../../src/resources/steps/index.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'
import { FORM_TEMPLATE, MINIMAL_PREFERENCES, minimalStep } from '../support/steps.ts'

const ORIGIN = 'http://localhost/api/v2'
const FORBIDDEN = { message: 'This action is unauthorized.' }
const UUID = '0b5c1f7e-3d2a-4c8b-9e6f-7a1d2c3b4e5f'
const UNKNOWN = 987_654

type Prefs = Record<string, unknown> | null | undefined
const step = (type: StepTypeJson, preferences?: Prefs) => (preferences === undefined ? { type } : { type, preferences })

const ALL_TYPES = STEP_CATALOGUE.map((entry) => entry.type)

/** A library holding one of everything steps can name, at fixed ids (the seeded ones depend on the seed). */
const FULL_LIBRARY: StepLibrary = {
  documentTemplate: (id) => (id === 15 ? { title: 'Utility bill', instructions: 'A bill from the last three months.' } : undefined),
  libraryDocument: (id) => (id === 16 ? { name: 'Terms of business', attachment: 77 } : undefined),
  attachment: (id) => (id === 78 ? { id: 78 } : undefined),
  formTemplate: (reference) => (reference === FORM_TEMPLATE || reference === UUID ? { reference } : undefined),
}

function acme() {
  const mock = createTestMock()
  const team = [...mock.store.allTeams()][0]
  if (!team) throw new Error('no team')
  return { mock, ctx: { team } }
}

/** The preferences prepareSteps stores for one step (with the full library). */
function stored(type: StepTypeJson, preferences?: Prefs) {
  const { ctx } = acme()
  const [prepared] = prepareSteps(ctx, [step(type, preferences)], 'steps', FULL_LIBRARY)
  return prepared
}

/** The 422 body prepareSteps throws. */
function refusal(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, body: error.body }
    throw error
  }
  throw new Error('prepareSteps did not refuse')
}

const stepValidator = contracts.schemaValidator('step')

/** A returned step carrying these preferences, as step.json describes it. */
function asReturnedStep(type: StepTypeJson, preferences: unknown) {
  const link = type.startsWith('check.') ? { check: 1 } : type === 'form' ? { form: FORM_TEMPLATE } : { document: 1 }
  return { object: 'step', id: 1, type, preferences, ...link, cost: 0, completed_at: null, review: null }
}

function expectReturnable(type: StepTypeJson, preferences: unknown) {
  const valid = stepValidator(asReturnedStep(type, preferences))
  expect(valid, `${type}: ${JSON.stringify(stepValidator.errors)}`).toBe(true)
}

describe('the catalogue', () => {
  it('has every step type of the contracts once, in their order', () => {
    const types = (contracts.schemas.get('step') as { $defs: { type: { enum: string[] } } }).$defs.type.enum
    expect(ALL_TYPES).toEqual(types)
  })

  it('keeps the costs of docs/specification-notes.md "Step types, preferences and costs": identity [1], photo ID [1,2,3,4], watchlist [2,3,4], document steps and forms [0]', () => {
    const costs = Object.fromEntries(STEP_CATALOGUE.map((entry) => [entry.type, entry.costs]))
    expect(costs).toEqual({
      'check.credit': [2],
      'check.criminal_record': [4, 6, 8],
      'check.dummy': [0],
      'check.hscni_access_ni': [6, 8],
      'check.identity': [1],
      'check.nhs_esr': [1],
      'check.banking_information': [1],
      'check.photo_id': [1, 2, 3, 4],
      'check.employment_referencing': [2, 3, 5],
      'check.reference': [2],
      'check.thorntons_onboarding': [1],
      'check.video': [1],
      'check.watchlist': [2, 3, 4],
      'document.request': [0],
      'document.transfer': [0],
      form: [0],
    })
  })
})

describe('GET /steps', () => {
  const everything = STEP_CATALOGUE.map((entry) => ({ object: 'available_step', type: entry.type, costs: [...entry.costs] }))

  it('lists every step type with its costs on one page', async () => {
    const res = await createTestMock().api().get('/steps')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'paginated_list', data: everything, total: 16, count: 16, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  it('pages with limit and page, links carrying the query', async () => {
    const api = createTestMock().api()
    const second = await api.get('/steps', { limit: 5, page: 2 })
    expect(second.body).toEqual({
      object: 'paginated_list',
      data: everything.slice(5, 10),
      total: 16,
      count: 5,
      limit: 5,
      current_page: 2,
      total_pages: 4,
      links: { next: `${ORIGIN}/steps?limit=5&page=3`, previous: `${ORIGIN}/steps?limit=5&page=1` },
    })
    const last = await api.get('/steps', { limit: 5, page: 4 })
    expect(last.body.data).toEqual(everything.slice(15))
    expect(last.body.links).toEqual({ next: null, previous: `${ORIGIN}/steps?limit=5&page=3` })
    const past = await api.get('/steps', { limit: 5, page: 5 })
    expect(past.body).toMatchObject({ data: [], count: 0, current_page: 5, total_pages: 4, links: { next: null, previous: `${ORIGIN}/steps?limit=5&page=4` } })
  })

  it('refuses a bad page or limit', async () => {
    const api = createTestMock().api()
    expect((await api.get('/steps', { limit: 101 })).body).toEqual({ limit: ['The limit field must not be greater than 100.'] })
    expect((await api.get('/steps', { page: 0 })).body).toEqual({ page: ['The page field must be at least 1.'] })
  })

  it.each(['ivs_acme_member', 'ivs_acme_readonly', 'ivs_acme_assigned', 'ivs_globex_owner', 'ivs_initech_owner'])('is the same for %s', async (token) => {
    const mock = createTestMock()
    const res = await mock.api(token).get('/steps')
    expect(res.status).toBe(200)
    expect(res.body).toEqual((await mock.api().get('/steps')).body)
  })

  it.each([undefined, 'ivs_revoked', 'ivs_left', 'bogus'])('answers 401 for token %s', async (token) => {
    const res = await createTestMock().api().as(token).get('/steps')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })
})

describe('POST /steps', () => {
  it('answers each step type and cost in request order, creating and debiting nothing', async () => {
    const mock = createTestMock()
    const before = structuredClone(mock.store.data)
    const res = await mock.api().post('/steps', {
      steps: [
        step('check.watchlist', { search_profile: 'sanctions' }),
        step('document.request', { title: 'Proof of address', instructions: 'A recent utility bill.' }),
        step('check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true }),
        step('check.identity'),
        step('check.identity'),
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'validated_steps',
      steps: [
        { object: 'validated_step', type: 'check.watchlist', cost: 2 },
        { object: 'validated_step', type: 'document.request', cost: 0 },
        { object: 'validated_step', type: 'check.photo_id', cost: 2 },
        { object: 'validated_step', type: 'check.identity', cost: 1 },
        { object: 'validated_step', type: 'check.identity', cost: 1 },
      ],
    })
    expect(mock.store.data).toEqual(before)
    expect(mock.events).toEqual([])
  })

  it.each(['ivs_acme_member', 'ivs_acme_assigned', 'ivs_acme_support', 'ivs_initech_member'])('serves %s', async (token) => {
    const res = await createTestMock().api(token).post('/steps', { steps: [step('check.identity')] })
    expect(res.status).toBe(200)
  })

  it.each(['ivs_acme_readonly', 'ivs_initech_readonly'])('forbids the read-only %s, before validating the body', async (token) => {
    const api = createTestMock().api(token)
    for (const body of [{ steps: [step('check.identity')] }, { steps: [] }, 'nonsense']) {
      const res = await api.post('/steps', body)
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
  })

  it("forbids a fresh team's read-only member", async () => {
    const res = await createTestMock().newTeam().api('read-only').post('/steps', { steps: [step('check.identity')] })
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  it('answers 401 without a valid token', async () => {
    const res = await createTestMock().api().as('ivs_expired').post('/steps', { steps: [step('check.identity')] })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })
})

/** [type, preferences, cost]: every documented combination (catalogue.ts, docs/behaviour-notes.md "Steps and costs"). */
const COSTS: Array<[StepTypeJson, Prefs, number]> = [
  ['check.photo_id', { report_type: 'standard', docs: ['passport'] }, 1],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], face: true, liveness: true }, 1],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true }, 2],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], live_document: true }, 2],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], right_to_work: 'GBR' }, 2],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], right_to_rent: 'GBR' }, 2],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], right_to_work: 'GBR', right_to_rent: 'GBR' }, 2],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true, live_document: true }, 3],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true, right_to_work: 'GBR' }, 3],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true, live_document: true, right_to_work: 'GBR' }, 4],
  ['check.photo_id', { report_type: 'standard', docs: ['passport'], facial_similarity: true, live_document: true, right_to_work: 'GBR', right_to_rent: 'GBR' }, 4],
  ['check.photo_id', { report_type: 'biometric' }, 2],
  ['check.photo_id', { report_type: 'biometric', allow_fallback: true, issuing_countries: ['GBR', 'IRL'] }, 2],
  ['check.photo_id', { report_type: 'biometric', right_to_work: 'GBR' }, 3],
  ['check.photo_id', { report_type: 'biometric', right_to_work: 'GBR', right_to_rent: 'GBR' }, 3],
  ['check.watchlist', undefined, 3],
  ['check.watchlist', null, 3],
  ['check.watchlist', { search_profile: 'sanctions' }, 2],
  ['check.watchlist', { search_profile: 'peps_sanctions' }, 3],
  ['check.watchlist', { search_profile: 'peps_sanctions_media_extended', silent: false, all_entity_types: true }, 3],
  ['check.watchlist', { search_profile: 'sanctions', monitor: 1 }, 3],
  ['check.watchlist', { search_profile: 'sanctions', monitor: 3 }, 4],
  ['check.watchlist', { search_profile: 'peps_sanctions', monitor: 1 }, 4],
  ['check.watchlist', { monitor: 3 }, 4],
  ['check.watchlist', { search_profile: 'peps_sanctions_media_extended', monitor: 3 }, 4],
  ['check.criminal_record', { region: 'england', type: 'basic' }, 4],
  ['check.criminal_record', { region: 'england', type: 'standard' }, 6],
  ['check.criminal_record', { region: 'england', type: 'standard', enable_payment: true }, 6],
  ['check.criminal_record', { region: 'england', type: 'enhanced' }, 8],
  ['check.criminal_record', { region: 'scotland' }, 4],
  ['check.criminal_record', { region: 'scotland', type: 'enhanced' }, 8],
  ['check.hscni_access_ni', { type: 'standard', pin_number: '012345' }, 6],
  ['check.hscni_access_ni', { type: 'enhanced', pin_number: '012345' }, 8],
  ['check.hscni_access_ni', { type: 'enhanced_barring', pin_number: '012345', barring_adults: true }, 8],
  ['check.employment_referencing', { type: 'instant_verification', timeframe: 1, gap_threshold: 7 }, 2],
  ['check.employment_referencing', { type: 'automated_references', timeframe: 5, gap_threshold: 182 }, 3],
  ['check.employment_referencing', { type: 'standard', timeframe: 10, gap_threshold: 28 }, 5],
  ['check.dummy', undefined, 0],
  ['check.dummy', { credit_cost: null }, 0],
  ['check.dummy', { credit_cost: 0 }, 0],
  ['check.dummy', { credit_cost: 7, payment_amount: 500 }, 7],
  ['check.dummy', { credit_cost: 100 }, 100],
  ['check.identity', undefined, 1],
  ['check.identity', { anything: 'goes' }, 1],
  ['check.credit', undefined, 2],
  ['check.nhs_esr', { GMC: true, NMC: true }, 1],
  ['check.banking_information', undefined, 1],
  ['check.banking_information', { balance: true, transactions: 12 }, 1],
  ['check.reference', { years: 5 }, 2],
  ['check.thorntons_onboarding', undefined, 1],
  ['check.video', {}, 1],
  ['document.request', { title: 'Payslip', instructions: 'Your latest payslip.' }, 0],
]

describe('costs', () => {
  it.each(COSTS)('%s %j costs %i through POST /steps', async (type, preferences, cost) => {
    const res = await createTestMock().api().post('/steps', { steps: [step(type, preferences)] })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({ object: 'validated_steps', steps: [{ object: 'validated_step', type, cost }] })
  })

  it('prices library steps at 0 once their references resolve', () => {
    const { ctx } = acme()
    const prepared = prepareSteps(
      ctx,
      [
        step('document.request', { template: 15 }),
        step('document.transfer', { template: 16 }),
        step('document.transfer', { name: 'Contract', attachment: 78, require_return: true }),
        step('form', { form: FORM_TEMPLATE }),
      ],
      'steps',
      FULL_LIBRARY,
    )
    expect(prepared.map((p) => p.cost)).toEqual([0, 0, 0, 0])
  })

  it('gives every step a cost its catalogue entry lists (a dummy step its own credit_cost), and each listed cost is reached', () => {
    const reached = new Map<StepTypeJson, Set<number>>()
    for (const [type, preferences] of COSTS) {
      const cost = stepCost(type, completePreferences(type, preferences))
      if (type !== 'check.dummy') expect(STEP_CATALOGUE.find((entry) => entry.type === type)?.costs, `${type} ${JSON.stringify(preferences)}`).toContain(cost)
      reached.set(type, (reached.get(type) ?? new Set()).add(cost))
    }
    for (const entry of STEP_CATALOGUE.filter((e) => !['document.transfer', 'form'].includes(e.type))) {
      expect([...(reached.get(entry.type) ?? [])].sort((a, b) => a - b), entry.type).toEqual(entry.type === 'check.dummy' ? [0, 7, 100] : entry.costs)
    }
  })
})

/** [type, given, stored]: every type's preferences completed with their defaults, as returned. */
const DEFAULTS: Array<[StepTypeJson, Prefs, Record<string, unknown>]> = [
  [
    'check.photo_id',
    { report_type: 'standard', docs: ['passport', 'driving_licence'] },
    {
      report_type: 'standard',
      face: false,
      liveness: false,
      facial_similarity: false,
      live_document: false,
      docs: ['passport', 'driving_licence'],
      issuing_countries: null,
      right_to_work: null,
      right_to_rent: null,
    },
  ],
  [
    'check.photo_id',
    { report_type: 'standard', docs: ['national_id'], face: true, liveness: true, facial_similarity: true, live_document: true, issuing_countries: ['IRL'], right_to_work: 'GBR', right_to_rent: 'GBR', allow_fallback: true, extra: 1 },
    { report_type: 'standard', face: true, liveness: true, facial_similarity: true, live_document: true, docs: ['national_id'], issuing_countries: ['IRL'], right_to_work: 'GBR', right_to_rent: 'GBR' },
  ],
  ['check.photo_id', { report_type: 'biometric' }, { report_type: 'biometric', issuing_countries: null, allow_fallback: false, right_to_work: null, right_to_rent: null }],
  [
    'check.photo_id',
    { report_type: 'biometric', allow_fallback: true, issuing_countries: ['GBR'], right_to_rent: 'GBR', docs: ['passport'], facial_similarity: true },
    { report_type: 'biometric', issuing_countries: ['GBR'], allow_fallback: true, right_to_work: null, right_to_rent: 'GBR' },
  ],
  ['check.criminal_record', { region: 'england', type: 'basic' }, { region: 'england', type: 'basic', enable_payment: false }],
  ['check.criminal_record', { region: 'england', type: 'standard' }, { region: 'england', type: 'standard', enable_payment: false, free_volunteer: false }],
  ['check.criminal_record', { region: 'england', type: 'enhanced', enable_payment: true, free_volunteer: true }, { region: 'england', type: 'enhanced', enable_payment: true, free_volunteer: false }],
  ['check.criminal_record', { region: 'scotland' }, { region: 'scotland', enable_payment: false }],
  ['check.criminal_record', { region: 'scotland', type: 'standard', free_volunteer: true }, { region: 'scotland', type: 'standard', enable_payment: false }],
  ['document.request', { title: 'Payslip', instructions: 'Your latest payslip.' }, { title: 'Payslip', instructions: 'Your latest payslip.' }],
  ['document.request', { template: 15 }, { title: 'Utility bill', instructions: 'A bill from the last three months.' }],
  ['document.request', { template: null, title: 'Payslip', instructions: 'Latest.' }, { title: 'Payslip', instructions: 'Latest.' }],
  ['document.transfer', { template: 16 }, { require_return: false, require_confirmation: false, instructions: null, return_message: null }],
  [
    'document.transfer',
    { name: 'Contract', attachment: 78, require_return: true, require_confirmation: true, instructions: 'Sign page 3.', return_message: 'Thank you.' },
    { require_return: true, require_confirmation: true, instructions: 'Sign page 3.', return_message: 'Thank you.' },
  ],
  ['form', { form: FORM_TEMPLATE }, { form: FORM_TEMPLATE }],
  ['check.hscni_access_ni', { type: 'standard', pin_number: '012345', barring_adults: true }, { type: 'standard', pin_number: '012345' }],
  ['check.hscni_access_ni', { type: 'enhanced_barring', pin_number: '012345' }, { type: 'enhanced_barring', pin_number: '012345', barring_adults: false, barring_children: false }],
  ['check.hscni_access_ni', { type: 'enhanced_barring', pin_number: '012345', barring_children: true }, { type: 'enhanced_barring', pin_number: '012345', barring_adults: false, barring_children: true }],
  ['check.nhs_esr', { NMC: true }, { GMC: false, NMC: true, HCP: false, GDC: false, GPC: false }],
  [
    'check.employment_referencing',
    { type: 'standard', timeframe: 3, gap_threshold: 28, review_references: true, referee_form: UUID },
    { type: 'standard', timeframe: 3, gap_threshold: 28, supporting_evidence: null, verification_method: null },
  ],
  [
    'check.employment_referencing',
    { type: 'automated_references', timeframe: 3, gap_threshold: 28 },
    { type: 'automated_references', timeframe: 3, gap_threshold: 28, supporting_evidence: null, verification_method: null, review_references: false, referee_form: null },
  ],
  [
    'check.employment_referencing',
    { type: 'automated_references', timeframe: 3, gap_threshold: 28, supporting_evidence: ['employment', 'gap'], verification_method: 'instant_and_manual', review_references: true, referee_form: UUID },
    { type: 'automated_references', timeframe: 3, gap_threshold: 28, supporting_evidence: ['employment', 'gap'], verification_method: 'instant_and_manual', review_references: true, referee_form: UUID },
  ],
  ['check.reference', { years: 7 }, { years: 7 }],
  ['check.banking_information', undefined, { balance: false, transactions: false, custom_form_template_id: null }],
  ['check.banking_information', { balance: true, transactions: 6, custom_form_template_id: UUID }, { balance: true, transactions: 6, custom_form_template_id: UUID }],
  ['check.watchlist', undefined, { silent: true, monitor: false, search_profile: 'peps_sanctions_media', all_entity_types: false }],
  ['check.watchlist', null, { silent: true, monitor: false, search_profile: 'peps_sanctions_media', all_entity_types: false }],
  ['check.watchlist', { silent: false, monitor: 3, search_profile: 'sanctions', all_entity_types: true }, { silent: false, monitor: 3, search_profile: 'sanctions', all_entity_types: true }],
  ['check.dummy', undefined, { payment_amount: null, credit_cost: null, cancel: false, replay: false, state: 'pending' }],
  ['check.dummy', { payment_amount: 1000, credit_cost: 5, cancel: true, replay: true, state: 'refer' }, { payment_amount: 1000, credit_cost: 5, cancel: true, replay: true, state: 'refer' }],
  ['check.credit', undefined, {}],
  ['check.identity', null, {}],
  ['check.thorntons_onboarding', { matter: 'M-1', nested: { a: [1] } }, { matter: 'M-1', nested: { a: [1] } }],
  ['check.video', {}, {}],
]

describe('preferences as stored and returned', () => {
  it.each(DEFAULTS)('%s %j', (type, given, expected) => {
    const prepared = stored(type, given)
    expect(prepared?.preferences).toEqual(expected)
    expectReturnable(type, prepared?.preferences)
  })

  it('covers every step type', () => {
    expect(new Set(DEFAULTS.map(([type]) => type))).toEqual(new Set(ALL_TYPES))
  })

  it("fills every field left out with the default step-input.json names for it", () => {
    // Given the minimal preferences, a field with a contract default comes back as that default.
    const defs = (contracts.schemas.get('step-input') as { $defs: Record<string, { properties?: Record<string, { default?: unknown }> }> }).$defs
    const shapes: Array<[StepTypeJson, string, Record<string, unknown> | undefined]> = [
      ['check.photo_id', 'photoIdStandardPreferences', { report_type: 'standard', docs: ['passport'] }],
      ['check.photo_id', 'photoIdBiometricPreferences', { report_type: 'biometric' }],
      ['check.criminal_record', 'criminalRecordPreferences', MINIMAL_PREFERENCES['check.criminal_record']],
      ['document.transfer', 'documentTransferPreferences', MINIMAL_PREFERENCES['document.transfer']],
      ['check.hscni_access_ni', 'hscniAccessNiPreferences', { type: 'enhanced_barring', pin_number: '123456' }],
      ['check.nhs_esr', 'nhsEsrPreferences', { NMC: true }],
      ['check.employment_referencing', 'employmentReferencingPreferences', { type: 'automated_references', timeframe: 3, gap_threshold: 28 }],
      ['check.banking_information', 'bankingInformationPreferences', undefined],
      ['check.watchlist', 'watchlistPreferences', undefined],
      ['check.dummy', 'dummyPreferences', undefined],
    ]
    let checked = 0
    for (const [type, def, minimal] of shapes) {
      const completed = completePreferences(type, minimal) as Record<string, unknown>
      for (const [name, property] of Object.entries(defs[def]?.properties ?? {})) {
        if (!('default' in property) || (minimal !== undefined && name in minimal)) continue
        expect(completed[name], `${type} ${name}`).toEqual(property.default)
        checked += 1
      }
    }
    expect(checked).toBe(38)
  })

  it('returns every minimal step of every type within step.json', () => {
    for (const type of ALL_TYPES) expectReturnable(type, completePreferences(type, MINIMAL_PREFERENCES[type]))
  })

  it('is what step.json holds a returned step to: photo ID with its fields left out is refused', () => {
    expect(stepValidator(asReturnedStep('check.photo_id', { report_type: 'standard', docs: ['passport'] }))).toBe(false)
    expect(stepValidator(asReturnedStep('check.watchlist', {}))).toBe(false)
    expect(stepValidator(asReturnedStep('check.criminal_record', { region: 'england', type: 'standard', enable_payment: false }))).toBe(false)
    expect(stepValidator(asReturnedStep('check.criminal_record', { region: 'england', type: 'basic', enable_payment: false, free_volunteer: false }))).toBe(false)
    expect(stepValidator(asReturnedStep('check.hscni_access_ni', { type: 'standard', pin_number: '123456', barring_adults: false }))).toBe(false)
  })

  it('shares nothing with the request', () => {
    const given = { report_type: 'standard', docs: ['passport'], issuing_countries: ['GBR'] }
    const prepared = stored('check.photo_id', given)
    given.docs.push('national_id')
    given.issuing_countries.push('IRL')
    expect(prepared?.preferences).toMatchObject({ docs: ['passport'], issuing_countries: ['GBR'] })
  })

  it('names the record document a document step creates', () => {
    const { ctx } = acme()
    const prepared = prepareSteps(
      ctx,
      [
        step('document.request', { title: 'Payslip', instructions: 'Latest.' }),
        step('document.request', { template: 15 }),
        step('document.transfer', { template: 16, require_return: true }),
        step('document.transfer', { name: 'Contract', attachment: 78 }),
        step('check.identity'),
      ],
      'steps',
      FULL_LIBRARY,
    )
    expect(prepared.map((p) => p.document)).toEqual([
      { name: 'Payslip', attachments: [] },
      { name: 'Utility bill', attachments: [] },
      { name: 'Terms of business', attachments: [77] },
      { name: 'Contract', attachments: [78] },
      undefined,
    ])
  })
})

/** [what, steps, exact 422 body]. */
const INVALID: Array<[string, unknown, Record<string, string[]>]> = [
  ['no steps', undefined, { steps: ['The steps field is required.'] }],
  ['empty steps', [], { steps: ['The steps field is required.'] }],
  ['steps not an array', 'check.identity', { steps: ['The steps field must be an array.'] }],
  ['a step not an object', ['check.identity'], { 'steps.0': ['The steps field must be an object.'] }],
  ['no type', [{}], { 'steps.0.type': ['The type field is required.'] }],
  ['unknown type', [{ type: 'check.bogus' }], { 'steps.0.type': ['The selected type is invalid.'] }],
  ['photo ID without preferences', [step('check.photo_id')], { 'steps.0.preferences': ['The preferences field is required.'] }],
  ['photo ID with null preferences', [step('check.photo_id', null)], { 'steps.0.preferences': ['The preferences field is required.'] }],
  ['preferences not an object', [step('check.identity', 'abc' as never)], { 'steps.0.preferences': ['The preferences field must be an object.'] }],
  ['preferences an array', [step('check.watchlist', [] as never)], { 'steps.0.preferences': ['The preferences field must be an object.'] }],
  ['photo ID without report_type', [step('check.photo_id', {})], { 'steps.0.preferences.report_type': ['The report type field is required.'] }],
  ['photo ID report_type', [step('check.photo_id', { report_type: 'full' })], { 'steps.0.preferences.report_type': ['The selected report type is invalid.'] }],
  ['standard without docs', [step('check.photo_id', { report_type: 'standard' })], { 'steps.0.preferences.docs': ['The docs field is required.'] }],
  ['standard with no docs', [step('check.photo_id', { report_type: 'standard', docs: [] })], { 'steps.0.preferences.docs': ['The docs field is required.'] }],
  ['docs values', [step('check.photo_id', { report_type: 'standard', docs: ['passport', 'visa'] })], { 'steps.0.preferences.docs.1': ['The selected docs is invalid.'] }],
  ['docs twice', [step('check.photo_id', { report_type: 'standard', docs: ['passport', 'passport'] })], { 'steps.0.preferences.docs': ['The docs field has a duplicate value.'] }],
  [
    'standard booleans',
    [step('check.photo_id', { report_type: 'standard', docs: ['passport'], face: 'yes', liveness: 2, facial_similarity: null, live_document: 'false' })],
    {
      'steps.0.preferences.face': ['The face field must be true or false.'],
      'steps.0.preferences.liveness': ['The liveness field must be true or false.'],
      'steps.0.preferences.facial_similarity': ['The facial similarity field is required.'],
      'steps.0.preferences.live_document': ['The live document field must be true or false.'],
    },
  ],
  [
    'issuing countries and rights',
    [step('check.photo_id', { report_type: 'standard', docs: ['passport'], issuing_countries: ['GBR', 'FRA'], right_to_work: 'USA', right_to_rent: true })],
    {
      'steps.0.preferences.issuing_countries.1': ['The selected issuing countries is invalid.'],
      'steps.0.preferences.right_to_work': ['The selected right to work is invalid.'],
      'steps.0.preferences.right_to_rent': ['The selected right to rent is invalid.'],
    },
  ],
  ['issuing countries empty', [step('check.photo_id', { report_type: 'biometric', issuing_countries: [] })], { 'steps.0.preferences.issuing_countries': ['The issuing countries field is required.'] }],
  ['issuing countries a string', [step('check.photo_id', { report_type: 'biometric', issuing_countries: 'GBR' })], { 'steps.0.preferences.issuing_countries': ['The issuing countries field must be an array.'] }],
  ['biometric allow_fallback', [step('check.photo_id', { report_type: 'biometric', allow_fallback: 'no' })], { 'steps.0.preferences.allow_fallback': ['The allow fallback field must be true or false.'] }],
  ['criminal record without preferences', [step('check.criminal_record')], { 'steps.0.preferences': ['The preferences field is required.'] }],
  ['criminal record without region', [step('check.criminal_record', {})], { 'steps.0.preferences.region': ['The region field is required.'] }],
  ['criminal record region', [step('check.criminal_record', { region: 'wales' })], { 'steps.0.preferences.region': ['The selected region is invalid.'] }],
  ['england without type', [step('check.criminal_record', { region: 'england' })], { 'steps.0.preferences.type': ['The type field is required.'] }],
  [
    'criminal record type and payment',
    [step('check.criminal_record', { region: 'scotland', type: 'pvg', enable_payment: 'yes' })],
    { 'steps.0.preferences.type': ['The selected type is invalid.'], 'steps.0.preferences.enable_payment': ['The enable payment field must be true or false.'] },
  ],
  [
    'document request without title and instructions',
    [step('document.request', {})],
    { 'steps.0.preferences.title': ['The title field is required.'], 'steps.0.preferences.instructions': ['The instructions field is required.'] },
  ],
  [
    'document request blank title, long instructions',
    [step('document.request', { title: '   ', instructions: 'x'.repeat(5001) })],
    { 'steps.0.preferences.title': ['The title field is required.'], 'steps.0.preferences.instructions': ['The instructions field must not be greater than 5000 characters.'] },
  ],
  ['document request long title', [step('document.request', { title: 'x'.repeat(256), instructions: 'ok' })], { 'steps.0.preferences.title': ['The title field must not be greater than 255 characters.'] }],
  ['document request template', [step('document.request', { template: 0 })], { 'steps.0.preferences.template': ['The template field must be at least 1.'] }],
  [
    'document transfer without a document',
    [step('document.transfer', {})],
    { 'steps.0.preferences.name': ['The name field is required.'], 'steps.0.preferences.attachment': ['The attachment field is required.'] },
  ],
  [
    'document transfer settings',
    [step('document.transfer', { template: 3, require_return: 'yes', require_confirmation: null, instructions: 5, return_message: 'x'.repeat(5001) })],
    {
      'steps.0.preferences.require_return': ['The require return field must be true or false.'],
      'steps.0.preferences.require_confirmation': ['The require confirmation field is required.'],
      'steps.0.preferences.instructions': ['The instructions field must be a string.'],
      'steps.0.preferences.return_message': ['The return message field must not be greater than 5000 characters.'],
    },
  ],
  ['form without preferences', [step('form')], { 'steps.0.preferences': ['The preferences field is required.'] }],
  ['form without form', [step('form', {})], { 'steps.0.preferences.form': ['The form field is required.'] }],
  ['form not a uuid', [step('form', { form: 'abc' })], { 'steps.0.preferences.form': ['The form field must be a valid UUID.'] }],
  [
    'AccessNI without type and pin',
    [step('check.hscni_access_ni', {})],
    { 'steps.0.preferences.type': ['The type field is required.'], 'steps.0.preferences.pin_number': ['The pin number field is required.'] },
  ],
  ['AccessNI type', [step('check.hscni_access_ni', { type: 'basic', pin_number: '123456' })], { 'steps.0.preferences.type': ['The selected type is invalid.'] }],
  ['AccessNI short pin', [step('check.hscni_access_ni', { type: 'standard', pin_number: '12345' })], { 'steps.0.preferences.pin_number': ['The pin number field must be 6 digits.'] }],
  ['AccessNI pin letters', [step('check.hscni_access_ni', { type: 'standard', pin_number: '12a456' })], { 'steps.0.preferences.pin_number': ['The pin number field must be 6 digits.'] }],
  ['AccessNI pin a number', [step('check.hscni_access_ni', { type: 'standard', pin_number: 123456 })], { 'steps.0.preferences.pin_number': ['The pin number field must be a string.'] }],
  ['AccessNI barring', [step('check.hscni_access_ni', { type: 'enhanced_barring', pin_number: '123456', barring_adults: 'y' })], { 'steps.0.preferences.barring_adults': ['The barring adults field must be true or false.'] }],
  ['NHS ESR without preferences', [step('check.nhs_esr')], { 'steps.0.preferences': ['The preferences field is required.'] }],
  ['NHS ESR none', [step('check.nhs_esr', {})], { 'steps.0.preferences': ['At least one of GMC, NMC, HCP, GDC or GPC must be true.'] }],
  ['NHS ESR all false', [step('check.nhs_esr', { GMC: false, NMC: false, HCP: false, GDC: false, GPC: false })], { 'steps.0.preferences': ['At least one of GMC, NMC, HCP, GDC or GPC must be true.'] }],
  ['NHS ESR not boolean', [step('check.nhs_esr', { GMC: 'yes', NMC: true })], { 'steps.0.preferences.GMC': ['The GMC field must be true or false.'] }],
  [
    'referencing without its fields',
    [step('check.employment_referencing', {})],
    {
      'steps.0.preferences.type': ['The type field is required.'],
      'steps.0.preferences.timeframe': ['The timeframe field is required.'],
      'steps.0.preferences.gap_threshold': ['The gap threshold field is required.'],
    },
  ],
  [
    'referencing values',
    [step('check.employment_referencing', { type: 'manual', timeframe: 11, gap_threshold: 10, supporting_evidence: ['employment', 'payslips'], verification_method: 'manual', review_references: 'true', referee_form: 'abc' })],
    {
      'steps.0.preferences.type': ['The selected type is invalid.'],
      'steps.0.preferences.timeframe': ['The timeframe field must not be greater than 10.'],
      'steps.0.preferences.gap_threshold': ['The gap threshold field must be a multiple of 7.'],
      'steps.0.preferences.supporting_evidence.1': ['The selected supporting evidence is invalid.'],
      'steps.0.preferences.verification_method': ['The selected verification method is invalid.'],
      'steps.0.preferences.review_references': ['The review references field must be true or false.'],
      'steps.0.preferences.referee_form': ['The referee form field must be a valid UUID.'],
    },
  ],
  [
    'referencing lower bounds',
    [step('check.employment_referencing', { type: 'standard', timeframe: 0, gap_threshold: 0 })],
    { 'steps.0.preferences.timeframe': ['The timeframe field must be at least 1.'], 'steps.0.preferences.gap_threshold': ['The gap threshold field must be at least 7.'] },
  ],
  [
    'referencing upper bound and integers',
    [step('check.employment_referencing', { type: 'standard', timeframe: 2.5, gap_threshold: 189 })],
    { 'steps.0.preferences.timeframe': ['The timeframe field must be an integer.'], 'steps.0.preferences.gap_threshold': ['The gap threshold field must not be greater than 182.'] },
  ],
  ['reference without years', [step('check.reference', {})], { 'steps.0.preferences.years': ['The years field is required.'] }],
  ['reference years low', [step('check.reference', { years: 0 })], { 'steps.0.preferences.years': ['The years field must be at least 1.'] }],
  ['reference years high', [step('check.reference', { years: 11 })], { 'steps.0.preferences.years': ['The years field must not be greater than 10.'] }],
  [
    'banking information',
    [step('check.banking_information', { balance: 'y', transactions: 2, custom_form_template_id: 'abc' })],
    {
      'steps.0.preferences.balance': ['The balance field must be true or false.'],
      'steps.0.preferences.transactions': ['The selected transactions is invalid.'],
      'steps.0.preferences.custom_form_template_id': ['The custom form template id field must be a valid UUID.'],
    },
  ],
  ['banking transactions true', [step('check.banking_information', { transactions: true })], { 'steps.0.preferences.transactions': ['The selected transactions is invalid.'] }],
  [
    'watchlist',
    [step('check.watchlist', { silent: 'y', monitor: 2, search_profile: 'peps', all_entity_types: 'yes' })],
    {
      'steps.0.preferences.silent': ['The silent field must be true or false.'],
      'steps.0.preferences.monitor': ['The selected monitor is invalid.'],
      'steps.0.preferences.search_profile': ['The selected search profile is invalid.'],
      'steps.0.preferences.all_entity_types': ['The all entity types field must be true or false.'],
    },
  ],
  ['watchlist monitor true', [step('check.watchlist', { monitor: true })], { 'steps.0.preferences.monitor': ['The selected monitor is invalid.'] }],
  [
    'dummy lower bounds',
    [step('check.dummy', { payment_amount: 0, credit_cost: -1, cancel: 'x', replay: -1, state: 'done' })],
    {
      'steps.0.preferences.payment_amount': ['The payment amount field must be at least 1.'],
      'steps.0.preferences.credit_cost': ['The credit cost field must be at least 0.'],
      'steps.0.preferences.cancel': ['The cancel field must be true or false.'],
      'steps.0.preferences.replay': ['The replay field must be true or false.'],
      'steps.0.preferences.state': ['The selected state is invalid.'],
    },
  ],
  [
    'dummy upper bounds',
    [step('check.dummy', { payment_amount: 10001, credit_cost: 101 })],
    { 'steps.0.preferences.payment_amount': ['The payment amount field must not be greater than 10000.'], 'steps.0.preferences.credit_cost': ['The credit cost field must not be greater than 100.'] },
  ],
  ['dummy amounts are integers', [step('check.dummy', { payment_amount: 9.99, credit_cost: '5.0' })], {
    'steps.0.preferences.payment_amount': ['The payment amount field must be an integer.'],
    'steps.0.preferences.credit_cost': ['The credit cost field must be an integer.'],
  }],
  [
    'several steps, keyed by index',
    [step('check.identity'), step('check.photo_id', {}), step('check.watchlist'), step('check.reference', { years: 0 })],
    { 'steps.1.preferences.report_type': ['The report type field is required.'], 'steps.3.preferences.years': ['The years field must be at least 1.'] },
  ],
]

describe('422: preferences the contract refuses', () => {
  it.each(INVALID)('%s', async (_what, steps, errors) => {
    const res = await createTestMock().api().post('/steps', steps === undefined ? {} : { steps })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
  })

  it.each(INVALID.filter(([, steps]) => Array.isArray(steps) && steps.length > 0))('%s: a record create keys it the same', (_what, steps, errors) => {
    const validate = contracts.bodyValidator('records.create')
    const body = normalizeInput({ client: 1, notification: 'email', steps })
    expect(validateBody(validate as ValidateFunction, body)).toBe(false)
    expect(toValidationErrors(validate?.errors, body)).toEqual(errors)
  })

  it("a record template's preset steps follow the same contract", () => {
    const validate = contracts.compile({ $id: 'https://contracts.ivs-mock.local/test/preset-step.json', $ref: 'https://contracts.ivs-mock.local/schemas/record-template.json#/$defs/presetStep' })
    expect(validate({ object: 'preset_step', type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'] } })).toBe(true)
    expect(validate({ object: 'preset_step', type: 'check.photo_id', preferences: { report_type: 'standard' } })).toBe(false)
    expect(validate({ object: 'preset_step', type: 'check.watchlist', preferences: { monitor: 2 } })).toBe(false)
  })
})

/** [what, steps, exact 422 body]: references to what the team's library does not hold (no form templates are seeded). */
const UNKNOWN_REFERENCES: Array<[string, unknown[], Record<string, string[]>]> = [
  ['a document request template', [step('document.request', { template: UNKNOWN })], { 'steps.0.preferences.template': ['The selected template is invalid.'] }],
  [
    'a document request template beside a title',
    [step('document.request', { template: UNKNOWN, title: 'Payslip', instructions: 'Latest.' })],
    { 'steps.0.preferences.template': ['The selected template is invalid.'] },
  ],
  ['a document transfer template', [step('document.transfer', { template: UNKNOWN })], { 'steps.0.preferences.template': ['The selected template is invalid.'] }],
  ['a document transfer attachment', [step('document.transfer', { name: 'Contract', attachment: UNKNOWN })], { 'steps.0.preferences.attachment': ['The selected attachment is invalid.'] }],
  ['a form template', [step('form', { form: FORM_TEMPLATE })], { 'steps.0.preferences.form': ['The selected form is invalid.'] }],
  [
    'a referee form',
    [step('check.employment_referencing', { type: 'automated_references', timeframe: 3, gap_threshold: 28, referee_form: UUID })],
    { 'steps.0.preferences.referee_form': ['The selected referee form is invalid.'] },
  ],
  ['a custom form', [step('check.banking_information', { custom_form_template_id: UUID })], { 'steps.0.preferences.custom_form_template_id': ['The selected custom form template id is invalid.'] }],
  [
    'every failing step at once',
    [step('check.identity'), step('form', { form: FORM_TEMPLATE }), step('document.request', { title: 'Payslip', instructions: 'Latest.' }), step('document.transfer', { template: UNKNOWN })],
    { 'steps.1.preferences.form': ['The selected form is invalid.'], 'steps.3.preferences.template': ['The selected template is invalid.'] },
  ],
]

describe("422: references to the team's library", () => {
  it.each(UNKNOWN_REFERENCES)('%s', async (_what, steps, errors) => {
    const res = await createTestMock().api().post('/steps', { steps })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
  })

  it("come in the same 422 as the contract's errors, every step in order (docs/behaviour-notes.md \"Validation (422)\")", async () => {
    const res = await createTestMock().api().post('/steps', { steps: [step('form', { form: UUID }), step('check.reference', {})] })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ 'steps.0.preferences.form': ['The selected form is invalid.'], 'steps.1.preferences.years': ['The years field is required.'] })
  })

  it('ignores the references a type does not use: a referee form outside automated references', async () => {
    const res = await createTestMock().api().post('/steps', {
      steps: [step('check.employment_referencing', { type: 'standard', timeframe: 3, gap_threshold: 28, referee_form: UUID }), step('check.banking_information', { custom_form_template_id: null })],
    })
    expect(res.status).toBe(200)
  })

  it('keys them under the name the caller gives the list', () => {
    const { ctx } = acme()
    expect(refusal(() => prepareSteps(ctx, [step('check.identity'), step('document.request', { template: UNKNOWN })], 'presets.steps'))).toEqual({
      status: 422,
      body: { 'presets.steps.1.preferences.template': ['The selected template is invalid.'] },
    })
  })

  it("finds the team's own enabled templates and documents and its attachments, nothing else", () => {
    const { mock, ctx } = acme()
    const team = ctx.team
    const library = stepLibrary(team)
    const [proofOfAddress, , , p60] = team.documentTemplates.all()
    const [handbook, , , oldNotice] = team.libraryDocuments.all()
    expect(library.documentTemplate(proofOfAddress?.id ?? 0)).toEqual({ title: 'Proof of address', instructions: proofOfAddress?.content })
    expect(library.libraryDocument(handbook?.id ?? 0)).toEqual({ name: 'Employee handbook', attachment: handbook?.attachment })
    expect(library.attachment(handbook?.attachment ?? 0)).toEqual({ id: handbook?.attachment })
    const other = [...mock.store.allTeams()][1]
    expect([
      library.documentTemplate(p60?.id ?? 0),
      library.libraryDocument(oldNotice?.id ?? 0),
      library.documentTemplate(other?.documentTemplates.all()[0]?.id ?? 0),
      library.libraryDocument(other?.libraryDocuments.all()[0]?.id ?? 0),
      library.attachment(other?.attachments.all()[0]?.id ?? 0),
      library.documentTemplate(UNKNOWN),
      library.libraryDocument(UNKNOWN),
      library.attachment(UNKNOWN),
      library.formTemplate(FORM_TEMPLATE),
    ]).toEqual(Array.from({ length: 9 }, () => undefined))
  })

  it("accepts the team's library through POST /steps and a record create, and refuses disabled or another team's items", async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const [proofOfAddress, , , p60] = team.team.documentTemplates.all()
    const [handbook, , , oldNotice] = team.team.libraryDocuments.all()
    const steps = [
      step('document.request', { template: proofOfAddress?.id }),
      step('document.transfer', { template: handbook?.id, require_return: true }),
      step('document.transfer', { name: 'Handbook again', attachment: handbook?.attachment }),
    ]
    const valid = await api.post('/steps', { steps })
    expect(valid.status).toBe(200)
    expect(valid.body.steps.map((entry: { cost: number }) => entry.cost)).toEqual([0, 0, 0])
    const client = await api.post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
    const record = await api.post('/records', { client: client.body.id, notification: false, steps })
    expect(record.status, record.text).toBe(201)
    const documents = await api.get(`/records/${record.body.id}/documents`)
    expect(documents.body.data.map((document: { name: string; attachments: number[] | null }) => [document.name, document.attachments])).toEqual([
      ['Proof of address', null],
      ['Employee handbook', [handbook?.attachment]],
      ['Handbook again', [handbook?.attachment]],
    ])
    const acmeAttachment = [...mock.store.allTeams()][0]?.attachments.all()[0]?.id
    const refused = await api.post('/steps', {
      steps: [step('document.request', { template: p60?.id }), step('document.transfer', { template: oldNotice?.id }), step('document.transfer', { name: 'Theirs', attachment: acmeAttachment })],
    })
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({
      'steps.0.preferences.template': ['The selected template is invalid.'],
      'steps.1.preferences.template': ['The selected template is invalid.'],
      'steps.2.preferences.attachment': ['The selected attachment is invalid.'],
    })
  })

  it('prepares the open types with nothing to look up', () => {
    const { ctx } = acme()
    expect(prepareSteps(ctx, OPEN_TYPES.map((type) => minimalStep(type))).map((p) => p.type)).toEqual([...OPEN_TYPES])
  })
})
