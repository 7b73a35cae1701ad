// The photo ID check response (check_response.photo_id): a document report with every breakdown
// group (docs/specification-notes.md "Checks and responses") and document_data read from a document made for the record's client, plus a
// facial similarity report when the step asks for one; and its media, the images the client took
// (photoIdMedia), which are attachments and files of the client.
import type { TeamContext } from '../../context.ts'
import type {
  CheckResponsePhotoIdBreakdownResultJson as BreakdownResult,
  CheckResponsePhotoIdDocumentDataJson as DocumentData,
  CheckResponsePhotoIdDocumentMediaJson as DocumentMedia,
  CheckResponsePhotoIdDocumentReportJson as DocumentReport,
  CheckResponsePhotoIdFacialSimilarityReportJson as FacialSimilarityReport,
  CheckResponsePhotoIdGroupJson as Group,
  CheckResponsePhotoIdJson,
  CheckResponsePhotoIdPersonMediaJson as PersonMedia,
} from '../../contracts/generated.ts'
import { toDate } from '../../kernel/clock.ts'
import { deepFreeze } from '../../kernel/frozen.ts'
import { presentAttachment, sampleAttachment, type SampleName } from '../attachments/index.ts'
import { addFile } from '../files/index.ts'
import type { RecordRow } from '../records/index.ts'
import type { CheckRow, PhotoIdCapture } from './rows.ts'
import {
  documentNumber,
  idCardMrz,
  issuingAuthority,
  passportMrz,
  pick,
  PLACES_OF_BIRTH,
  validityYears,
  type DocumentType,
} from './documents.ts'
import type { CheckResponseInput } from './response-input.ts'

const DAY = 86_400_000

const addDays = (date: string, days: number) => toDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY))

function addYears(date: string, years: number): string {
  const moment = new Date(`${date}T00:00:00Z`)
  moment.setUTCFullYear(moment.getUTCFullYear() + years)
  return toDate(moment)
}

/** The sub-results of each breakdown group (a document without a chip has no issuing_authority group; one without an MRZ no mrz sub-result). */
function subResultsOf(hasMrz: boolean): Record<string, string[]> {
  return {
    age_validation: ['minimum_accepted_age'],
    compromised_document: ['document_database', 'repeat_attempts'],
    data_comparison: ['date_of_birth', 'date_of_expiry', 'document_numbers', 'document_type', 'first_name', 'gender', 'issuing_country', 'last_name'],
    data_consistency: ['date_of_birth', 'date_of_expiry', 'document_numbers', 'document_type', 'first_name', 'gender', 'issuing_country', 'last_name', 'multiple_data_sources_present', 'nationality'],
    data_validation: ['date_of_birth', 'document_expiration', 'document_numbers', 'expiry_date', 'gender', ...(hasMrz ? ['mrz'] : [])],
    image_integrity: ['colour_picture', 'conclusive_document_quality', 'image_quality', 'supported_document'],
    issuing_authority: ['nfc_active_authentication', 'nfc_passive_authentication'],
    police_record: [],
    visual_authenticity: ['digital_tampering', 'face_detection', 'fonts', 'original_document_present', 'picture_face_integrity', 'security_features', 'template', 'other'],
  }
}

/**
 * Every all-clear group of a set of sub-results, made once and shared by the responses that have
 * it: most seeded photo ID checks are clear, and their groups were most of the heap their responses
 * took. A response is never changed below its top level (only its media is set); shared ones are frozen.
 */
const clearGroups = new Map<string, NonNullable<Group>>()

/** A group whose sub-results are clear except the named ones. */
function group(names: readonly string[], flagged?: Record<string, BreakdownResult>): Group {
  if (flagged) return flaggedGroup(names, flagged)
  const key = names.join(' ')
  let shared = clearGroups.get(key)
  if (!shared) clearGroups.set(key, (shared = deepFreeze(flaggedGroup(names, {}))))
  return shared
}

function flaggedGroup(names: readonly string[], flagged: Record<string, BreakdownResult>): NonNullable<Group> {
  const breakdown = Object.fromEntries(names.map((name) => [name, { result: flagged[name] ?? 'clear' }]))
  const result: BreakdownResult = Object.values(flagged).includes('consider') ? 'consider' : 'clear'
  return names.length === 0 ? { result } : { result, breakdown }
}

/** What the step accepts: its first document type and first issuing country (passport, GBR by default). */
function documentOf(preferences: Record<string, unknown>): { type: DocumentType; country: string } {
  const docs = Array.isArray(preferences.docs) ? (preferences.docs as unknown[]) : []
  const type = (['passport', 'driving_licence', 'national_id'] as const).find((doc) => doc === docs[0]) ?? 'passport'
  const countries = Array.isArray(preferences.issuing_countries) ? (preferences.issuing_countries as unknown[]) : []
  const country = typeof countries[0] === 'string' && /^[A-Z]{3}$/.test(countries[0]) ? countries[0] : 'GBR'
  return { type, country }
}

