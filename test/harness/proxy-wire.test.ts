// The validating proxy in process, in front of the test mock on 127.0.0.1, fed raw bytes: what it
// forwards is what it got (an HTTP/1.0 request without Host gets the upstream's), and pipelined
// requests are recorded as they happened (a valid one, then a malformed one in the same write).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ValidatingProxy } from '../../src/harness/proxy.ts'
import { contracts } from '../support/contracts.ts'
import { rawExchange } from '../support/proxy.ts'
import { startTarget, type Target } from './support.ts'

let target: Target
let proxy: ValidatingProxy
let port: number

beforeAll(async () => {
  target = await startTarget()
  proxy = new ValidatingProxy(contracts, { upstream: new URL(target.base).origin, host: '127.0.0.1', port: 0, log: () => undefined })
  port = await proxy.start()
})

afterAll(async () => {
  await proxy.stop()
  await target.close()
})

beforeEach(() => {
  proxy.exchanges.length = 0
})


const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((match) => Number(match[1]))
const recorded = () => proxy.exchanges.map((exchange) => ({ method: exchange.method, path: exchange.path, status: exchange.status, answeredBy: exchange.answeredBy, verdicts: exchange.verdicts.map((verdict) => verdict.kind) }))

/** Until the proxy has recorded `count` exchanges (each is recorded once its answer has passed). */
async function recordedCount(count: number): Promise<void> {
  for (let tries = 0; proxy.exchanges.length < count && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 10))
}

const CLIENT = JSON.stringify({ name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' })

describe('the proxy on the wire', () => {
  it("forwards an HTTP/1.0 request without Host with the upstream's host, as the mock answers it directly", async () => {
    const request = 'GET /api/v2/status HTTP/1.0\r\nAuthorization: Bearer ivs_acme_owner\r\n\r\n'
    expect(statuses(await rawExchange(Number(new URL(target.base).port), request))).toEqual([204])
    expect(statuses(await rawExchange(port, request))).toEqual([204])
    await recordedCount(1)
    expect(recorded()).toEqual([{ method: 'GET', path: '/api/v2/status', status: 204, answeredBy: 'upstream', verdicts: [] }])
  })

  it('records a valid request and a malformed one sent after it in the same write each as it happened: the answer, then the 400', async () => {
    const valid = `POST /api/v2/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ivs_acme_owner\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(CLIENT)}\r\n\r\n${CLIENT}`
    const malformed = 'DELETE /api/v2/clients/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: twelve\r\n\r\n'
    const answer = await rawExchange(port, `${valid}${malformed}`)
    // The client gets its answer first, then the proxy's 400 for what it could not read.
    expect(statuses(answer)).toEqual([201, 400])
    await recordedCount(2)
    expect(recorded()).toEqual([
      { method: 'POST', path: '/api/v2/clients', status: 201, answeredBy: 'upstream', verdicts: [] },
      { method: 'DELETE', path: '/api/v2/clients/1', status: 400, answeredBy: 'proxy', verdicts: ['not_relayed'] },
    ])
  })
})
