// Plausible answers for a form the mock fills in (a client submitting a form step, the seed's
// internal forms): what the client's record holds when the question asks for it (name, email,
// phone, date of birth, address), else a canned answer picked by what the label asks. Picked with
// the context's seeded random, so the same run gives the same answers.
import { toDate } from '../../kernel/clock.ts'
import type { Random } from '../../kernel/random.ts'
import type { SampleName } from '../attachments/index.ts'
import type { ClientRow } from '../clients/index.ts'

export interface AnswerContext {
  client: ClientRow
  random: Random
  /** When the form is filled in: dates asked for lie a little after it. */
  now: Date
}

const DAY = 86_400_000

const pick = <T>(random: Random, items: readonly T[]): T => items[random.int(0, items.length - 1)] as T

/** A yes with the given chance in 100. */
export const chance = (random: Random, percent: number): boolean => random.int(1, 100) <= percent

const PEOPLE = ['Margaret Hughes', 'David Okafor', 'Sarah Bennett', 'James Whitfield', 'Priya Patel', 'Tom Gallagher', 'Helen Murray']
const RELATIONSHIPS = ['Spouse', 'Partner', 'Parent', 'Sibling', 'Friend']
const JOBS = ['Care assistant', 'Warehouse operative', 'Accounts assistant', 'Registered nurse', 'Software developer', 'Customer service adviser']
const EMPLOYERS = ['Northgate Logistics Ltd', 'Brightwell Care Homes', 'Harper & Lowe LLP', 'Riverside NHS Foundation Trust', 'Castlefield Retail Ltd']
const NATIONALITIES = ['British', 'British', 'British', 'Irish', 'Polish', 'Indian']
const FUNDS = ['Salary from employment', 'Savings', 'Sale of a property', 'Inheritance', 'Business profits']
const POSTCODES = ['M1 4BT', 'LS1 5DL', 'BS1 6QA', 'EH2 2ER', 'CF10 1EP']
const STREETS = ['12 Albert Road', '4 Church Lane', '27 Victoria Street', '9 Mill Close', '31 Park Avenue']
const TOWNS = ['Manchester', 'Leeds', 'Bristol', 'Edinburgh', 'Cardiff']
const SHORT = ['Yes', 'No', 'Not applicable', 'None']
const HEALTH = [
  'No conditions to declare.',
  'Mild asthma, controlled with an inhaler. It does not affect my work.',
  'Type 2 diabetes, managed with diet and medication.',
  'Hay fever in the summer months; nothing else.',
]
const ADJUSTMENTS = ['None needed, thank you.', 'A chair with back support would help.', 'Step-free access to the building, please.']
const EXPERIENCE = [
  'Three years as a care assistant in a residential home, then two years in domiciliary care.',
  'Worked in retail for four years, the last two as a team leader.',
  'Recently graduated; summer placements in two accountancy firms.',
]
const NOTES = [
  'Happy to provide more detail if needed.',
  'Please contact me by email in the first instance.',
  'Nothing further to add.',
  'I can start after giving four weeks’ notice to my current employer.',
]

/** The client's address on one line, or a made-up one. */
function addressLine({ client, random }: AnswerContext): string {
  const address = client.address
  const parts = address ? [address.unit, address.house_name, [address.house_number, address.street_name].filter(Boolean).join(' '), address.city, address.postcode] : []
  const line = parts.filter(Boolean).join(', ')
  return line !== '' ? line : `${pick(random, STREETS)}, ${pick(random, TOWNS)}, ${pick(random, POSTCODES)}`
}

const fullName = (client: ClientRow) => [client.name.first_name, client.name.middle_name, client.name.last_name].filter(Boolean).join(' ')

type Rule = [RegExp, (context: AnswerContext) => string]

