// The journal's parts that know no HTTP: the ring that bounds it, and the walker (shared with the
// proxy) that finds what a request sends that its contract ignores or deprecates.
import { describe, expect, it } from 'vitest'
import { InputAudit } from '../../src/contracts/ignored.ts'
import { Ring } from '../../src/kernel/journal.ts'
import { contracts } from '../support/contracts.ts'

const audit = new InputAudit(contracts)
const op = (id: string) => contracts.operation(id)

describe('Ring', () => {
  it('keeps at most its size, dropping the oldest, in order', () => {
    const ring = new Ring<number>(3)
    expect(ring.toArray()).toEqual([])
    for (let value = 1; value <= 2; value++) ring.push(value)
    expect(ring.toArray()).toEqual([1, 2])
    for (let value = 3; value <= 10; value++) ring.push(value)
    expect(ring.toArray()).toEqual([8, 9, 10])
    expect(ring.length).toBe(3)
  })
})

describe('InputAudit', () => {
  it('names query parameters the operation does not take, each once, and reads expand[] as expand', () => {
    const findings = audit.audit(op('records.list'), { query: new URLSearchParams('colour=red&colour=blue&limit=2&page=1&expand[]=client') })
    expect(findings).toEqual({ ignoredQuery: ['colour'], ignoredBody: [], deprecated: [] })
    expect(audit.audit(op('clients.list'), { query: new URLSearchParams('expand[]=client') }).ignoredQuery).toEqual(['expand[]'])
  })

  it('names body properties the schema does not declare, nested ones by dot path, and follows $refs into other documents', () => {
    const findings = audit.audit(op('records.create'), {
      body: { client: 1, steps: [{ type: 'check.identity', colour: 'red' }], notification: false, extra: { deep: true } },
    })
    expect(findings.ignoredBody).toEqual(['steps.0.colour', 'extra'])
  })

  it('takes any key of a map (additionalProperties with a schema)', () => {
    const findings = audit.audit(op('control.records.complete'), { body: { outcomes: { '12': 'clear', '13': 'consider' } } })
    expect(findings.ignoredBody).toEqual([])
  })

  it('finds deprecated operations, parameters and enum values, in the query and in a body', () => {
    expect(audit.audit(op('records.archive'), {}).deprecated).toEqual([
      { at: null, message: 'records.archive is deprecated (use the record update with is_archived)' },
    ])
    expect(audit.audit(op('records.list'), { query: new URLSearchParams('creator=3&created_by=3') }).deprecated).toEqual([
      { at: 'creator', message: 'the query parameter creator is deprecated (use created_by)' },
    ])
    expect(audit.audit(op('cases.list'), { query: new URLSearchParams('status=approved,pending') }).deprecated).toEqual([
      { at: 'status', message: '"pending" is a deprecated value of status' },
    ])
    expect(audit.audit(op('cases.reviews.create'), { body: { status: 'pending' } }).deprecated).toEqual([
      { at: 'status', message: '"pending" is a deprecated value of status' },
    ])
    expect(audit.audit(op('cases.reviews.create'), { body: { status: 'approved' } }).deprecated).toEqual([])
  })
})
