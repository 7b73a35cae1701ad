// The consumer's Pact test: each interaction runs the client against Pact's mock server and, when
// every test passes, the pact is written to pacts/ (PACT_DIR to write it elsewhere). The provider's
// side then checks it against the contracts (ivs-mock pact check) and replays it against the mock
// with the provider states it names (ivs-mock pact verify).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MatchersV3, PactV4 } from '@pact-foundation/pact'
import { describe, expect, it } from 'vitest'
import { IvsClient, IvsError } from './client.ts'

const { eachLike, fromProviderState, integer, like, string, timestamp } = MatchersV3

const pact = new PactV4({
  consumer: 'ivs-example-consumer',
  provider: 'ivs-mock',
  dir: process.env.PACT_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'pacts'),
  logLevel: 'warn',
})

/** The recorded token; pact verify replaces it with one of the interaction's fresh team. */
const TOKEN = 'ivs_acme_owner'
const authorization = { Authorization: fromProviderState('Bearer ${token}', `Bearer ${TOKEN}`) }
const WIRE_TIME = "yyyy-MM-dd'T'HH:mm:ss'Z'"

const clientBody = (firstName: string, email: string) => ({
  object: 'client',
  id: integer(1),
  name: like({ object: 'name', first_name: firstName, last_name: 'Example', full_name: `${firstName} Example` }),
  email,
  created_at: timestamp(WIRE_TIME, '2026-06-01T09:00:00Z'),
})

describe('IvsClient against the IVS API (Pact V4)', () => {
  it('reads a client', () =>
    pact
      .addInteraction()
      .given('a client exists', { first_name: 'Ann' })
      .uponReceiving('a request for a client')
      .withRequest('GET', fromProviderState('/api/v2/clients/${clientId}', '/api/v2/clients/1'), (request) => request.headers(authorization))
      .willRespondWith(200, (response) => response.headers({ 'Content-Type': 'application/json' }).jsonBody(clientBody('Ann', 'ann@example.com')))
      .executeTest(async (server) => {
        const client = await new IvsClient(`${server.url}/api/v2`, TOKEN).getClient(1)
        expect(client.name.full_name).toBe('Ann Example')
      }))

  it('creates a client', () =>
    pact
      .addInteraction()
      .uponReceiving('a new client')
      .withRequest('POST', '/api/v2/clients', (request) =>
        request.headers(authorization).jsonBody({ name: { first_name: 'Bea', last_name: 'Example' }, email: 'bea@example.com' }),
      )
      .willRespondWith(201, (response) => response.jsonBody(clientBody('Bea', 'bea@example.com')))
      .executeTest(async (server) => {
        const client = await new IvsClient(`${server.url}/api/v2`, TOKEN).createClient({ name: { first_name: 'Bea', last_name: 'Example' }, email: 'bea@example.com' })
        expect(client.id).toBe(1)
      }))

  it('is told which fields of a new client are invalid', () =>
    pact
      .addInteraction()
      .uponReceiving('a new client with an invalid email')
      .withRequest('POST', '/api/v2/clients', (request) => request.headers(authorization).jsonBody({ name: { first_name: 'Cy', last_name: 'Example' }, email: 'not-an-email' }))
      .willRespondWith(422, (response) => response.jsonBody({ email: eachLike(string('The email field must be a valid email address.')) }))
      .executeTest(async (server) => {
        const failure = await new IvsClient(`${server.url}/api/v2`, TOKEN).createClient({ name: { first_name: 'Cy', last_name: 'Example' }, email: 'not-an-email' }).catch((error: unknown) => error)
        expect(failure).toBeInstanceOf(IvsError)
        expect((failure as IvsError).status).toBe(422)
      }))

  it('reads a record and its steps', () =>
    pact
      .addInteraction()
      .given('a record with a photo ID step exists')
      .uponReceiving('a request for a record')
      .withRequest('GET', fromProviderState('/api/v2/records/${recordId}', '/api/v2/records/7'), (request) => request.headers(authorization))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          object: 'record',
          id: integer(7),
          status: 'pending',
          steps: eachLike({ object: 'step', id: integer(70), type: 'check.photo_id', check: integer(700) }),
        }),
      )
      .executeTest(async (server) => {
        const record = await new IvsClient(`${server.url}/api/v2`, TOKEN).getRecord(7)
        expect(record.steps.map((step) => step.type)).toEqual(['check.photo_id'])
      }))

  it('reads cases, refused to a legacy team', () =>
    pact
      .addInteraction()
      .given('the team has no cases')
      .uponReceiving('a request for cases from a team without cases')
      .withRequest('GET', '/api/v2/cases', (request) => request.headers(authorization))
      .willRespondWith(403, (response) => response.jsonBody({ message: string('This action is unauthorized.') }))
      .executeTest(async (server) => {
        const failure = await new IvsClient(`${server.url}/api/v2`, TOKEN).listCases().catch((error: unknown) => error)
        expect((failure as IvsError).status).toBe(403)
      }))
})