/** The document the client showed, made from the record's name snapshot and the client's date of birth. */
function documentData(input: CheckResponseInput, dob: string, expired: boolean): DocumentData {
  const { random, name } = input
  const { type, country } = documentOf(input.preferences)
  const today = toDate(input.now)
  const years = validityYears(type)
  // Issued some time ago and still valid; for a document that needs another look, expired a while ago.
  const issued = expired ? addDays(addYears(today, -years), -random.int(30, 400)) : addDays(today, -random.int(30, years * 365 - 400))
  const expiry = addDays(addYears(issued, years), -1)
  const sex = genderOf(name.title)
  const mrzSex = sex === 'male' ? ('M' as const) : sex === 'female' ? ('F' as const) : null
  const person = { first_name: name.first_name, middle_name: name.middle_name, last_name: name.last_name, date_of_birth: dob, sex: mrzSex }
  const number = documentNumber(random, type, country, person)
  const mrzData = { ...person, country, number, date_of_expiry: expiry }
  const [line1, line2, line3] = type === 'passport' ? [...passportMrz(mrzData), null] : type === 'national_id' ? idCardMrz(mrzData) : [null, null, null]
  const chip = type !== 'driving_licence'
  return {
    document_type: type,
    first_name: name.first_name,
    last_name: name.last_name,
    middle_name: name.middle_name,
    date_of_birth: dob,
    gender: sex,
    document_numbers: [{ type: 'document_number', value: number }],
    issuing_authority: issuingAuthority(type, country),
    issuing_country: country,
    issuing_state: null,
    issuing_date: issued,
    date_of_expiry: expiry,
    mrz_line1: line1,
    mrz_line2: line2,
    mrz_line3: line3,
    nationality: country,
    // Passports print the place of birth; the mock knows places for GBR and IRL only.
    place_of_birth: type === 'passport' && PLACES_OF_BIRTH[country] ? pick(random, PLACES_OF_BIRTH[country]) : null,
    nfc: chip
      ? {
          document_number: number,
          first_name: name.first_name,
          last_name: name.last_name,
          date_of_birth: dob,
          date_of_expiry: expiry,
          gender: sex,
          nationality: country,
          issuing_country: country,
        }
      : null,
  }
}

/** From the name's title, in lower case as the service gives it (docs/specification-notes.md "Checks and responses"); null when the title does not say. */
function genderOf(title: string | null): DocumentData['gender'] {
  if (title === null) return null
  if (['mr', 'sir', 'master', 'lord'].includes(title)) return 'male'
  if (['mrs', 'miss', 'ms', 'dame', 'lady'].includes(title)) return 'female'
  return null
}

function documentReport(input: CheckResponseInput, dob: string): DocumentReport {
  const { type } = documentOf(input.preferences)
  const names = subResultsOf(type !== 'driving_licence')
  const clear = (key: string) => group(names[key] ?? [])
  // A driving licence has no chip: its issuing authority cannot be checked over NFC.
  const issuingAuthorityGroup = type === 'driving_licence' ? null : clear('issuing_authority')
  if (input.outcome === 'rejected') {
    // The images could not be used: nothing else was assessed and nothing could be read.
    return {
      type: 'document',
      status: 'complete',
      result: 'rejected',
      breakdown: {
        age_validation: null,
        compromised_document: null,
        data_comparison: null,
        data_consistency: null,
        data_validation: null,
        image_integrity: group(names.image_integrity ?? [], { image_quality: 'consider', conclusive_document_quality: 'consider' }),
        issuing_authority: null,
        police_record: null,
        visual_authenticity: null,
      },
      document_data: null,
    }
  }
  // consider and refer: the document has expired (data_validation.document_expiration), and its dates say so.
  const expired = input.outcome !== 'clear'
  return {
    type: 'document',
    status: 'complete',
    result: expired ? 'consider' : 'clear',
    breakdown: {
      age_validation: clear('age_validation'),
      compromised_document: clear('compromised_document'),
      data_comparison: clear('data_comparison'),
      data_consistency: clear('data_consistency'),
      data_validation: expired ? group(names.data_validation ?? [], { document_expiration: 'consider' }) : clear('data_validation'),
      image_integrity: clear('image_integrity'),
      issuing_authority: issuingAuthorityGroup,
      police_record: clear('police_record'),
      visual_authenticity: clear('visual_authenticity'),
    },
    document_data: documentData(input, dob, expired),
  }
}

