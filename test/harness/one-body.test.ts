// One body, one verdict: a JSON body that starts with a UTF-8 byte-order mark is read as the JSON
// after it by the mock (its gate and its journal), by the validating proxy in front of it and by the
// Pact check, which all read bodies with contracts/body.ts; and text that is no JSON is refused by
// the mock and judged by the proxy alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Conformance } from '../../src/harness/conformance.ts'
import { checkPact } from '../../src/harness/pact/check.ts'
import { readPactFile } from '../../src/harness/pact/pact-file.ts'
import { ValidatingProxy } from '../../src/harness/proxy.ts'
import { contracts } from '../support/contracts.ts'
import { startTarget, type Target } from './support.ts'

const CLIENT = { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }
const WITH_BOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(CLIENT))])

let target: Target
let proxy: ValidatingProxy
let origin: string

beforeAll(async () => {
  target = await startTarget()
  proxy = new ValidatingProxy(contracts, { upstream: new URL(target.base).origin, host: '127.0.0.1', port: 0, log: () => undefined })
  origin = `http://127.0.0.1:${await proxy.start()}`
})

afterAll(async () => {
  await proxy.stop()
  await target.close()
})

describe('a JSON body after a UTF-8 byte-order mark', () => {
  it('is a client for the mock, no finding in its journal, and no violation for the proxy in front of it; text that is no JSON is refused alike', async () => {
    const team = target.mock.newTeam()
    const post = (body: Buffer | string) => fetch(`${origin}/api/v2/clients`, { method: 'POST', headers: { Authorization: `Bearer ${team.tokens.owner}`, 'Content-Type': 'application/json' }, body })
    const created = await post(WITH_BOM)
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ object: 'client', email: 'ada@example.com' })
    const refused = await post('{"name":')
    expect([refused.status, await refused.json()]).toEqual([422, { errors: ['The request body must be valid JSON.'] }])
    await proxy.stop()
    expect(proxy.exchanges.map((exchange) => [exchange.status, exchange.requestViolations])).toEqual([
      [201, []],
      [422, ['request body: must be valid JSON']],
    ])
    expect(proxy.exchanges[0]?.recorded.requestBody).toEqual(CLIENT)
    const journal = (await (await target.mock.app.request(`/_mock/journal?team=${team.team.id}`)).json()) as { data: { status: number; verdicts: { kind: string; message: string }[] }[] }
    expect(journal.data.reverse().map((entry) => [entry.status, entry.verdicts.map((verdict) => `${verdict.kind}: ${verdict.message}`)])).toEqual([
      [201, []],
      [422, ['request_violation: The request body must be valid JSON.']],
    ])
  })

  it('is no violation for the Pact check, in a V4 interaction with a base64 body', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ivs-pact-'))
    try {
      const file = join(folder, 'bom.json')
      const interaction = {
        type: 'Synchronous/HTTP',
        description: 'a client created with a byte-order mark before its JSON',
        request: { method: 'POST', path: '/api/v2/clients', headers: { Authorization: ['Bearer t'], 'Content-Type': ['application/json'] }, body: { content: WITH_BOM.toString('base64'), contentType: 'application/json', encoded: 'base64' } },
        response: { status: 201 },
      }
      writeFileSync(file, JSON.stringify({ consumer: { name: 'app' }, provider: { name: 'ivs' }, interactions: [interaction], metadata: { pactSpecification: { version: '4.0' } } }))
      expect(checkPact(new Conformance(contracts), readPactFile(file))).toEqual([])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
