// The responses checks return (src/resources/checks/responses.ts), docs/specification-notes.md "Checks and responses": photo ID's
// against its contract, with a document that agrees with itself (MRZ check digits, dates, names);
// every other type's exactly {"object": "check_response.other"}, and the check contract refusing a
// response that invents more.
import { describe, expect, it } from 'vitest'
import type { CheckJson } from '../../src/contracts/generated.ts'
import { createRandom } from '../../src/kernel/random.ts'
import { checkDigit, idCardMrz, passportMrz } from '../../src/resources/checks/documents.ts'
import { checkResponse, dateOfBirth, type CheckResponseInput } from '../../src/resources/checks/responses.ts'
import type { Outcome } from '../../src/resources/checks/index.ts'
import { contracts } from '../support/contracts.ts'
import { TEST_NOW } from '../support/mock.ts'

type CheckType = CheckJson['type']

const CHECK_TYPES = (contracts.schemas.get('check') as { properties: { type: { enum: CheckType[] } } }).properties.type.enum
const WITH_RESPONSE = ['clear', 'consider', 'refer', 'rejected'] as const
const TODAY = '2026-07-01'
const OTHER = { object: 'check_response.other' }

/** Preferences that switch on every optional part of a photo ID response. */
const RICH = { report_type: 'standard', docs: ['national_id', 'passport'], facial_similarity: true, issuing_countries: ['IRL'] }

function input(outcome: Outcome, overrides: Partial<CheckResponseInput> = {}): CheckResponseInput {
  return {
    outcome,
    preferences: {},
    name: { title: 'mrs', other_title: null, first_name: 'Siobhán', middle_name: 'Mary-Anne', last_name: "O'Brien-Smith" },
    email: 'siobhan@example.com',
    dob: '1985-02-28',
    random: createRandom(3),
    now: TEST_NOW,
    ...overrides,
  }
}

const check = contracts.schemaValidator('check')
const asCheck = (type: CheckType, response: unknown) => ({
  object: 'check',
  id: 1,
  type,
  record: 1,
  status: 'accepted',
  response,
  allow_replay: false,
  allow_cancel: false,
  requires_consent: false,
  created_at: '2026-07-01T12:00:00Z',
  updated_at: '2026-07-01T12:00:00Z',
})

describe('checkResponse (photo ID)', () => {
  const schema = contracts.schemaValidator('check-response-photo-id')

  it.each(WITH_RESPONSE)('%s: valid against its contract and check.json, with default and with rich preferences', (outcome) => {
    for (const preferences of [{}, RICH]) {
      const response = checkResponse(input(outcome, { preferences }))
      expect(schema(response), JSON.stringify(schema.errors)).toBe(true)
      expect(check(asCheck('photo_id', response)), JSON.stringify(check.errors)).toBe(true)
      expect(response).toMatchObject({ object: 'check_response.photo_id', status: 'complete', result: outcome === 'refer' ? 'consider' : outcome })
    }
  })

  it.each(['failed', 'paused'] as const)('%s: no response', (outcome) => {
    expect(checkResponse(input(outcome, { preferences: RICH }))).toBeNull()
  })

  it('is the same for the same seed and moment', () => {
    expect(checkResponse(input('consider', { preferences: RICH }))).toEqual(checkResponse(input('consider', { preferences: RICH })))
  })

  it('uses the client\'s date of birth, or one made from who they are when it is unknown (the same each time)', () => {
    expect(dateOfBirth(input('clear'))).toBe('1985-02-28')
    const made = dateOfBirth(input('clear', { dob: null }))
    expect(made).toBe(dateOfBirth(input('clear', { dob: null, random: createRandom(99) })))
    const age = 2026 - Number(made.slice(0, 4))
    expect(age).toBeGreaterThanOrEqual(22)
    expect(age).toBeLessThanOrEqual(65)
    const response = checkResponse(input('clear', { dob: null })) as { reports: Array<{ document_data: { date_of_birth: string } }> }
    expect(response.reports[0]?.document_data.date_of_birth).toBe(made)
  })
})

