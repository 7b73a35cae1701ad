import { describe, expect, it } from 'vitest'
import { Contracts } from '../../src/contracts/load.ts'

describe('contracts', () => {
  const contracts = new Contracts()

  it('loads every operations file, schema and event schema', () => {
    expect(contracts.operations.size).toBeGreaterThan(0)
    expect(contracts.schemas.size).toBeGreaterThan(0)
  })

  it('compiles every schema document, body, query and response schema (all $refs resolve)', () => {
    for (const name of contracts.schemas.keys()) expect(() => contracts.schemaValidator(name), name).not.toThrow()
    for (const op of contracts.operations.values()) {
      expect(() => contracts.queryValidator(op.id), `${op.id} query`).not.toThrow()
      expect(() => contracts.bodyValidator(op.id), `${op.id} body`).not.toThrow()
      for (const status of Object.keys(op.responses)) {
        expect(() => contracts.responseValidator(op.id, Number(status)), `${op.id} ${status}`).not.toThrow()
      }
    }
  })

  it('gives every method and path one operation only', () => {
    const seen = new Map<string, string>()
    for (const op of contracts.operations.values()) {
      const key = `${op.method} ${op.path.replace(/\{[^}]+\}/g, '{}')}`
      expect(seen.get(key), `${op.id} and ${seen.get(key)} share ${key}`).toBeUndefined()
      seen.set(key, op.id)
    }
  })
})
