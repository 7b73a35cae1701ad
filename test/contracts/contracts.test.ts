import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AjvContracts, checkOperationFiles } from '../../src/contracts/ajv.ts'
import { SURFACES } from '../../src/contracts/load.ts'
import { contractsDir } from '../../src/paths.ts'

describe('contracts', () => {
  const contracts = new AjvContracts()

  it('loads every operations file, schema and event schema', () => {
    expect(contracts.operations.size).toBeGreaterThan(0)
    expect(contracts.schemas.size).toBeGreaterThan(0)
  })

  it('has operations files of the shape operation-file.schema.json describes', () => {
    expect(() => checkOperationFiles()).not.toThrow()
  })

  it('refuses an operations file of another shape, naming the file and the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivs-contracts-'))
    try {
      cpSync(contractsDir, dir, { recursive: true })
      const file = join(dir, 'operations', 'clients.json')
      const content = JSON.parse(readFileSync(file, 'utf8'))
      content.operations['clients.get'].method = 'FETCH'
      writeFileSync(file, JSON.stringify(content))
      expect(() => checkOperationFiles(dir)).toThrow(
        /^contracts: operations\/clients\.json is not a valid operations file: \/operations\/clients\.get\/method must be equal to one of the allowed values/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
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

  it('gives every method and path one operation only (per surface: /api/v2 and /_mock)', () => {
    const seen = new Map<string, string>()
    for (const op of contracts.operations.values()) {
      const key = `${op.method} ${SURFACES[op.surface].base}${op.path.replace(/\{[^}]+\}/g, '{}')}`
      expect(seen.get(key), `${op.id} and ${seen.get(key)} share ${key}`).toBeUndefined()
      seen.set(key, op.id)
    }
  })
})
