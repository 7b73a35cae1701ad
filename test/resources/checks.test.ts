// GET /checks/{id} (docs/specification-notes.md "Checks and responses", docs/specification-notes.md "Lists, pagination and expansion",
// docs/specification-notes.md "Roles", docs/specification-notes.md "Status codes and bodies"), with the response every check type returns for every outcome:
// photo ID's check_response.photo_id, every other type's exactly {"object": "check_response.other"}.
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import type { CheckJson } from '../../src/contracts/generated.ts'
import type { RecordRow } from '../../src/resources/records/index.ts'
import type { CheckResponseRecipe, CheckRow, Outcome } from '../../src/resources/checks/index.ts'
import { contracts } from '../support/contracts.ts'
import { createTestMock, NOW } from '../support/mock.ts'
import { assigneeRows, giveRecord, type StepSetup } from '../support/rows.ts'
import { minimalStep } from '../support/steps.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const NOT_FOUND = { error: 'Check not found' }
const EXPIRES = '2026-08-01T12:00:00Z'

type CheckType = CheckJson['type']

/** Every check type, as the check contract lists them. */
const CHECK_TYPES = (contracts.schemas.get('check') as { properties: { type: { enum: CheckType[] } } }).properties.type.enum

/** What every check type but photo ID answers with expand=response once it has a response. */
const OTHER = { object: 'check_response.other' }

