// The JSON Schema a data file is checked against (src/store/world-format.schema.json) is generated
// from the world's types: it must say what they say now.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { worldSchemaPath, worldSchemaText } from '../../src/build/world-schema.ts'

describe('the schema of a data file', () => {
  it('is what npm run world-schema makes of the types today (run it after changing a row type)', () => {
    expect(readFileSync(worldSchemaPath, 'utf8')).toBe(worldSchemaText())
  }, 120_000)
})
