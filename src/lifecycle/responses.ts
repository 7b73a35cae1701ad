// The response a check returns when its result comes back (GET /checks/{id}?expand=response). When
// the result comes back the lifecycle engine keeps what the response is made from in check.response
// (a CheckResponseRecipe: when, a seed, the date of birth, a photo ID's images), and responseOf()
// makes it with checkResponse() each time it is read. Photo ID follows the spec and FACTS.md; the
// other types' shapes are not shown by the spec, so they are the mock's, each a schema in
// contracts/schemas/check-response-<type>.json.
//
// Outcome -> check status (the engine) -> response result (records/check-results.ts):
//   clear    -> accepted -> clear
//   consider -> accepted -> consider
//   refer    -> refer    -> consider (the provider's findings need a look, as for consider; the
//                                     check's status is what says refer)
//   rejected -> rejected -> rejected
//   failed   -> failed   -> no response (null)
//   paused   -> paused   -> no response (null)
import type {
  CheckResponseBankingInformationJson,
  CheckResponseCommonResultJson,
  CheckResponseCommonSubjectJson,
  CheckResponseCreditJson,
  CheckResponseCriminalRecordJson,
  CheckResponseDummyJson,
  CheckResponseEmploymentReferencingJson,
  CheckResponseHscniAccessNiJson,
  CheckResponseIdentityJson,
  CheckResponseNhsEsrJson,
  CheckResponseReferenceJson,
  CheckResponseThorntonsOnboardingJson,
  CheckResponseVideoJson,
  CheckResponseWatchlistJson,
} from '../contracts/generated.ts'
import { toDate, toTimestamp } from '../kernel/clock.ts'
import { createRandom, type Random } from '../kernel/random.ts'
import { hasResponse, responseResult, type CheckRow } from '../resources/records/index.ts'
import type { Team } from '../store/world.ts'
import { digits, letters, pick } from './documents.ts'
import { photoIdResponse, withCapture } from './photo-id.ts'
import type { CheckResponseInput, CheckType } from './response-input.ts'

export type { CheckResponseInput, CheckType } from './response-input.ts'

export type CheckResponse = Record<string, unknown>

const DAY = 86_400_000

/** A stable 32-bit hash (FNV-1a). */
function hash(text: string): number {
  let value = 0x811c9dc5
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0
  return value
}

/** The client's date of birth, or one derived from who they are (so every check of theirs agrees). */
export function dateOfBirth(input: Pick<CheckResponseInput, 'dob' | 'name' | 'email' | 'now'>): string {
  if (input.dob !== null) return input.dob
  const days = 22 * 365 + (hash(`${input.name.first_name} ${input.name.last_name} ${input.email}`) % (42 * 365))
  return toDate(new Date(input.now.getTime() - days * DAY))
}

const daysFrom = (now: Date, days: number) => toDate(new Date(now.getTime() + days * DAY))

const oneOf = <T extends string | number | boolean>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback

const integerIn = (value: unknown, min: number, max: number, fallback: number): number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? (value as number) : fallback

/** Two decimals, from an integer range of hundredths. */
const hundredths = (random: Random, min: number, max: number) => random.int(min, max) / 100

/** Builds one type's response; each is typed by its contract (check-response-<type>.json). */
type Builder = (input: CheckResponseInput, context: { dob: string; result: Exclude<CheckResponseCommonResultJson, null>; subject: CheckResponseCommonSubjectJson }) => object

const REFEREES = [
  ['Helen Marsh', 'Harbour Street Surgery'],
  ['David Okoye', 'Northwind Logistics Ltd'],
  ['Fiona Blake', 'St Anne\'s College'],
  ['Rajesh Patel', 'Greenfield Housing Association'],
  ['Claire Donnelly', 'Brightwater Care Homes'],
  ['Owen Hughes', 'Castle Engineering plc'],
] as const

const EMPLOYERS = [
  ['Northwind Logistics Ltd', 'Operations Coordinator'],
  ['Brightwater Care Homes', 'Senior Care Assistant'],
  ['Castle Engineering plc', 'Project Engineer'],
  ['Harbour Street Surgery', 'Practice Administrator'],
  ['Greenfield Housing Association', 'Housing Officer'],
  ['Riverside Retail Group', 'Store Supervisor'],
] as const

const BANKS = ['Barclays', 'HSBC UK', 'Lloyds Bank', 'NatWest', 'Santander UK', 'Nationwide', 'Monzo', 'Starling Bank']

const REGISTERS = ['GMC', 'NMC', 'HCP', 'GDC', 'GPC'] as const