/** A fresh team with the client Ann Lee (made through the API). */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const res = await team.api().post('/clients', { name: { title: 'ms', first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com', dob: '1990-04-12' })
  expect(res.status).toBe(201)
  const clientId: number = res.body.id
  const give = (steps: StepSetup[], fields: Partial<Omit<RecordRow, 'steps'>> = {}) => giveRecord(mock, team.team, clientId, { steps, ...fields })
  const checkOf = (record: RecordRow, index = 0) => team.team.checks.get(record.steps[index]?.check ?? 0) as CheckRow
  return { mock, ...team, clientId, give, checkOf }
}

/** What a check keeps of its response: when the result came back, a seed, Ann Lee's date of birth. */
const RECIPE: CheckResponseRecipe = { at: NOW, seed: 7, dob: '1990-04-12' }

/**
 * The check status each outcome leaves, as docs/lifecycle.md "The record lifecycle" tabulates it
 * (consider is a processed check, accepted; only a photo ID response tells it from clear).
 */
const STATUS_OF: Record<Outcome, string> = { clear: 'accepted', consider: 'accepted', rejected: 'rejected', refer: 'refer', failed: 'failed', paused: 'paused' }
const OUTCOMES = Object.keys(STATUS_OF) as Outcome[]

/** A photo ID document report's nine breakdown groups and their named sub-results (docs/specification-notes.md "Checks and responses"). */
const GROUPS: Record<string, string[]> = {
  age_validation: ['minimum_accepted_age'],
  compromised_document: ['document_database', 'repeat_attempts'],
  data_comparison: ['date_of_birth', 'date_of_expiry', 'document_numbers', 'document_type', 'first_name', 'gender', 'issuing_country', 'last_name'],
  data_consistency: ['date_of_birth', 'date_of_expiry', 'document_numbers', 'document_type', 'first_name', 'gender', 'issuing_country', 'last_name', 'multiple_data_sources_present', 'nationality'],
  data_validation: ['date_of_birth', 'document_expiration', 'document_numbers', 'expiry_date', 'gender', 'mrz'],
  image_integrity: ['colour_picture', 'conclusive_document_quality', 'image_quality', 'supported_document'],
  issuing_authority: ['nfc_active_authentication', 'nfc_passive_authentication'],
  police_record: [],
  visual_authenticity: ['digital_tampering', 'face_detection', 'fonts', 'original_document_present', 'picture_face_integrity', 'security_features', 'template', 'other'],
}

/** A document report's breakdown: every group and sub-result clear but those named ("group" or "group.sub": result, a group taking its worst sub-result); null drops a group's assessment. */
function breakdown(results: Record<string, string | null> = {}) {
  return Object.fromEntries(
    Object.entries(GROUPS).map(([group, subs]) => {
      if (results[group] === null) return [group, null]
      const sub = Object.fromEntries(subs.map((name) => [name, { result: results[`${group}.${name}`] ?? 'clear' }]))
      const result = subs.some((name) => results[`${group}.${name}`] === 'consider') ? 'consider' : 'clear'
      return [group, subs.length === 0 ? { result } : { result, breakdown: sub }]
    }),
  )
}

/**
 * Ann Lee's GB passport as RECIPE reads it: her name and date of birth, female from the title ms,
 * the number, dates and place of birth drawn from RECIPE's seed. The MRZ is worked by hand with
 * ICAO 9303's check digits (7-3-1 weights): 747955024 -> 1, 900412 -> 6, 350928 -> 3, the empty
 * personal number 0, the composite 8; an expired one (consider) ends 260503 -> 0, composite 8.
 */
function passport(issued: string, expires: string, mrzExpiry: string) {
  return {
    document_type: 'passport',
    first_name: 'Ann',
    last_name: 'Lee',
    middle_name: null,
    date_of_birth: '1990-04-12',
    gender: 'female',
    document_numbers: [{ type: 'document_number', value: '747955024' }],
    issuing_authority: 'HMPO',
    issuing_country: 'GBR',
    issuing_state: null,
    issuing_date: issued,
    date_of_expiry: expires,
    mrz_line1: 'P<GBRLEE<<ANN<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<',
    mrz_line2: `7479550241GBR9004126F${mrzExpiry}<<<<<<<<<<<<<<08`,
    mrz_line3: null,
    nationality: 'GBR',
    place_of_birth: 'CARDIFF',
    nfc: { document_number: '747955024', first_name: 'Ann', last_name: 'Lee', date_of_birth: '1990-04-12', date_of_expiry: expires, gender: 'female', nationality: 'GBR', issuing_country: 'GBR' },
  }
}

const photoIdResponse = (result: string, report: Record<string, unknown>) => ({
  object: 'check_response.photo_id',
  status: 'complete',
  result,
  reports: [{ type: 'document', status: 'complete', result, ...report }],
  media: [],
})

/**
 * RECIPE's photo ID response for a passport step, written out, outcome by outcome (docs/lifecycle.md
 * "The record lifecycle": consider and refer read as consider, the document expired; rejected
 * assesses only the image and reads nothing). A check keeps only its recipe, so these are what a
 * stored check answers on every read, in any version.
 */
const PHOTO_ID: Record<'clear' | 'consider' | 'refer' | 'rejected', object> = {
  clear: photoIdResponse('clear', { breakdown: breakdown(), document_data: passport('2025-09-29', '2035-09-28', '3509283') }),
  consider: photoIdResponse('consider', { breakdown: breakdown({ 'data_validation.document_expiration': 'consider' }), document_data: passport('2016-05-04', '2026-05-03', '2605030') }),
  refer: photoIdResponse('consider', { breakdown: breakdown({ 'data_validation.document_expiration': 'consider' }), document_data: passport('2016-05-04', '2026-05-03', '2605030') }),
  rejected: photoIdResponse('rejected', {
    breakdown: breakdown({
      ...Object.fromEntries(Object.keys(GROUPS).filter((group) => group !== 'image_integrity').map((group) => [group, null])),
      'image_integrity.conclusive_document_quality': 'consider',
      'image_integrity.image_quality': 'consider',
    }),
    document_data: null,
  }),
}

/** The facial similarity report a step with facial_similarity adds, RECIPE's scores written out. */
const FACIAL_SIMILARITY = {
  type: 'facial_similarity',
  status: 'complete',
  result: 'clear',
  breakdown: {
    face_comparison: { result: 'clear', breakdown: { face_match: { result: 'clear', properties: { score: 0.97 } } } },
    image_integrity: { result: 'clear', breakdown: { face_detected: { result: 'clear' }, source_integrity: { result: 'clear' } } },
    visual_authenticity: { result: 'clear', breakdown: { spoofing_detection: { result: 'clear', properties: { score: 0.92 } } } },
  },
}

/** The response a check of this type shows for an outcome (a photo ID's RECIPE, on a passport step). */
function responseFor(type: CheckType, outcome: Outcome) {
  if (outcome === 'failed' || outcome === 'paused') return null
  return type === 'photo_id' ? PHOTO_ID[outcome] : OTHER
}

/** The wire check of a check row with nothing expanded. */
const checkJson = (check: CheckRow, overrides: Record<string, unknown> = {}) => ({
  object: 'check',
  id: check.id,
  type: check.type,
  record: check.record,
  status: check.status,
  response: check.response === null ? null : true,
  allow_replay: check.allow_replay,
  allow_cancel: check.allow_cancel,
  requires_consent: check.requires_consent,
  created_at: check.created_at,
  updated_at: check.updated_at,
  ...overrides,
})

describe('GET /checks/{id}', () => {
  it('answers a pending check: record id, response null (also with expand=response)', async () => {
    const { give, checkOf, api } = await setup()
    const record = give([{ type: 'check.identity', cost: 1 }])
    const check = checkOf(record)
    const res = await api().get(`/checks/${check.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'check',
      id: check.id,
      type: 'identity',
      record: record.id,
      status: 'pending',
      response: null,
      allow_replay: false,
      allow_cancel: false,
      requires_consent: false,
      created_at: NOW,
      updated_at: NOW,
    })
    expect((await api().get(`/checks/${check.id}`, { expand: 'response' })).body).toEqual(res.body)
  })

  it('answers a check with a response: true collapsed, the full response with expand=response', async () => {
    const { give, checkOf, api } = await setup()
    const preferences = { report_type: 'standard', docs: ['passport'], facial_similarity: true, issuing_countries: ['GBR'] }
    const record = give([{ type: 'check.photo_id', preferences, cost: 2, completed_at: NOW }])
    const response = { ...PHOTO_ID.clear, reports: [...(PHOTO_ID.clear as { reports: object[] }).reports, FACIAL_SIMILARITY] }
    const check = checkOf(record)
    Object.assign(check, { status: 'accepted', outcome: 'clear', response: RECIPE, allow_replay: true, requires_consent: true, updated_at: '2026-07-01T12:01:00Z' })
    const base = {
      object: 'check',
      id: check.id,
      type: 'photo_id',
      record: record.id,
      status: 'accepted',
      allow_replay: true,
      allow_cancel: false,
      requires_consent: true,
      created_at: NOW,
      updated_at: '2026-07-01T12:01:00Z',
    }
    const collapsed = await api().get(`/checks/${check.id}`)
    expect(collapsed.status).toBe(200)
    expect(collapsed.body).toEqual({ ...base, response: true })
    const expanded = await api().get(`/checks/${check.id}`, { expand: 'response' })
    expect(expanded.status).toBe(200)
    expect(expanded.body).toEqual({ ...base, response })
    expect(expanded.body.response).toMatchObject({ object: 'check_response.photo_id', status: 'complete', result: 'clear', media: [] })
    expect(expanded.body.response.reports.map((report: { type: string }) => report.type)).toEqual(['document', 'facial_similarity'])
  })

  it('expands the record one level deep (its client an id, its steps collapsed), and both with expand=record,response', async () => {
    const { give, checkOf, api, clientId } = await setup()
    const record = give([{ type: 'check.watchlist', preferences: { silent: true, monitor: false, search_profile: 'sanctions', all_entity_types: false }, cost: 2, completed_at: NOW }, { type: 'check.identity', cost: 1 }], {
      reference: 'REF-1',
    })
    const check = checkOf(record)
    const response = responseFor('watchlist', 'consider')
    Object.assign(check, { status: 'accepted', outcome: 'consider', response: RECIPE })
    const recordJson = {
      object: 'record',
      id: record.id,
      status: 'started',
      perform_url: `http://localhost/perform/test-${clientId}`,
      email: 'ann.lee@example.com',
      client: clientId,
      name: { object: 'name', title: 'ms', other_title: null, first_name: 'Ann', middle_name: null, last_name: 'Lee', name: 'Ann Lee', full_name: 'Ann Lee', complete_name: 'Ms Ann Lee' },
      reference: 'REF-1',
      steps: [
        { object: 'step', id: record.steps[0]?.id, type: 'check.watchlist', preferences: { silent: true, monitor: false, search_profile: 'sanctions', all_entity_types: false }, check: check.id, cost: 2, completed_at: NOW, review: null },
        { object: 'step', id: record.steps[1]?.id, type: 'check.identity', preferences: {}, check: record.steps[1]?.check, cost: 1, completed_at: null, review: null },
      ],
      has_reminders: false,
      is_declaration_required: false,
      created_at: NOW,
      updated_at: NOW,
      expired_at: EXPIRES,
      archived_at: null,
      declaration_confirmed_at: null,
    }
    const res = await api().get(`/checks/${check.id}`, { expand: 'record' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(checkJson(check, { record: recordJson, response: true }))
    const both = await api().get(`/checks/${check.id}`, { expand: ['response', 'record'] })
    expect(both.body).toEqual(checkJson(check, { record: recordJson, response }))
    expect((await api().get(`/checks/${check.id}`, { expand: 'record,response' })).body).toEqual(both.body)
  })

  it('answers 404 Check not found for an unknown id and for another team\'s check', async () => {
    const { give, checkOf, api, mock } = await setup()
    const check = checkOf(give([{ type: 'check.credit' }]))
    const unknown = await api().get('/checks/999999')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(NOT_FOUND)
    for (const token of ['ivs_globex_owner', 'ivs_acme_owner', 'ivs_acme_support']) {
      const res = await mock.api(token).get(`/checks/${check.id}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(NOT_FOUND)
    }
    const other = mock.newTeam()
    const res = await other.api().get(`/checks/${check.id}`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual(NOT_FOUND)
  })

  it.each(ROLES.filter((role) => role !== 'assigned-only'))('answers the %s', async (role) => {
    const { give, checkOf, api } = await setup()
    const check = checkOf(give([{ type: 'check.reference' }]))
    const res = await api(role).get(`/checks/${check.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(checkJson(check))
  })

  it('shows an assigned-only member only the checks of records they are assigned to (403 otherwise)', async () => {
    const { give, checkOf, api, mock, users } = await setup()
    const mine = checkOf(give([{ type: 'check.video' }], { assignees: assigneeRows(mock, users['assigned-only'].id) }))
    const theirs = checkOf(give([{ type: 'check.video' }], { assignees: assigneeRows(mock, users.member.id) }))
    const nobody = checkOf(give([{ type: 'check.video' }]))
    const ok = await api('assigned-only').get(`/checks/${mine.id}`, { expand: 'record' })
    expect(ok.status).toBe(200)
    expect(ok.body.record.id).toBe(mine.record)
    for (const check of [theirs, nobody]) {
      const res = await api('assigned-only').get(`/checks/${check.id}`)
      expect(res.status).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
    const unknown = await api('assigned-only').get('/checks/999999')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(NOT_FOUND)
  })

  it('goes by the record\'s assignees, not the client\'s', async () => {
    const { give, checkOf, api, users, clientId } = await setup()
    const check = checkOf(give([{ type: 'check.identity' }]))
    const assigned = await api().post(`/clients/${clientId}/assignees`, [{ type: 'team_member', team_member: users['assigned-only'].id }])
    expect(assigned.status).toBe(201)
    expect((await api('assigned-only').get(`/clients/${clientId}`)).status).toBe(200)
    const res = await api('assigned-only').get(`/checks/${check.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual(FORBIDDEN)
  })

  describe('expand', () => {
    it.each([
      ['bogus', { expand: 'bogus' }],
      ['one bad value of two', { expand: 'record,bogus' }],
      ['a valid expand of another endpoint', { expand: 'check' }],
    ])('refuses %s with 422', async (_label, query) => {
      const { give, checkOf, api } = await setup()
      const check = checkOf(give([{ type: 'check.dummy' }]))
      const res = await api().get(`/checks/${check.id}`, query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ expand: ['The expand parameter must be one of: record, response'] })
    })

    it('answers 404, then 403, before a bad expand', async () => {
      const { give, checkOf, api } = await setup()
      const check = checkOf(give([{ type: 'check.dummy' }]))
      expect((await api().get('/checks/999999', { expand: 'bogus' })).status).toBe(404)
      const forbidden = await api('assigned-only').get(`/checks/${check.id}`, { expand: 'bogus' })
      expect(forbidden.status).toBe(403)
      expect(forbidden.body).toEqual(FORBIDDEN)
    })
  })

  describe('responses of every check type and outcome (contract-checked by the test client)', () => {
    it.each(CHECK_TYPES)('%s', async (type) => {
      const { give, checkOf, api } = await setup()
      for (const outcome of OUTCOMES) {
        const record = give([{ type: `check.${type}` as StepSetup['type'], completed_at: NOW }])
        const response = responseFor(type, outcome)
        const check = checkOf(record)
        Object.assign(check, { status: STATUS_OF[outcome], outcome, response: response === null ? null : RECIPE })
        const res = await api().get(`/checks/${check.id}`, { expand: 'response' })
        expect(res.status, `${type} ${outcome}: ${res.text}`).toBe(200)
        expect(res.body).toEqual(checkJson(check, { response }))
        if (outcome === 'failed' || outcome === 'paused') {
          expect(response).toBeNull()
        } else {
          if (type === 'photo_id') {
            expect(response).toMatchObject({ object: 'check_response.photo_id', status: 'complete', result: { clear: 'clear', consider: 'consider', refer: 'consider', rejected: 'rejected' }[outcome] })
          } else {
            expect(res.body.response).toStrictEqual({ object: 'check_response.other' })
          }
          expect((await api().get(`/checks/${check.id}`)).body.response).toBe(true)
        }
      }
    })
  })
})

describe('check responses as the real service gives them (docs/specification-notes.md "Checks and responses")', () => {
  /** The expanded response a check must answer: null without one, a photo ID response, or exactly check_response.other. */
  function expectFaithful(check: { type: string; status: string; response: unknown }, where: string) {
    if (check.response === null) {
      expect(['pending', 'submitted', 'failed', 'paused'], where).toContain(check.status)
    } else if (check.type === 'photo_id') {
      const response = check.response as { object: string; reports: Array<{ type: string; document_data: { gender: unknown; nfc: { gender: unknown } | null } | null }> }
      expect(response.object, where).toBe('check_response.photo_id')
      for (const report of response.reports.filter((item) => item.type === 'document' && item.document_data !== null)) {
        expect(['male', 'female', null], where).toContain(report.document_data?.gender)
        if (report.document_data?.nfc) expect(report.document_data.nfc.gender, where).toBe(report.document_data.gender)
      }
    } else {
      expect(check.response, where).toStrictEqual(OTHER)
    }
  }

  it('answers every seeded check of every team so', async () => {
    const mock = createTestMock()
    const owners = { acme: 'ivs_acme_owner', globex: 'ivs_globex_owner', initech: 'ivs_initech_owner' }
    let checked = 0
    for (const [name, token] of Object.entries(owners)) {
      const team = (await mock.api(token).get('/team')).body as { id: number }
      const stored = mock.store.team(team.id)
      expect(stored, name).toBeDefined()
      for (const check of stored?.checks.all() ?? []) {
        const res = await mock.api(token).get(`/checks/${check.id}`, { expand: 'response' })
        expect(res.status).toBe(200)
        expectFaithful(res.body, `${name} check ${check.id} (${check.type}, ${check.status})`)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(50)
  })

  it.each(CHECK_TYPES)('answers a %s check driven through every outcome so, true collapsed', async (type) => {
    const { mock, api, clientId } = await setup()
    for (const outcome of OUTCOMES) {
      const created = await api().post('/records', { client: clientId, notification: false, steps: [minimalStep(`check.${type}`)] })
      expect(created.status, created.text).toBe(201)
      const checkId: number = created.body.steps[0].check
      expect((await mock.control.post(`/records/${created.body.id}/complete`, { outcome })).status).toBe(200)
      expect((await api().get(`/checks/${checkId}`, { expand: 'response' })).body).toMatchObject({ status: 'submitted', response: null })
      expect((await mock.control.post('/clock/advance', { seconds: 60 })).status).toBe(200)
      const res = await api().get(`/checks/${checkId}`, { expand: 'response' })
      expect(res.status).toBe(200)
      expect(res.body.status).toBe(STATUS_OF[outcome])
      expectFaithful(res.body, `${type} ${outcome}`)
      const hasResponse = outcome !== 'failed' && outcome !== 'paused'
      expect(res.body.response === null, `${type} ${outcome}`).toBe(!hasResponse)
      expect((await api().get(`/checks/${checkId}`)).body.response).toBe(hasResponse ? true : null)
    }
  })

  it('gives a photo ID document\'s gender in lower case, agreeing with the MRZ\'s sex letter', async () => {
    const { mock, api } = await setup()
    for (const [title, gender, letter] of [['mr', 'male', 'M'], ['ms', 'female', 'F'], ['dr', null, '<']] as const) {
      const client = await api().post('/clients', { name: { title, first_name: 'Sam', last_name: 'Rowe' }, email: `sam.${title}@example.com`, dob: '1980-01-02' })
      const created = await api().post('/records', { client: client.body.id, notification: false, steps: [minimalStep('check.photo_id')] })
      await mock.control.post(`/records/${created.body.id}/complete`, { outcome: 'clear' })
      await mock.control.post('/clock/advance', { seconds: 60 })
      const res = await api().get(`/checks/${created.body.steps[0].check}`, { expand: 'response' })
      const data = res.body.response.reports[0].document_data
      expect([data.gender, data.nfc.gender]).toEqual([gender, gender])
      expect(data.mrz_line2.charAt(20)).toBe(letter)
    }
  })
})

describe('photo ID media: the images the client took, when the result returns', () => {
  const STORED_JPG = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jpg$/
  const RESULT_AT = '2026-07-01T12:01:00Z'

  /** A photo ID record made through the API and completed by the client with an outcome; its check after the result (60 s). */
  async function photoId(preferences: Record<string, unknown>, outcome: Outcome = 'clear') {
    const { mock, api, clientId, team } = await setup()
    const created = await api().post('/records', { client: clientId, notification: false, steps: [{ type: 'check.photo_id', preferences }] })
    expect(created.status, created.text).toBe(201)
    const checkId = created.body.steps[0].check as number
    expect(team.checks.get(checkId)?.response).toBeNull()
    await mock.control.post(`/records/${created.body.id}/complete`, { outcome })
    expect(team.filesByClient.get(clientId)).toEqual([])
    await mock.control.post('/clock/advance', { seconds: 60 })
    const res = await api().get(`/checks/${checkId}`, { expand: 'response' })
    expect(res.status).toBe(200)
    return { mock, team, clientId, checkId, response: res.body.response }
  }

  const image = (mock: { services: { blobs: { size: (blob: string) => number } } }, original: string, file: string) => ({
    object: 'attachment',
    id: expect.any(Number),
    name: expect.stringMatching(STORED_JPG),
    original,
    type: 'image/jpeg',
    size: mock.services.blobs.size(`sample:${file}`),
    av_status: 'clean',
    created_at: RESULT_AT,
    updated_at: RESULT_AT,
  })

  it('carries the document front, a photo (face) and a motion capture (liveness), each an attachment and a received file of the client', async () => {
    const { mock, team, clientId, checkId, response } = await photoId({ report_type: 'standard', docs: ['driving_licence'], face: true, liveness: true })
    expect(response.media).toEqual([
      { type: 'document', attachment: image(mock, 'driving-licence-front.jpg', 'driving-licence.jpg'), document_type: 'driving_licence', side: 'front', issuing_country: 'GBR', has_nfc: false },
      { type: 'photo', attachment: image(mock, 'selfie.jpg', 'selfie.jpg') },
      { type: 'motion_capture', attachment: image(mock, 'motion-capture.jpg', 'selfie.jpg') },
    ])
    const ids = response.media.map((media: { attachment: { id: number } }) => media.attachment.id)
    expect(team.filesByClient.get(clientId)).toEqual(
      [
        ['Driving licence (front)', ids[0]],
        ['Selfie', ids[1]],
        ['Liveness capture', ids[2]],
      ].map(([name, attachment]) => ({
        id: expect.any(Number),
        client: clientId,
        type: 'received',
        source: { type: 'check', id: checkId },
        source_subtype: 'photo_id',
        name,
        attachment,
        created_by: { type: 'client', id: clientId },
        is_deletable: false,
        expires_at: null,
        created_at: RESULT_AT,
        updated_at: RESULT_AT,
      })),
    )
  })

  it('shows a passport (with a chip) of the issuing country, a photo for facial similarity, and the media of a rejected check too', async () => {
    const { mock, response } = await photoId({ report_type: 'standard', docs: ['passport'], issuing_countries: ['IRL'], facial_similarity: true }, 'rejected')
    expect(response.result).toBe('rejected')
    expect(response.media).toEqual([
      { type: 'document', attachment: image(mock, 'passport-front.jpg', 'passport.jpg'), document_type: 'passport', side: 'front', issuing_country: 'IRL', has_nfc: true },
      { type: 'photo', attachment: image(mock, 'selfie.jpg', 'selfie.jpg') },
    ])
  })

  it('captures the face as motion on a biometric check', async () => {
    const { response } = await photoId({ report_type: 'biometric' })
    expect(response.media.map((media: { type: string; document_type?: string }) => [media.type, media.document_type])).toEqual([
      ['document', 'passport'],
      ['motion_capture', undefined],
    ])
  })

  it('has no media, attachments or files when no response comes back (failed)', async () => {
    const { team, clientId, response } = await photoId({ report_type: 'standard', docs: ['passport'] }, 'failed')
    expect(response).toBeNull()
    expect(team.filesByClient.get(clientId)).toEqual([])
  })
})
