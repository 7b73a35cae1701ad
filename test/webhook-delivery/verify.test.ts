// The receiver helper ivs-mock/webhooks (package.json "exports") and subscription matching.
import { execFileSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sign, verifySignature } from 'ivs-mock/webhooks'
import { subscribes } from '../../src/webhook-delivery/matching.ts'

const SECRET = 'a'.repeat(64)
const BODY = '{"uuid":"7b0c9a52-5f0e-4d8e-9d0b-2f1d7f0e9a11","event":"ping","sent_at":"2026-07-01T12:00:00Z","data":["ping"]}'

describe('verifySignature', () => {
  const signature = createHmac('sha256', SECRET).update(BODY).digest('base64')

  it('accepts the base64 HMAC-SHA256 of the raw body, as text or bytes, and a header given as an array', () => {
    expect(sign(BODY, SECRET)).toBe(signature)
    expect(verifySignature(BODY, signature, SECRET)).toBe(true)
    expect(verifySignature(Buffer.from(BODY), signature, SECRET)).toBe(true)
    expect(verifySignature(new Uint8Array(Buffer.from(BODY)), [signature], SECRET)).toBe(true)
  })

  it.each([
    ['a changed body', `${BODY} `, signature, SECRET],
    ['re-serialised JSON', JSON.stringify(JSON.parse(BODY), null, 2), signature, SECRET],
    ['another secret', BODY, signature, 'b'.repeat(64)],
    ['an empty secret', BODY, signature, ''],
    ['no header', BODY, undefined, SECRET],
    ['a null header', BODY, null, SECRET],
    ['a truncated signature', BODY, signature.slice(0, -2), SECRET],
    ['garbage', BODY, 'not-a-signature', SECRET],
  ])('refuses %s', (_, body, header, secret) => {
    expect(verifySignature(body, header, secret)).toBe(false)
  })

  it('resolves as ivs-mock/webhooks in plain Node, through the package\'s exports', () => {
    const script = `import('ivs-mock/webhooks').then((m) => console.log(m.verifySignature(${JSON.stringify(BODY)}, ${JSON.stringify(signature)}, ${JSON.stringify(SECRET)})))`
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 }).trim()).toBe('true')
  })
})

describe('subscribes', () => {
  it.each([
    [['*'], 'client.created', true],
    [['client.*'], 'client.deletion_reminder_due', true],
    [['client.*'], 'case.created', false],
    [['case.*'], 'case.item_added', true],
    [['record.finished'], 'record.finished', true],
    [['record.finished'], 'record.updated', false],
    [['form.*', 'record.updated'], 'record.updated', true],
    [['watchlist.updated'], 'watchlist.updated', true],
  ] as const)('%j reaches %s: %s', (events, event, expected) => {
    expect(subscribes(events, event)).toBe(expected)
  })
})