describe('the check contract: photo ID or check_response.other, nothing invented', () => {
  const photoId = checkResponse(input('clear', { preferences: RICH }))

  it.each(CHECK_TYPES.filter((type) => type !== 'photo_id'))('%s: takes null, true and exactly check_response.other; refuses a photo ID response and any other field', (type) => {
    for (const response of [null, true, OTHER]) expect(check(asCheck(type, response)), JSON.stringify(check.errors)).toBe(true)
    for (const response of [photoId, { ...OTHER, result: 'clear' }, { object: `check_response.${type}` }, { object: 'check_response.other', status: 'complete' }, false, {}]) {
      expect(check(asCheck(type, response)), JSON.stringify(response)).toBe(false)
    }
  })

  it('photo_id: takes its own response, refuses check_response.other and a gender not in lower case', () => {
    expect(check(asCheck('photo_id', photoId)), JSON.stringify(check.errors)).toBe(true)
    expect(check(asCheck('photo_id', OTHER))).toBe(false)
    const shouting = structuredClone(photoId) as { reports: Array<{ document_data: { gender: string; nfc: { gender: string } } }> }
    const data = shouting.reports[0]?.document_data
    if (!data) throw new Error('no document data')
    data.gender = 'Female'
    expect(check(asCheck('photo_id', shouting))).toBe(false)
    data.gender = 'female'
    data.nfc.gender = 'F'
    expect(check(asCheck('photo_id', shouting))).toBe(false)
  })
})

