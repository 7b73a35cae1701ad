// The harness judges a request body as the mock's gate reads it (src/contracts/request.ts): what
// Laravel's rules take (docs/behaviour-notes.md "Validation (422)") is no violation, so the proxy and the Pact check
// agree with the mock about a client that sends ids as strings.
import { describe, expect, it } from 'vitest'
import { Conformance } from '../../src/harness/conformance.ts'
import { contracts } from '../support/contracts.ts'

const conformance = new Conformance(contracts)
const recordsCreate = contracts.operation('records.create')
const check = (body: unknown) => conformance.checkRequest(recordsCreate, { body, contentType: 'application/json' })

describe('Conformance.checkRequest: JSON bodies read as Laravel reads them', () => {
  it('finds nothing wrong with ids and flags a Django client sends as strings', () => {
    expect(check({ client: '157', steps: [{ type: 'check.reference', preferences: { years: ' 3 ' } }], notification: 'email', reminder: '1', message: '' })).toEqual([])
  })

  it('names what Laravel refuses: a fraction for an integer, "true" for a boolean', () => {
    const violations = check({ client: '1.5', steps: [{ type: 'check.identity' }], notification: false, reminder: 'true' })
    expect(violations.map((violation) => violation.at)).toEqual(['request body.client', 'request body.reminder'])
  })

  it('leaves the body it was given as it was', () => {
    const body = { client: '157', steps: [{ type: 'check.identity' }], notification: false }
    check(body)
    expect(body.client).toBe('157')
  })
})
