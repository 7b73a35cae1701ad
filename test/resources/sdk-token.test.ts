// POST /sdk_token (docs/specification-notes.md "Downloads and SDK tokens": body {record_id}; a JWT valid for 60 minutes, scoped to one record)
// and the control API's GET /_mock/sdk_token/key that verifies its tokens. Tokens are verified
// with jose, on the mock's clock.
import { calculateJwkThumbprint, decodeProtectedHeader, errors, importJWK, jwtVerify, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { createTestMock, NOW, TEST_NOW, type TestMock } from '../support/mock.ts'
import { giveRecord } from '../support/rows.ts'
import { deriveSdkTokenKey, sdkTokenKey } from '../../src/resources/sdk-token/key.ts'
import { Store } from '../../src/store/world.ts'
import { TABLES } from '../../src/tables.ts'

const FORBIDDEN = { message: 'This action is unauthorized.' }
const INVALID_RECORD = { record_id: ['The selected record id is invalid.'] }
const ISSUER = 'ivs-mock'
const AUDIENCE = 'ivs-mock-sdk'
const SECONDS = Math.floor(TEST_NOW.getTime() / 1000)

/** The JWK the control API publishes. */
async function publishedKey(mock: TestMock): Promise<JWK> {
  const res = await mock.control.get('/sdk_token/key')
  expect(res.status, res.text).toBe(200)
  return res.body.jwk
}

/** Verifies a token with the published key at a moment of the mock's clock (default: now). */
async function verify(mock: TestMock, token: string, at: Date = mock.clock.now()) {
  return jwtVerify(token, await importJWK(await publishedKey(mock)), { issuer: ISSUER, audience: AUDIENCE, currentDate: at, algorithms: ['HS256'] })
}

/** A fresh team with one client and one record of it. */
async function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const res = await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' })
  expect(res.status, res.text).toBe(201)
  const teamRow = team.team
  const record = giveRecord(mock, teamRow, res.body.id, { steps: [{ type: 'check.identity', cost: 1 }] })
  return { mock, team, teamRow, clientId: res.body.id as number, record }
}

describe('POST /sdk_token', () => {
  it('answers 201 {object: "sdk_token", token}: an HS256 JWT for the record, the team and the caller, valid 60 minutes of the mock clock', async () => {
    const { mock, team, clientId, record } = await setup()
    const res = await team.api().post('/sdk_token', { record_id: record.id })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['object', 'token'])
    expect(res.body.object).toBe('sdk_token')
    const { payload, protectedHeader } = await verify(mock, res.body.token)
    const { jwk } = (await mock.control.get('/sdk_token/key')).body
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: jwk.kid })
    expect(payload).toEqual({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: String(record.id),
      record_id: record.id,
      client_id: clientId,
      team_id: team.team.id,
      user_id: team.users.owner.id,
      iat: SECONDS,
      exp: SECONDS + 3600,
    })
  })

  it('takes the record id as a string of digits, as Laravel reads an integer (docs/behaviour-notes.md "Validation (422)"), and signs the number', async () => {
    const { mock, team, record } = await setup()
    const res = await team.api().post('/sdk_token', { record_id: ` ${record.id} ` })
    expect(res.status, res.text).toBe(201)
    const { payload } = await verify(mock, res.body.token)
    expect([payload.sub, payload.record_id]).toEqual([String(record.id), record.id])
  })

  it('takes its times from the mock clock and expires after 3600 seconds of it', async () => {
    const { mock, team, record } = await setup()
    mock.clock.advance(90 * 60_000)
    const res = await team.api().post('/sdk_token', { record_id: record.id })
    expect(res.status).toBe(201)
    const { payload } = await verify(mock, res.body.token)
    expect(payload.iat).toBe(SECONDS + 90 * 60)
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600)
    const issued = mock.clock.now().getTime()
    await expect(verify(mock, res.body.token, new Date(issued + 3599_000))).resolves.toBeDefined()
    await expect(verify(mock, res.body.token, new Date(issued + 3600_000))).rejects.toBeInstanceOf(errors.JWTExpired)
  })

  it('names the user who asked: every role that may write, an assigned-only member on a record assigned to them', async () => {
    const { mock, team, teamRow, clientId } = await setup()
    const assignedOnly = team.users['assigned-only'].id
    const record = giveRecord(mock, teamRow, clientId, { assignees: [{ id: mock.store.nextId('assignee'), user: assignedOnly, created_at: NOW }] })
    for (const role of ['owner', 'member', 'assigned-only', 'assumed'] as const) {
      const res = await team.api(role).post('/sdk_token', { record_id: record.id })
      expect(res.status, role).toBe(201)
      const { payload } = await verify(mock, res.body.token)
      expect(payload.user_id, role).toBe(team.users[role].id)
      expect(payload.record_id, role).toBe(record.id)
    }
  })

  it('is the same token for the same record, caller and clock (HS256 is deterministic)', async () => {
    const { mock, team, record } = await setup()
    const first = await team.api().post('/sdk_token', { record_id: record.id })
    const again = await team.api().post('/sdk_token', { record_id: record.id })
    expect(again.body.token).toBe(first.body.token)
    mock.clock.advance(1000)
    expect((await team.api().post('/sdk_token', { record_id: record.id })).body.token).not.toBe(first.body.token)
  })

  it('issues tokens for records in any state: expired, archived, complete', async () => {
    const { mock, teamRow, clientId, team } = await setup()
    const records = [
      giveRecord(mock, teamRow, clientId, { expired_at: '2026-06-01T00:00:00Z' }),
      giveRecord(mock, teamRow, clientId, { archived_at: NOW }),
      giveRecord(mock, teamRow, clientId, { steps: [{ type: 'form', completed_at: NOW }] }),
    ]
    for (const record of records) {
      const res = await team.api().post('/sdk_token', { record_id: record.id })
      expect(res.status).toBe(201)
      expect((await verify(mock, res.body.token)).payload.sub).toBe(String(record.id))
    }
  })

  it('answers 422 keyed record_id for a record the team does not have, another team\'s, or one an assigned-only member is not assigned to', async () => {
    const { mock, team, record } = await setup()
    const before = structuredClone(mock.store.data)
    for (const [token, id] of [
      [team.tokens.owner, record.id + 1000],
      [team.tokens['assigned-only'], record.id],
      ['ivs_globex_owner', record.id],
      ['ivs_acme_owner', record.id],
    ] as const) {
      const res = await mock.api(token).post('/sdk_token', { record_id: id })
      expect(res.status, `${token} ${id}`).toBe(422)
      expect(res.body).toEqual(INVALID_RECORD)
    }
    expect(mock.store.data).toEqual(before)
  })

  it('validates the body: record_id is a required integer of at least 1', async () => {
    const { team } = await setup()
    const api = team.api()
    expect((await api.post('/sdk_token', {})).body).toEqual({ record_id: ['The record id field is required.'] })
    expect((await api.post('/sdk_token', { record_id: null })).body).toEqual({ record_id: ['The record id field is required.'] })
    expect((await api.post('/sdk_token', { record_id: '1.5' })).body).toEqual({ record_id: ['The record id field must be an integer.'] })
    expect((await api.post('/sdk_token', { record_id: 'abc' })).body).toEqual({ record_id: ['The record id field must be an integer.'] })
    expect((await api.post('/sdk_token', { record_id: 0 })).body).toEqual({ record_id: ['The record id field must be at least 1.'] })
    const res = await api.request('POST', '/sdk_token', { raw: '{' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['The request body must be valid JSON.'] })
  })

  it('answers 403 to read-only members, before the body is validated', async () => {
    const { mock, team, record } = await setup()
    for (const [token, body] of [
      [team.tokens['read-only'], { record_id: record.id }],
      [team.tokens['read-only'], {}],
      ['ivs_acme_readonly', { record_id: 999_999 }],
    ] as const) {
      const res = await mock.api(token).post('/sdk_token', body)
      expect(res.status, token).toBe(403)
      expect(res.body).toEqual(FORBIDDEN)
    }
  })

  it('answers 401 without a valid token', async () => {
    const { mock, record } = await setup()
    for (const token of [undefined, 'ivs_nope', 'ivs_expired']) {
      const res = await mock.api().as(token).post('/sdk_token', { record_id: record.id })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'Unauthenticated.' })
    }
  })
})