describe('photo ID', () => {
  type Data = Record<string, any>
  const documentReport = (response: unknown) => (response as { reports: Data[] }).reports[0] as Data

  it('clear: every group and sub-result clear; a valid GB passport of the client, with a consistent MRZ', () => {
    const response = checkResponse(input('clear', { preferences: { docs: ['passport'] } })) as Data
    expect(response.result).toBe('clear')
    expect(response.reports).toHaveLength(1)
    const report = documentReport(response)
    expect(report).toMatchObject({ type: 'document', status: 'complete', result: 'clear' })
    expect(Object.keys(report.breakdown)).toEqual(['age_validation', 'compromised_document', 'data_comparison', 'data_consistency', 'data_validation', 'image_integrity', 'issuing_authority', 'police_record', 'visual_authenticity'])
    for (const group of Object.values<Data>(report.breakdown)) {
      expect(group.result).toBe('clear')
      for (const sub of Object.values<Data>(group.breakdown ?? {})) expect(sub.result).toBe('clear')
    }
    const data = report.document_data
    expect(data).toMatchObject({
      document_type: 'passport',
      first_name: 'Siobhán',
      middle_name: 'Mary-Anne',
      last_name: "O'Brien-Smith",
      date_of_birth: '1985-02-28',
      gender: 'female',
      issuing_authority: 'HMPO',
      issuing_country: 'GBR',
      issuing_state: null,
      nationality: 'GBR',
      mrz_line3: null,
    })
    expect(data.date_of_expiry > TODAY && data.issuing_date < TODAY).toBe(true)
    expect(data.document_numbers).toEqual([{ type: 'document_number', value: expect.stringMatching(/^[0-9]{9}$/) }])
    const number = data.document_numbers[0].value
    expect(data.mrz_line1).toBe('P<GBROBRIEN<SMITH<<SIOBHAN<MARY<ANNE<<<<<<<<')
    const line2: string = data.mrz_line2
    expect(line2).toHaveLength(44)
    expect(line2.slice(0, 10)).toBe(`${number}${checkDigit(number)}`)
    expect(line2.slice(10, 21)).toBe(`GBR850228${checkDigit('850228')}F`)
    const expiry = `${data.date_of_expiry.slice(2, 4)}${data.date_of_expiry.slice(5, 7)}${data.date_of_expiry.slice(8, 10)}`
    expect(line2.slice(21, 28)).toBe(`${expiry}${checkDigit(expiry)}`)
    expect(data.nfc).toMatchObject({ document_number: number, date_of_birth: '1985-02-28', date_of_expiry: data.date_of_expiry, gender: 'female' })
    expect(typeof data.place_of_birth).toBe('string')
    expect(response.media).toEqual([])
  })

  it('consider and refer: result consider, the document expired (data_validation.document_expiration consider)', () => {
    for (const outcome of ['consider', 'refer'] as const) {
      const response = checkResponse(input(outcome)) as Data
      expect(response.result).toBe('consider')
      const report = documentReport(response)
      expect(report.result).toBe('consider')
      const considered = Object.entries(report.breakdown as Record<string, Data>).filter(([, group]) => group?.result === 'consider')
      expect(considered.map(([name]) => name)).toEqual(['data_validation'])
      const subs = Object.entries(report.breakdown.data_validation.breakdown as Record<string, Data>).filter(([, sub]) => sub.result === 'consider')
      expect(subs.map(([name]) => name)).toEqual(['document_expiration'])
      expect(report.document_data.date_of_expiry < TODAY).toBe(true)
    }
  })

  it('rejected: only image integrity assessed (consider), nothing read', () => {
    const response = checkResponse(input('rejected', { preferences: { facial_similarity: true } })) as Data
    expect(response.result).toBe('rejected')
    const report = documentReport(response)
    expect(report.result).toBe('rejected')
    expect(report.document_data).toBeNull()
    expect(Object.entries(report.breakdown as Record<string, Data | null>).filter(([, group]) => group !== null).map(([name]) => name)).toEqual(['image_integrity'])
    expect(report.breakdown.image_integrity).toEqual({
      result: 'consider',
      breakdown: { colour_picture: { result: 'clear' }, conclusive_document_quality: { result: 'consider' }, image_quality: { result: 'consider' }, supported_document: { result: 'clear' } },
    })
    expect(response.reports[1]).toMatchObject({ type: 'facial_similarity', result: 'rejected' })
  })

  it('adds a facial similarity report when the step asks for facial_similarity', () => {
    const response = checkResponse(input('consider', { preferences: { facial_similarity: true } })) as Data
    expect(response.reports[1]).toEqual({
      type: 'facial_similarity',
      status: 'complete',
      result: 'clear',
      breakdown: {
        face_comparison: { result: 'clear', breakdown: { face_match: { result: 'clear', properties: { score: expect.any(Number) } } } },
        image_integrity: { result: 'clear', breakdown: { face_detected: { result: 'clear' }, source_integrity: { result: 'clear' } } },
        visual_authenticity: { result: 'clear', breakdown: { spoofing_detection: { result: 'clear', properties: { score: expect.any(Number) } } } },
      },
    })
  })

  it('reads an Irish passport card (TD1 MRZ) from the step\'s first doc and issuing country', () => {
    const data = documentReport(checkResponse(input('clear', { preferences: RICH }))).document_data
    expect(data).toMatchObject({ document_type: 'national_id', issuing_country: 'IRL', nationality: 'IRL', issuing_authority: 'DFA', place_of_birth: null })
    expect(data.document_numbers[0].value).toMatch(/^[A-Z]{2}[0-9]{7}$/)
    expect([data.mrz_line1, data.mrz_line2, data.mrz_line3].map((line: string) => line.length)).toEqual([30, 30, 30])
    expect(data.mrz_line3).toBe('OBRIEN<SMITH<<SIOBHAN<MARY<ANN')
  })

  it('reads a GB driving licence: DVLA number, no MRZ, no chip (issuing_authority null)', () => {
    const report = documentReport(checkResponse(input('clear', { preferences: { docs: ['driving_licence'] } })))
    const data = report.document_data
    expect(data).toMatchObject({ document_type: 'driving_licence', issuing_authority: 'DVLA', mrz_line1: null, mrz_line2: null, mrz_line3: null, nfc: null })
    // OBRIE, decade 8, month 02 + 50 (a woman), day 28, year 5, initials SM, 9, two check letters.
    expect(data.document_numbers[0].value).toMatch(/^OBRIE852285SM9[A-Z]{2}$/)
    expect(report.breakdown.issuing_authority).toBeNull()
    expect(report.breakdown.data_validation.breakdown.mrz).toBeUndefined()
  })
})

describe('MRZ (ICAO 9303 specimens)', () => {
  const anna = { country: 'UTO', first_name: 'Anna', middle_name: 'Maria', last_name: 'Eriksson', date_of_birth: '1974-08-12', date_of_expiry: '2012-04-15', sex: 'F' as const }

  it('computes check digits', () => {
    expect(['L898902C3', '740812', '120415', 'ZE184226B<<<<<', 'D23145890'].map(checkDigit)).toEqual(['6', '2', '9', '1', '7'])
    expect(checkDigit('L898902C36' + '7408122' + '1204159ZE184226B<<<<<1')).toBe('0')
  })

  it('writes a passport (TD3) without a personal number (its check digit 0)', () => {
    expect(passportMrz({ ...anna, number: 'L898902C3' })).toEqual(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159<<<<<<<<<<<<<<08'])
  })

  it('writes an identity card (TD1)', () => {
    expect(idCardMrz({ ...anna, number: 'D23145890' })).toEqual(['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'])
  })
})