function facialSimilarityReport(input: CheckResponseInput): FacialSimilarityReport {
  const score = () => input.random.int(88, 99) / 100
  if (input.outcome === 'rejected') {
    // No usable face on the document's images, so there was nothing to compare.
    return {
      type: 'facial_similarity',
      status: 'complete',
      result: 'rejected',
      breakdown: {
        face_comparison: null,
        image_integrity: group(['face_detected', 'source_integrity'], { face_detected: 'consider' }),
        visual_authenticity: null,
      },
    }
  }
  return {
    type: 'facial_similarity',
    status: 'complete',
    result: 'clear',
    breakdown: {
      face_comparison: { result: 'clear', breakdown: { face_match: { result: 'clear', properties: { score: score() } } } },
      image_integrity: group(['face_detected', 'source_integrity']),
      visual_authenticity: { result: 'clear', breakdown: { spoofing_detection: { result: 'clear', properties: { score: score() } } } },
    },
  }
}

/**
 * clear: every report and group clear; consider and refer: the document report is consider with
 * data_validation.document_expiration consider (the document expired); rejected: the document
 * report is rejected with only image_integrity assessed (image_quality and
 * conclusive_document_quality consider), its other groups and document_data null. media is []
 * here: the images are the check's, made by photoIdMedia when the result came back (responseOf).
 */
export function photoIdResponse(input: CheckResponseInput, dob: string, result: CheckResponsePhotoIdJson['result']): CheckResponsePhotoIdJson {
  const reports: CheckResponsePhotoIdJson['reports'] = [documentReport(input, dob)]
  if (input.preferences.facial_similarity === true) reports.push(facialSimilarityReport(input))
  return { object: 'check_response.photo_id', status: 'complete', result, reports, media: [] }
}

/** The step's preferences with the document the client showed first among the accepted ones (documentOf reads the first). */
export function withCapture(preferences: Record<string, unknown>, capture: PhotoIdCapture | undefined): Record<string, unknown> {
  if (!capture) return preferences
  const docs = Array.isArray(preferences.docs) ? (preferences.docs as unknown[]) : []
  return { ...preferences, docs: [capture.document_type, ...docs.filter((doc) => doc !== capture.document_type)] }
}

/** The sample image of each document type (a national ID card shows as the card sample). */
const DOCUMENT_IMAGES: Record<DocumentType, { sample: SampleName; label: string }> = {
  passport: { sample: 'passport', label: 'Passport' },
  driving_licence: { sample: 'drivingLicence', label: 'Driving licence' },
  national_id: { sample: 'drivingLicence', label: 'National identity card' },
}

/**
 * The media of a photo ID check's response, made when its result returns: the front of the
 * document the client showed and, when the step captured their face, a photo (face or
 * facial_similarity) and a motion capture (liveness, and every biometric check). Each is an
 * attachment (the image the client gave on the perform page, else a sample image, scanned clean)
 * and a received file of the client with source the check (source_subtype photo_id), created by
 * the client.
 */
export function photoIdMedia(ctx: TeamContext, record: RecordRow, check: CheckRow, preferences: Record<string, unknown>): Array<DocumentMedia | PersonMedia> {
  const { type, country } = documentOf(preferences)
  const document = DOCUMENT_IMAGES[type]
  const slug = document.label.toLowerCase().replace(/ /g, '-')
  // The images the client gave on the perform page, while the team still has them; else sample images.
  const given = (id: number | null | undefined) => (id === null || id === undefined ? undefined : ctx.team.attachments.get(id))
  const captured = (sample: SampleName, original: string, name: string, attachment = sampleAttachment(ctx, sample, original)) => {
    addFile(ctx, {
      client: record.client,
      type: 'received',
      source: { type: 'check', id: check.id },
      source_subtype: 'photo_id',
      name,
      attachment: attachment.id,
      created_by: { type: 'client', id: record.client },
    })
    return presentAttachment(attachment)
  }
  const media: Array<DocumentMedia | PersonMedia> = [
    {
      type: 'document',
      attachment: captured(document.sample, `${slug}-front.jpg`, `${document.label} (front)`, given(check.capture?.document)),
      document_type: type,
      side: 'front',
      issuing_country: country,
      // Passports and national ID cards carry a chip; UK driving licences do not.
      has_nfc: type !== 'driving_licence',
    },
  ]
  const biometric = preferences.report_type === 'biometric'
  if (preferences.face === true || preferences.facial_similarity === true) {
    media.push({ type: 'photo', attachment: captured('selfie', 'selfie.jpg', 'Selfie', given(check.capture?.face)) })
  }
  if (preferences.liveness === true || biometric) {
    media.push({ type: 'motion_capture', attachment: captured('selfie', 'motion-capture.jpg', 'Liveness capture') })
  }
  return media
}