/** A registration number in each register's format. */
function registrationNumber(random: Random, register: (typeof REGISTERS)[number]): string {
  switch (register) {
    case 'GMC':
      return digits(random, 7)
    case 'NMC':
      return `${digits(random, 2)}${letters(random, 1)}${digits(random, 4)}${letters(random, 1)}`
    case 'HCP':
      return `${pick(random, ['PH', 'OT', 'RA', 'SL', 'DT', 'PA'])}${digits(random, 6)}`
    case 'GDC':
      return digits(random, 6)
    case 'GPC':
      return digits(random, 7)
  }
}

const identity: Builder = (input, { result, subject }): CheckResponseIdentityJson => {
  const matched = { clear: [true, true, true], consider: [false, true, false], rejected: [false, false, false] }[result]
  return {
    object: 'check_response.identity',
    status: 'complete',
    result,
    subject,
    sources: [
      { source: 'electoral_register', matched: matched[0] as boolean },
      { source: 'credit_reference_agency', matched: matched[1] as boolean },
      { source: 'telephone_directory', matched: matched[2] as boolean },
      { source: 'mortality_register', matched: result === 'rejected' },
    ],
    match_count: matched.filter(Boolean).length,
    alerts: result === 'clear' ? [] : result === 'consider' ? ['single_source'] : ['no_match', 'deceased'],
  }
}

const watchlist: Builder = (input, { result, subject, dob }): CheckResponseWatchlistJson => {
  const profile = oneOf(input.preferences.search_profile, ['sanctions', 'peps_sanctions', 'peps_sanctions_media', 'peps_sanctions_media_extended'] as const, 'peps_sanctions_media')
  const monitor = oneOf(input.preferences.monitor, [1, 3, false] as const, false)
  const fullName = [subject.first_name, subject.middle_name, subject.last_name].filter(Boolean).join(' ')
  const matches: CheckResponseWatchlistJson['matches'] = []
  if (result === 'consider') {
    // A namesake to review: no date of birth on the entry, so it may or may not be the client.
    const pep = profile !== 'sanctions'
    matches.push({
      id: input.random.uuid(),
      name: fullName,
      date_of_birth: null,
      countries: pep ? ['GB'] : [pick(input.random, ['RU', 'BY', 'IR', 'SY'])],
      match_types: pep ? ['pep'] : ['sanction'],
      score: hundredths(input.random, 55, 79),
    })
  } else if (result === 'rejected') {
    // Same name and date of birth on a sanctions list.
    matches.push({ id: input.random.uuid(), name: fullName, date_of_birth: dob, countries: ['GB'], match_types: ['sanction'], score: 1 })
  }
  return { object: 'check_response.watchlist', status: 'complete', result, search_profile: profile, monitor, subject, total_hits: matches.length, matches }
}

const credit: Builder = (input, { result, subject }): CheckResponseCreditJson => {
  const score = result === 'clear' ? input.random.int(881, 999) : result === 'consider' ? input.random.int(721, 880) : input.random.int(150, 560)
  const band = score > 960 ? 'excellent' : score > 880 ? 'good' : score > 720 ? 'fair' : score > 560 ? 'poor' : 'very_poor'
  return {
    object: 'check_response.credit',
    status: 'complete',
    result,
    subject,
    score,
    band,
    county_court_judgments: result === 'consider' ? 1 : 0,
    insolvencies: result === 'rejected' ? 1 : 0,
    defaults: result === 'rejected' ? 2 : 0,
    on_electoral_register: result !== 'rejected',
  }
}

/** A certificate, or the reason there is none: what DBS, Disclosure Scotland and AccessNI answer alike. */
function disclosureOf(input: CheckResponseInput, result: Exclude<CheckResponseCommonResultJson, null>) {
  if (result === 'rejected') {
    return {
      certificate_number: null,
      issue_date: null,
      disclosure: null,
      reason: 'The application was rejected by the disclosure service: the identity details given did not match its records.',
    }
  }
  return {
    certificate_number: `00${digits(input.random, 10)}`,
    issue_date: toDate(input.now),
    disclosure: result === 'clear' ? ('no_trace' as const) : ('information_disclosed' as const),
    reason: result === 'clear' ? null : 'The certificate discloses information: read it before making a decision.',
  }
}

const criminalRecord: Builder = (input, { result }): CheckResponseCriminalRecordJson => ({
  object: 'check_response.criminal_record',
  status: 'complete',
  result,
  region: oneOf(input.preferences.region, ['england', 'scotland'] as const, 'england'),
  level: oneOf(input.preferences.type, ['basic', 'standard', 'enhanced'] as const, 'basic'),
  ...disclosureOf(input, result),
})

