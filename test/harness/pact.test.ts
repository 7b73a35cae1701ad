// ivs-mock pact check and pact verify as CI runs them: the example consumer's Pact test writes its
// pact (into a temporary folder), then the CLI checks it against contracts/ and verifies it against
// an in-process mock on 127.0.0.1; a pact with wrong interactions fails both, naming them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { createTestMock } from '../support/mock.ts'
import { runToExit } from '../support/process.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const BIN = `${root}bin/ivs-mock.js`
const VITEST = `${root}node_modules/vitest/vitest.mjs`
const CONSUMER_CONFIG = `${root}examples/pact-consumer/vitest.config.ts`
const RUN_LIMIT_MS = 60_000

let dir: string
let examplePact: string
const env = (): NodeJS.ProcessEnv => ({ ...process.env, PACT_DO_NOT_TRACK: 'true', PACT_DIR: dir })
const cli = (args: string[]) => runToExit(BIN, args, { env: env(), limitMs: RUN_LIMIT_MS })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ivs-pact-'))
  const consumer = await runToExit(VITEST, ['run', '--config', CONSUMER_CONFIG], { env: env(), limitMs: RUN_LIMIT_MS })
  expect(consumer.code, consumer.stdout + consumer.stderr).toBe(0)
  examplePact = join(dir, 'ivs-example-consumer-ivs-mock.json')
}, RUN_LIMIT_MS * 2)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A V4 pact of the example consumer and the provider, holding these interactions. */
async function pactFile(name: string, interactions: unknown[], version = '4.0'): Promise<string> {
  const file = join(dir, name)
  const pact = { consumer: { name: 'wrong-consumer' }, provider: { name: 'ivs-mock' }, interactions, metadata: { pactSpecification: { version } } }
  await writeFile(file, JSON.stringify(pact, null, 2))
  return file
}

const json = (content: unknown) => ({ content, contentType: 'application/json', encoded: false })
/** A recorded token: pact verify replaces it with one of the interaction's fresh team. */
const AUTHORIZATION = 'Bearer ivs_recorded'

/** Three wrong interactions: an undocumented status, a body field of the wrong type, a request with an invalid body. */
const WRONG_INTERACTIONS = [
  {
    type: 'Synchronous/HTTP',
    description: 'a client answered with a teapot',
    providerStates: [{ name: 'a client exists' }],
    request: {
      method: 'GET',
      path: '/api/v2/clients/1',
      headers: { Authorization: [AUTHORIZATION] },
      generators: { path: { type: 'ProviderState', expression: '/api/v2/clients/${clientId}' } },
    },
    response: { status: 418 },
  },
  {
    type: 'Synchronous/HTTP',
    description: 'a client whose id is a word',
    providerStates: [{ name: 'a client exists' }],
    request: { method: 'GET', path: '/clients/1', headers: { Authorization: [AUTHORIZATION] }, generators: { path: { type: 'ProviderState', expression: '/clients/${clientId}' } } },
    response: { status: 200, body: json({ object: 'client', id: 'one' }) },
  },
  {
    type: 'Synchronous/HTTP',
    description: 'a new client without a last name',
    request: { method: 'POST', path: '/api/v2/clients', headers: { 'Content-Type': ['application/json'], Authorization: [AUTHORIZATION] }, body: json({ name: { first_name: 'Ann' }, email: 'ann@example.com' }) },
    response: { status: 201, body: json({ object: 'client' }) },
  },
]

describe('the example consumer', () => {
  it('writes a V4 pact with provider states', async () => {
    const pact = JSON.parse(await readFile(examplePact, 'utf8'))
    expect(pact.metadata.pactSpecification.version).toBe('4.0')
    expect(pact.interactions.map((interaction: { description: string }) => interaction.description).sort()).toEqual([
      'a new client',
      'a new client with an invalid email',
      'a request for a client',
      'a request for a record',
      'a request for cases from a team without cases',
    ])
  })

  it('checks clean against the contracts', async () => {
    const result = await cli(['pact', 'check', examplePact])
    expect(result).toEqual({ code: 0, stdout: 'pact check: 5 interactions in 1 file, 0 failed\n', stderr: '' })
  })

  it('verifies against the in-process mock', async () => {
    const result = await cli(['pact', 'verify', examplePact])
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^pact verify: passed against http:\/\/127\.0\.0\.1:\d+$/m)
    for (const state of ['a client exists', 'a record with a photo ID step exists', 'the team has no cases']) expect(result.stdout).toContain(`Given ${state}`)
  })
})