describe('GET /_mock/sdk_token/key', () => {
  it('publishes the HS256 key as a JWK whose kid is its RFC 7638 thumbprint, without a token', async () => {
    const mock = createTestMock()
    expect(mock.control.token).toBeUndefined()
    const res = await mock.control.get('/sdk_token/key')
    expect(res.status).toBe(200)
    const key = deriveSdkTokenKey(mock.store.data.seed)
    expect(res.body).toEqual({ object: 'mock_sdk_token_key', alg: 'HS256', issuer: ISSUER, audience: AUDIENCE, lifetime: 3600, jwk: key.jwk })
    expect(Buffer.from(res.body.jwk.k, 'base64url')).toHaveLength(32)
    expect(await calculateJwkThumbprint(res.body.jwk)).toBe(res.body.jwk.kid)
  })

  it('is derived from the seed: the same for the same seeded world and after a restart from its data, another for another seed', async () => {
    const { mock, team, record } = await setup()
    const token = (await team.api().post('/sdk_token', { record_id: record.id })).body.token
    // What --data writes and reads back is the world's JSON, seed included.
    const restored = new Store(JSON.parse(JSON.stringify(mock.store.data)), TABLES)
    expect(sdkTokenKey(restored)).toEqual(sdkTokenKey(mock.store))
    const other = createTestMock()
    expect((await other.control.get('/sdk_token/key')).body).toEqual((await mock.control.get('/sdk_token/key')).body)
    await expect(verify(other, token)).resolves.toBeDefined()
    expect(deriveSdkTokenKey(mock.store.data.seed + 1).jwk.k).not.toBe(sdkTokenKey(mock.store).jwk.k)
    expect(decodeProtectedHeader(token).kid).toBe(sdkTokenKey(restored).kid)
  })

  it('verifies with the raw secret too (base64url-decoded k), as other JWT libraries take it', async () => {
    const { mock, team, record } = await setup()
    const token = (await team.api().post('/sdk_token', { record_id: record.id })).body.token
    const { jwk } = (await mock.control.get('/sdk_token/key')).body
    const { payload } = await jwtVerify(token, new Uint8Array(Buffer.from(jwk.k, 'base64url')), { currentDate: TEST_NOW })
    expect(payload.sub).toBe(String(record.id))
  })
})