const hscniAccessNi: Builder = (input, { result }): CheckResponseHscniAccessNiJson => {
  const level = oneOf(input.preferences.type, ['standard', 'enhanced', 'enhanced_barring'] as const, 'standard')
  const barred = (asked: unknown) => (asked === true ? ('not_barred' as const) : null)
  return {
    object: 'check_response.hscni_access_ni',
    status: 'complete',
    result,
    level,
    ...disclosureOf(input, result),
    barring:
      level === 'enhanced_barring' && result !== 'rejected'
        ? { adults: barred(input.preferences.barring_adults), children: barred(input.preferences.barring_children) }
        : null,
  }
}

const employmentReferencing: Builder = (input, { result }): CheckResponseEmploymentReferencingJson => {
  const { random, now } = input
  const timeframe = integerIn(input.preferences.timeframe, 1, 10, 3)
  const threshold = integerIn(input.preferences.gap_threshold, 7, 182, 28)
  // The current job covers the last part of the timeframe, the previous one the rest (and before).
  const currentStart = Math.round(timeframe * 365 * 0.45)
  const gapDays = result === 'consider' ? threshold + random.int(14, 60) : 0
  const previousEnd = currentStart + 1 + gapDays
  const [current, previous] = [pick(random, EMPLOYERS.slice(0, 3)), pick(random, EMPLOYERS.slice(3))]
  return {
    object: 'check_response.employment_referencing',
    status: 'complete',
    result,
    type: oneOf(input.preferences.type, ['standard', 'automated_references', 'instant_verification'] as const, 'standard'),
    timeframe,
    gap_threshold: threshold,
    employments: [
      { employer: current[0], position: current[1], start_date: daysFrom(now, -currentStart), end_date: null, verification: 'verified' },
      {
        employer: previous[0],
        position: previous[1],
        start_date: daysFrom(now, -(timeframe * 365 + random.int(60, 900))),
        end_date: daysFrom(now, -previousEnd),
        verification: result === 'rejected' ? 'discrepancy' : 'verified',
      },
    ],
    gaps: gapDays > 0 ? [{ start_date: daysFrom(now, -previousEnd + 1), end_date: daysFrom(now, -currentStart - 1), days: gapDays }] : [],
  }
}

const reference: Builder = (input, { result }): CheckResponseReferenceJson => {
  const { random, now } = input
  const first = random.int(0, REFEREES.length - 1)
  const chosen = [REFEREES[first], REFEREES[(first + 1 + random.int(0, REFEREES.length - 2)) % REFEREES.length]] as Array<(typeof REFEREES)[number]>
  const received = (hoursAgo: number) => toTimestamp(new Date(now.getTime() - hoursAgo * 3_600_000))
  return {
    object: 'check_response.reference',
    status: 'complete',
    result,
    years: integerIn(input.preferences.years, 1, 10, 3),
    references: chosen.map(([referee, organisation], index) => {
      const email = `${referee.toLowerCase().replace(/[^a-z]+/g, '.')}@${organisation.toLowerCase().replace(/[^a-z]+/g, '-').replace(/-+$/, '')}.example.com`
      const last = index === chosen.length - 1
      if (last && result === 'consider') return { referee, organisation, email, status: 'declined', satisfactory: null, received_at: null }
      return { referee, organisation, email, status: 'received', satisfactory: !(last && result === 'rejected'), received_at: received(random.int(2, 96)) }
    }),
  }
}

const bankingInformation: Builder = (input, { result, subject }): CheckResponseBankingInformationJson => {
  const { random } = input
  const holder =
    result === 'clear'
      ? `${subject.first_name} ${subject.last_name}`
      : result === 'consider'
        ? `${subject.first_name.charAt(0)} ${subject.last_name}`
        : pick(random, ['J Smith', 'Mark Taylor', 'S Brown', 'Emma Wilson'])
  const months = oneOf(input.preferences.transactions, [1, 3, 6, 12, false] as const, false)
  return {
    object: 'check_response.banking_information',
    status: 'complete',
    result,
    account: {
      holder_name: holder.toUpperCase(),
      bank: pick(random, BANKS),
      sort_code: `${digits(random, 2)}-${digits(random, 2)}-${digits(random, 2)}`,
      account_number: `****${digits(random, 4)}`,
    },
    name_match: result === 'clear' ? 'match' : result === 'consider' ? 'partial' : 'no_match',
    balance: input.preferences.balance === true ? { amount: random.int(5_000, 900_000) / 100, currency: 'GBP', as_of: toTimestamp(input.now) } : null,
    transactions: months === false ? null : { months, count: months * random.int(25, 70), average_monthly_income: random.int(180_000, 420_000) / 100, currency: 'GBP' },
  }
}