describe('a pact with wrong interactions', () => {
  it('fails pact check, naming each interaction, where and why', async () => {
    const file = await pactFile('wrong.json', WRONG_INTERACTIONS)
    const result = await cli(['pact', 'check', file])
    expect(result.code).toBe(1)
    expect(result.stdout.split('\n')).toEqual([
      `${file}: "a client answered with a teapot": response status: 418 is not a status clients.get documents (200, 401, 403, 404, 429)`,
      `${file}: "a client whose id is a word": response body.id: must be integer {"type":"integer"}`,
      `${file}: "a new client without a last name": request body.name: must have required property 'last_name' {"missingProperty":"last_name"}`,
      'pact check: 3 interactions in 1 file, 3 failed',
      '',
    ])
  })

  it('a request without a bearer token fails pact check, unless it expects a 401', async () => {
    const file = await pactFile('no-token.json', [
      { type: 'Synchronous/HTTP', description: 'the team, without a token', request: { method: 'GET', path: '/api/v2/team' }, response: { status: 200 } },
      { type: 'Synchronous/HTTP', description: 'refused without a token', request: { method: 'GET', path: '/api/v2/team' }, response: { status: 401, body: json({ error: 'Unauthenticated.' }) } },
    ])
    expect(await cli(['pact', 'check', file])).toEqual({
      code: 1,
      stdout: `${file}: "the team, without a token": request header Authorization: team.get takes a bearer token (Authorization: Bearer <token>), got none\npact check: 2 interactions in 1 file, 1 failed\n`,
      stderr: '',
    })
  })

  it('fails pact verify, naming each interaction', async () => {
    const file = await pactFile('wrong.json', WRONG_INTERACTIONS)
    const result = await cli(['pact', 'verify', file])
    expect(result.code).toBe(1)
    const failures = result.stderr.split('\n').filter((line) => line.startsWith('ivs-mock pact verify: '))
    expect(failures).toEqual([
      'ivs-mock pact verify: Verifying a pact between wrong-consumer and ivs-mock Given a client exists - a client answered with a teapot: StatusMismatch: expected 418 but was 200',
      expect.stringMatching(/^ivs-mock pact verify: Verifying a pact between wrong-consumer and ivs-mock Given a client exists - a client whose id is a word: \$\.id: Expected \d+ \(Integer\) to be equal to 'one' \(String\)$/),
      'ivs-mock pact verify: Verifying a pact between wrong-consumer and ivs-mock - a new client without a last name: $: Actual map is missing the following keys: object',
      'ivs-mock pact verify: Verifying a pact between wrong-consumer and ivs-mock - a new client without a last name: StatusMismatch: expected 201 but was 422',
    ])
    expect(result.stdout).toMatch(/^pact verify: failed against/m)
  })

  it('fails pact verify on a provider state ivs-mock does not know, before any request', async () => {
    const file = await pactFile('unknown-state.json', [{ ...WRONG_INTERACTIONS[1], description: 'a client of a kind', providerStates: [{ name: 'a VIP client exists' }] }])
    const result = await cli(['pact', 'verify', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(
      `ivs-mock pact verify: ${file}: "a client of a kind": unknown provider state "a VIP client exists"; the states ivs-mock knows: ` +
        '"a client exists", "a record with a photo ID step exists", "a record with a completed identity check exists", "a case exists", "a webhook exists", "the team has no cases"\n',
    )
  })
})

describe('pact files of every version', () => {
  /** V2: one state by name, the query as a string, paths relative to the API base. */
  const v2 = () =>
    pactFile(
      'v2.json',
      [
        {
          description: 'the first page of cases',
          providerState: 'a case exists',
          request: { method: 'GET', path: '/cases', query: 'limit=1', headers: { Authorization: AUTHORIZATION } },
          response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { object: 'paginated_list', data: [{ object: 'case', name: 'Onboarding' }] } },
        },
      ],
      '2.0.0',
    )
  /** V3: states with parameters, injected ids, and the role whose token the request carries. */
  const v3 = () =>
    pactFile(
      'v3.json',
      [
        {
          description: 'a completed identity check, seen by a read-only user',
          providerStates: [{ name: 'a record with a completed identity check exists', params: { outcome: 'consider', role: 'read-only' } }],
          request: { method: 'GET', path: '/api/v2/checks/1', headers: { Authorization: AUTHORIZATION }, generators: { path: { type: 'ProviderState', expression: '/api/v2/checks/${checkId}' } } },
          response: { status: 200, body: { object: 'check', type: 'identity', status: 'accepted' } },
        },
        {
          description: 'a webhook, without a token',
          providerStates: [{ name: 'a webhook exists', params: { role: 'none' } }],
          request: { method: 'GET', path: '/api/v2/webhooks/1', generators: { path: { type: 'ProviderState', expression: '/api/v2/webhooks/${webhookId}' } } },
          response: { status: 401, body: { error: 'Unauthenticated.' } },
        },
      ],
      '3.0.0',
    )

  it('checks V2 and V3 pacts clean', async () => {
    expect(await cli(['pact', 'check', await v2(), await v3()])).toEqual({ code: 0, stdout: 'pact check: 3 interactions in 2 files, 0 failed\n', stderr: '' })
  })

  it('verifies V2 and V3 pacts against a running mock (--base)', async () => {
    const files = [await v2(), await v3()]
    const mock = createTestMock()
    const server = await new Promise<ServerType>((resolve) => {
      const listening: ServerType = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening))
    })
    const { port } = server.address() as AddressInfo
    const verified = await cli(['pact', 'verify', '--base', `http://127.0.0.1:${port}`, ...files]).finally(() => server.close())
    expect(verified.code, verified.stdout + verified.stderr).toBe(0)
    for (const description of ['the first page of cases', 'a completed identity check, seen by a read-only user', 'a webhook, without a token']) {
      expect(verified.stdout).toContain(description)
    }
  })

  it('an unreadable pact file is exit 2 for both commands', async () => {
    const missing = join(dir, 'missing.json')
    for (const command of ['check', 'verify']) {
      expect(await cli(['pact', command, missing])).toEqual({ code: 2, stdout: '', stderr: `ivs-mock pact: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'\n` })
    }
  })
})
