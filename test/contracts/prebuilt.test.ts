// The validators the build compiled (dist/validators/), which the server runs instead of Ajv: they
// are what the contracts compile to now, they judge as Ajv's own do, and they are refused for
// contracts other than those they came from, at start and file by file.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { validatorFiles } from '../../src/build/validators.ts'
import { PrebuiltContracts } from '../../src/contracts/prebuilt.ts'
import { contractsDir, prebuiltValidatorsDir } from '../../src/paths.ts'
import { contracts } from '../support/contracts.ts'

const prebuilt = PrebuiltContracts.open() as PrebuiltContracts

describe('prebuilt validators', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('are what the contracts compile to now (npm run build writes them)', () => {
    const built = new Map(readdirSync(prebuiltValidatorsDir).map((name) => [name, readFileSync(join(prebuiltValidatorsDir, name), 'utf8')]))
    expect(built).toEqual(validatorFiles())
  })

  it('exist for every operation: its query, and its JSON body when it takes one', () => {
    expect(prebuilt).toBeInstanceOf(PrebuiltContracts)
    for (const op of prebuilt.operations.values()) {
      expect(typeof prebuilt.queryValidator(op.id)).toBe('function')
      expect(typeof prebuilt.bodyValidator(op.id)).toBe(op.body ? 'function' : 'undefined')
    }
  })

  it("judge queries as Ajv's own do, filling in the same defaults", () => {
    const queries: Array<[string, Record<string, unknown>]> = [
      ['clients.list', {}],
      ['clients.list', { limit: 0, page: 'x', sort_by: 'nobody', order_by: 'up' }],
      ['records.list', { status: 'waiting', expand: ['client', 'nothing'], limit: 101 }],
      ['organisations.list', { expand: ['assignees', 'clients'] }],
    ]
    for (const [id, query] of queries) {
      const [ours, ajvs] = [structuredClone(query), structuredClone(query)]
      const [oursValidate, ajvValidate] = [prebuilt.queryValidator(id), contracts.queryValidator(id)]
      expect(oursValidate(ours)).toBe(ajvValidate(ajvs))
      expect(oursValidate.errors).toEqual(ajvValidate.errors)
      expect(ours).toEqual(ajvs)
    }
  })

  it("judge bodies as Ajv's own do, with the contracts' own messages and formats", () => {
    const bodies: Array<[string, unknown]> = [
      ['clients.create', { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: '0@com' }],
      ['clients.create', { name: { first_name: 'Ada' }, email: 'not an address', date_of_birth: '1815-13-40', extra: true }],
      ['clients.address.replace', { country: 'GB', city: 'London' }],
      ['records.create', { client: 'x', steps: [{ type: 'check.photo_id', preferences: { docs: ['passport', 'passport'] } }, { type: 'nothing' }] }],
      ['webhooks.create', { url: 'not a url', events: [] }],
    ]
    for (const [id, body] of bodies) {
      const [oursValidate, ajvValidate] = [prebuilt.bodyValidator(id), contracts.bodyValidator(id)]
      if (!oursValidate || !ajvValidate) throw new Error(`${id} takes no body`)
      expect(oursValidate(structuredClone(body))).toBe(ajvValidate(structuredClone(body)))
      expect(oursValidate.errors).toEqual(ajvValidate.errors)
    }
  })

  it('are refused for contracts that changed after they were built, and when they were never built', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivs-prebuilt-'))
    dirs.push(dir)
    cpSync(contractsDir, dir, { recursive: true })
    expect(PrebuiltContracts.open(dir)).toBeInstanceOf(PrebuiltContracts)
    const file = join(dir, 'schemas', 'client-create.json')
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), description: 'edited' }))
    expect(PrebuiltContracts.open(dir)).toBeUndefined()
    expect(PrebuiltContracts.open(contractsDir, join(dir, 'no-validators'))).toBeUndefined()
  })

  it('refuse a file the build wrote since, from other contracts, rather than judge by it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ivs-prebuilt-'))
    dirs.push(dir)
    cpSync(prebuiltValidatorsDir, dir, { recursive: true })
    const opened = PrebuiltContracts.open(contractsDir, dir) as PrebuiltContracts
    const file = join(dir, 'query.clients.list.js')
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^\/\/ contracts [0-9a-f]+/, '// contracts 0'))
    expect(() => opened.queryValidator('clients.list')).toThrow(/query\.clients\.list\.js was compiled from other contracts than this mock read at start: restart it$/)
    expect(typeof opened.queryValidator('records.list')).toBe('function')
  })
})
