// Whether a world read from a data file (and its change log) is one this version can serve, once its
// format is (data-files.ts): every row against the JSON Schema of the world's types
// (world-format.schema.json, generated from them by npm run world-schema), then keys that must be
// unique. A file that fails is refused with one line naming the first problem; nothing is written.
// Imported with the first data file opened (persistence.ts), so a start without one loads no Ajv.
import { readFileSync } from 'node:fs'
import { Ajv, type ErrorObject } from 'ajv'
import { keyField } from './changes.ts'
import { DataFileError } from './log.ts'
import type { WorldData } from './world.ts'

let validate: ReturnType<Ajv['compile']> | undefined

/**
 * The schema, read with the first data file checked (only --data reads one) from beside this
 * module: src/store/ in a checkout, dist/ in the bundle (its build step copies it there). Imported
 * into the bundle, its 107 KB were parsed into objects at every start.
 */
function readWorldSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('./world-format.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>
}

/** The first problem the schema finds, where it is, in words. */
function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the world' : error.instancePath
  if (error.keyword === 'required') return `${where} has no ${(error.params as { missingProperty: string }).missingProperty}`
  if (error.keyword === 'type') return `${where} must be ${(error.params as { type: string }).type}`
  return `${where} ${error.message ?? 'is not valid'}`
}

/** Every row as the types say, and no two rows of one table with the same key. */
export function checkWorld(data: WorldData, file: string): void {
  validate ??= new Ajv({ allErrors: false, strict: false }).compile(readWorldSchema())
  const damaged = (problem: string) => new DataFileError(`data file ${file} is damaged: ${problem}; nothing was changed (restore it, or delete it to start from the seeded world)`)
  if (!validate(data)) throw damaged(describe((validate.errors as ErrorObject[])[0] as ErrorObject))
  const unique = (rows: readonly object[], field: string, where: string) => {
    const seen = new Set<unknown>()
    for (const row of rows) {
      const key = (row as Record<string, unknown>)[field]
      if (seen.has(key)) throw damaged(`${where} has two rows with ${field} ${JSON.stringify(key)}`)
      seen.add(key)
    }
  }
  unique(
    data.teams.map((state) => state.team),
    'id',
    '/teams',
  )
  for (const place of ['users', 'tokens', 'jobs', 'snapshots', 'baselines'] as const) unique(data[place], keyField(place), `/${place}`)
  data.teams.forEach((state, index) => {
    for (const [key, rows] of Object.entries(state)) if (Array.isArray(rows)) unique(rows as object[], keyField(key), `/teams/${index}/${key}`)
  })
}