/** Short answers by what the label asks, the first that matches. */
const TEXT_RULES: Rule[] = [
  [/e-?mail/i, ({ client }) => client.email],
  [/next of kin|emergency|referee|manager|contact name|spouse|partner'?s name/i, ({ random }) => pick(random, PEOPLE)],
  [/first name|forename|given name/i, ({ client }) => client.name.first_name],
  [/last name|surname|family name/i, ({ client }) => client.name.last_name],
  [/employer|company|organisation/i, ({ random }) => pick(random, EMPLOYERS)],
  [/job|position|\brole\b|occupation/i, ({ random }) => pick(random, JOBS)],
  [/\bname\b/i, ({ client }) => fullName(client)],
  [/birth|\bdob\b/i, ({ client, random }) => client.dob ?? `19${random.int(60, 99)}-0${random.int(1, 9)}-${String(random.int(10, 28))}`],
  [/phone|mobile|telephone/i, ({ client, random }) => client.mobile ?? client.landline ?? `07700 900${random.int(100, 999)}`],
  [/post ?code/i, ({ client, random }) => client.address?.postcode ?? pick(random, POSTCODES)],
  [/address/i, addressLine],
  [/national insurance|\bni number/i, ({ client, random }) => client.national_insurance_number ?? `QQ${random.int(100_000, 999_999)}C`],
  [/nationality/i, ({ random }) => pick(random, NATIONALITIES)],
  [/relationship/i, ({ random }) => pick(random, RELATIONSHIPS)],
  [/source of (funds|wealth)/i, ({ random }) => pick(random, FUNDS)],
  [/sort code/i, ({ random }) => `${random.int(10, 99)}-${random.int(10, 99)}-${random.int(10, 99)}`],
  [/account number/i, ({ random }) => String(random.int(10_000_000, 99_999_999))],
  [/date/i, ({ now, random }) => toDate(new Date(now.getTime() + random.int(7, 60) * DAY))],
  [/reference|number/i, ({ random }) => `REF-${random.int(100_000, 999_999)}`],
]

/** Longer answers by what the label asks. */
const TEXTAREA_RULES: Rule[] = [
  [/medical|health|condition|medication|allerg|disabilit/i, ({ random }) => pick(random, HEALTH)],
  [/adjustment|support|access/i, ({ random }) => pick(random, ADJUSTMENTS)],
  [/address/i, addressLine],
  [/experience|history|previous/i, ({ random }) => pick(random, EXPERIENCE)],
  [/source of (funds|wealth)/i, ({ random }) => `${pick(random, FUNDS)}, paid into my current account.`],
]

const byRules = (rules: readonly Rule[], label: string, context: AnswerContext): string | undefined => rules.find(([pattern]) => pattern.test(label))?.[1](context)

export function textAnswer(label: string, context: AnswerContext): string {
  return byRules(TEXT_RULES, label, context) ?? pick(context.random, SHORT)
}

export function textareaAnswer(label: string, context: AnswerContext): string {
  return byRules(TEXTAREA_RULES, label, context) ?? pick(context.random, NOTES)
}

export function radioAnswer(options: readonly string[], random: Random): string {
  return pick(random, options)
}

/** One to three of the options, in their order. */
export function checkboxAnswer(options: readonly string[], random: Random): [string, ...string[]] {
  const wanted = random.int(1, Math.min(3, options.length))
  const chosen = new Set<string>()
  while (chosen.size < wanted) chosen.add(pick(random, options))
  return options.filter((option) => chosen.has(option)) as [string, ...string[]]
}

/** The sample file a client uploads for a document the label (or its template's name) describes. */
export function documentSample(label: string): SampleName {
  if (/passport|photo|identity|\bid\b/i.test(label)) return 'passport'
  if (/driving/i.test(label)) return 'drivingLicence'
  if (/bank|statement|funds|wealth|payslip/i.test(label)) return 'bankStatement'
  if (/signature|signed/i.test(label)) return 'signature'
  if (/contract/i.test(label)) return 'contractOfEmployment'
  return 'proofOfAddress'
}