const nhsEsr: Builder = (input, { result, subject }): CheckResponseNhsEsrJson => {
  const asked = REGISTERS.filter((register) => input.preferences[register] === true)
  const registers = asked.length > 0 ? asked : (['GMC'] as const)
  return {
    object: 'check_response.nhs_esr',
    status: 'complete',
    result,
    subject,
    registrations: registers.map((register, index) => {
      if (index === 0 && result === 'rejected') return { register, registration_number: null, status: 'not_found', expires_on: null }
      return {
        register,
        registration_number: registrationNumber(input.random, register),
        status: index === 0 && result === 'consider' ? 'registered_with_conditions' : 'registered',
        expires_on: daysFrom(input.now, input.random.int(30, 360)),
      }
    }),
  }
}

const video: Builder = (input, { result }): CheckResponseVideoJson => {
  const { random } = input
  return {
    object: 'check_response.video',
    status: 'complete',
    result,
    duration_seconds: random.int(8, 25),
    liveness: result === 'rejected' ? { result: 'consider', score: hundredths(random, 5, 25) } : { result: 'clear', score: hundredths(random, 90, 99) },
    face_match:
      result === 'rejected'
        ? { result: 'unidentified', score: 0 }
        : result === 'consider'
          ? { result: 'consider', score: hundredths(random, 40, 65) }
          : { result: 'clear', score: hundredths(random, 88, 99) },
    media: [],
  }
}

const thorntonsOnboarding: Builder = (_input, { result }): CheckResponseThorntonsOnboardingJson => ({
  object: 'check_response.thorntons_onboarding',
  status: 'complete',
  result,
  risk_rating: result === 'clear' ? 'low' : result === 'consider' ? 'medium' : 'high',
  components: [
    { name: 'identity', result: 'clear' },
    { name: 'address', result: 'clear' },
    { name: 'watchlist', result: result === 'rejected' ? 'rejected' : 'clear' },
    { name: 'source_of_funds', result: result === 'consider' ? 'consider' : 'clear' },
  ],
})

const dummy: Builder = (input, { result }): CheckResponseDummyJson => {
  const state = input.outcome === 'refer' ? 'refer' : input.outcome === 'rejected' ? 'rejected' : 'accepted'
  return { object: 'check_response.dummy', status: 'complete', result, state, message: `The dummy check was ${state === 'refer' ? 'referred' : state} (outcome ${input.outcome}).` }
}

const BUILDERS: Record<Exclude<CheckType, 'photo_id'>, Builder> = {
  identity,
  watchlist,
  credit,
  criminal_record: criminalRecord,
  employment_referencing: employmentReferencing,
  reference,
  banking_information: bankingInformation,
  hscni_access_ni: hscniAccessNi,
  nhs_esr: nhsEsr,
  video,
  thorntons_onboarding: thorntonsOnboarding,
  dummy,
}

/**
 * The response a check returns when its result comes back: null for failed and paused checks,
 * otherwise check_response.<type> (see the table at the top of this file), valid against
 * contracts/schemas/check-response-<type>.json.
 */
export function checkResponse(input: CheckResponseInput): CheckResponse | null {
  const { outcome } = input
  if (!hasResponse(outcome)) return null
  const dob = dateOfBirth(input)
  const result = responseResult(outcome)
  if (input.type === 'photo_id') return { ...photoIdResponse(input, dob, result) }
  const build = BUILDERS[input.type] as Builder | undefined
  if (!build) throw new Error(`checkResponse: no response for check type ${String(input.type)}`)
  const { first_name, middle_name, last_name } = input.name
  return { ...build(input, { dob, result, subject: { first_name, middle_name, last_name, date_of_birth: dob } }) }
}

/**
 * A check's response, made from its recipe as it was when the result came back: the record's name
 * and email, the step's preferences with what the client showed, the recipe's moment, date of birth
 * and seed. Null while the check has none.
 */
export function responseOf(team: Team, check: CheckRow): CheckResponse | null {
  const recipe = check.response
  const record = team.records.get(check.record)
  if (recipe === null || check.outcome === null || !record) return null
  const step = record.steps.find((row) => row.id === check.step)
  const response = checkResponse({
    type: check.type as CheckType,
    outcome: check.outcome,
    preferences: withCapture(step?.preferences ?? {}, check.capture),
    name: record.name,
    email: record.email,
    dob: recipe.dob,
    random: createRandom(recipe.seed),
    now: new Date(recipe.at),
  })
  if (response !== null && recipe.media) response.media = recipe.media
  return response
}
