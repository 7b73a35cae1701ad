// Identity documents as a photo ID check reads them: document numbers in each issuer's format and
// machine-readable zones (ICAO 9303) whose check digits agree with the data, so a client that
// parses the MRZ finds what document_data says.
import type { Random } from '../../kernel/random.ts'

export type DocumentType = 'passport' | 'driving_licence' | 'national_id'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

const digits = (random: Random, count: number): string => Array.from({ length: count }, () => String(random.int(0, 9))).join('')
const letters = (random: Random, count: number): string => Array.from({ length: count }, () => LETTERS.charAt(random.int(0, 25))).join('')
export const pick = <T>(random: Random, items: readonly T[]): T => items[random.int(0, items.length - 1)] as T

/** Upper-case A-Z only: accents dropped, apostrophes removed, every other character a filler (<). */
export function mrzText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/['’]/g, '')
    .replace(/[^A-Z0-9]/g, '<')
}

/** ICAO 9303 check digit: weights 7, 3, 1; digits their value, A-Z 10-35, the filler 0. */
export function checkDigit(field: string): string {
  let sum = 0
  for (let i = 0; i < field.length; i++) {
    const char = field.charAt(i)
    const value = char >= '0' && char <= '9' ? Number(char) : char >= 'A' && char <= 'Z' ? char.charCodeAt(0) - 55 : 0
    sum += value * ([7, 3, 1][i % 3] as number)
  }
  return String(sum % 10)
}

const fit = (text: string, width: number) => text.slice(0, width).padEnd(width, '<')

/** YYYY-MM-DD -> YYMMDD */
const mrzDate = (date: string) => `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}`

export interface MrzData {
  country: string
  number: string
  first_name: string
  middle_name: string | null
  last_name: string
  date_of_birth: string
  date_of_expiry: string
  /** M, F or null (the filler). */
  sex: 'M' | 'F' | null
}

/** SURNAME<<GIVEN<NAMES, cut to the width. */
function nameField(data: MrzData, width: number): string {
  const given = [data.first_name, data.middle_name].filter(Boolean).join(' ')
  return fit(`${mrzText(data.last_name)}<<${mrzText(given)}`, width)
}

/** A passport's two lines of 44 characters (TD3). */
export function passportMrz(data: MrzData): [string, string] {
  const line1 = fit(`P<${data.country}${nameField(data, 39)}`, 44)
  const number = fit(data.number, 9)
  const dob = mrzDate(data.date_of_birth)
  const expiry = mrzDate(data.date_of_expiry)
  const personal = fit('', 14)
  const body = `${number}${checkDigit(number)}${data.country}${dob}${checkDigit(dob)}${data.sex ?? '<'}${expiry}${checkDigit(expiry)}${personal}${checkDigit(personal)}`
  const composite = checkDigit(`${body.slice(0, 10)}${body.slice(13, 20)}${body.slice(21, 43)}`)
  return [line1, `${body}${composite}`]
}

/** An identity card's three lines of 30 characters (TD1). */
export function idCardMrz(data: MrzData): [string, string, string] {
  const number = fit(data.number, 9)
  const line1 = fit(`I<${data.country}${number}${checkDigit(number)}`, 30)
  const dob = mrzDate(data.date_of_birth)
  const expiry = mrzDate(data.date_of_expiry)
  const upper = `${dob}${checkDigit(dob)}${data.sex ?? '<'}${expiry}${checkDigit(expiry)}${data.country}${fit('', 11)}`
  const composite = checkDigit(`${line1.slice(5, 30)}${upper.slice(0, 7)}${upper.slice(8, 15)}${upper.slice(18, 29)}`)
  return [line1, `${upper}${composite}`, nameField(data, 30)]
}

/**
 * A GB driving licence number (DVLA): the surname's first five letters (9s after a shorter one),
 * the birth year's decade digit, the birth month (plus 50 for a woman), the day, the year's last
 * digit, two initials (9 for a missing one), a 9 and two check letters.
 */
export function dvlaNumber(random: Random, data: Pick<MrzData, 'first_name' | 'middle_name' | 'last_name' | 'date_of_birth' | 'sex'>): string {
  const surname = mrzText(data.last_name).replace(/</g, '').slice(0, 5).padEnd(5, '9')
  const month = Number(data.date_of_birth.slice(5, 7)) + (data.sex === 'F' ? 50 : 0)
  const initials = [data.first_name, data.middle_name ?? ''].map((name) => mrzText(name).replace(/</g, '').charAt(0) || '9').join('')
  return `${surname}${data.date_of_birth.charAt(2)}${String(month).padStart(2, '0')}${data.date_of_birth.slice(8, 10)}${data.date_of_birth.charAt(3)}${initials}9${letters(random, 2)}`
}

/** The document's number in its issuer's format. */
export function documentNumber(random: Random, type: DocumentType, country: string, data: Parameters<typeof dvlaNumber>[1]): string {
  if (type === 'driving_licence') return country === 'GBR' ? dvlaNumber(random, data) : digits(random, 9)
  // Irish passports and passport cards: two letters and seven digits; British passports: nine digits.
  return country === 'IRL' ? `${letters(random, 2)}${digits(random, 7)}` : digits(random, 9)
}

/** Who issues the document. */
export function issuingAuthority(type: DocumentType, country: string): string {
  if (country === 'IRL') return type === 'driving_licence' ? 'RSA' : 'DFA'
  if (country === 'GBR') return type === 'driving_licence' ? 'DVLA' : 'HMPO'
  return 'MINISTRY OF INTERIOR'
}

/** Years a document is valid for: passports and licences ten, identity cards five. */
export const validityYears = (type: DocumentType): number => (type === 'national_id' ? 5 : 10)

export const PLACES_OF_BIRTH: Record<string, readonly string[]> = {
  GBR: ['LONDON', 'MANCHESTER', 'BIRMINGHAM', 'GLASGOW', 'LEEDS', 'BRISTOL', 'CARDIFF', 'BELFAST', 'EDINBURGH', 'LIVERPOOL'],
  IRL: ['DUBLIN', 'CORK', 'GALWAY', 'LIMERICK', 'WATERFORD'],
}
