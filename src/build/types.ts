// Build step: the TypeScript wire types, generated from contracts/ so they are never written twice
// (contracts/ is the source of truth: docs/architecture.md "Architecture"). Every schema document becomes a type named
// after its file (schemas/client-create.json -> ClientCreateJson, a $defs entry in it ->
// ClientCreate<Name>Json), and every operation gets an entry in `Operations` with its path
// parameters, validated query, JSON body and the bodies of its success statuses, which
// kernel/operation.ts uses to type handlers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { compile } from 'json-schema-to-typescript'
import { OPERATIONS_BASE, type Contracts, type JsonSchema, type OperationContract } from '../contracts/load.ts'
import { relinkRefs } from '../contracts/refs.ts'
import { contractsDir, projectRoot, scenarioSchemaPath } from '../paths.ts'

export const GENERATED_TYPES_FILE = `${projectRoot}src/contracts/generated.ts`
/** The scenario format's types (contracts/scenario.schema.json), for the runner in src/harness/. */
export const SCENARIO_TYPES_FILE = `${projectRoot}src/contracts/scenario.generated.ts`

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('')

/** schemas/client-create.json -> ClientCreate, events/record-data.json -> EventsRecordData */
function documentName(url: URL): string {
  const match = /^\/(schemas|events)\/([\w-]+)\.json$/.exec(url.pathname)
  if (!match) throw new Error(`types: cannot name the schema document ${url.href}`)
  return pascal(match[1] === 'events' ? `events-${match[2] as string}` : (match[2] as string))
}

/** A $ref's target in the generated document, where each document's $defs are hoisted to the top. */
function typeRef(url: URL): string {
  const document = documentName(url)
  const pointer = url.hash.replace(/^#/, '')
  const hoisted = /^\/\$defs\/([^/]+)(.*)$/.exec(pointer)
  if (hoisted) return `#/$defs/${document}${pascal(hoisted[1] as string)}Json${hoisted[2] as string}`
  return `#/$defs/${document}Json${pointer}`
}

/**
 * Keywords no TypeScript type expresses. Left beside a $ref ({"$ref": ".../nonBlankString",
 * "maxLength": 255}), the generator would read them as an object schema and intersect the string
 * with {[k: string]: unknown}, which no string literal satisfies.
 */
const VALUE_CONSTRAINTS = ['minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']

const relink = (schema: unknown, base: string) =>
  relinkRefs(schema, base, typeRef, { drop: ['title', 'errorMessage', ...VALUE_CONSTRAINTS], siblingsToAllOf: true })

/** A validated query always has the parameters that have defaults (page, limit, order_by). */
function withDefaultsRequired(schema: JsonSchema): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = Object.entries(properties).filter(([, property]) => 'default' in property).map(([name]) => name)
  return { ...schema, required, additionalProperties: false }
}

function paramsSchema(contracts: Contracts, op: OperationContract): JsonSchema {
  const properties = Object.fromEntries(op.pathParams.map((name) => [name, contracts.parameters[name]]))
  return { type: 'object', properties, required: op.pathParams, additionalProperties: false }
}

const isSuccess = (status: string) => status.startsWith('2')

/** The definition a schema is nothing but a reference to (a description aside), if it is one. */
function aliasOf(schema: unknown): string | undefined {
  const { $ref, description: _description, ...rest } = schema as { $ref?: string; description?: string }
  if ($ref === undefined || Object.keys(rest).length > 0) return undefined
  return /^#\/\$defs\/(\w+)$/.exec($ref)?.[1]
}

/**
 * Defines `name` as the given (relinked) schema and returns the type to use for it. A schema that
 * is only a reference is the type it refers to, followed to the end: the generator names it so.
 */
function define(defs: Record<string, unknown>, name: string, schema: unknown): string {
  let alias = aliasOf(schema)
  if (alias === undefined) {
    defs[name] = schema
    return name
  }
  for (let next = aliasOf(defs[alias]); next !== undefined; next = aliasOf(defs[next])) alias = next
  return alias
}

/** The TypeScript source of every wire type and the Operations map. */
export async function generateTypes(contracts: Contracts): Promise<string> {
  const defs: Record<string, unknown> = {}
  for (const schema of contracts.schemas.values()) {
    const id = schema.$id as string
    const { $defs, ...document } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> }
    const name = documentName(new URL(id))
    defs[`${name}Json`] = relink(document, id)
    for (const [key, def] of Object.entries($defs ?? {})) defs[`${name}${pascal(key)}Json`] = relink(def, id)
  }
  // Every document is defined first, so an operation's reference can be followed to its end.
  const entries: string[] = []
  for (const op of contracts.operations.values()) {
    const name = pascal(op.id)
    const params = define(defs, `${name}Params`, paramsSchema(contracts, op))
    const query = define(defs, `${name}Query`, relink(withDefaultsRequired(contracts.querySchema(op.id)), OPERATIONS_BASE))
    const body = op.body ? define(defs, `${name}Body`, relink(op.body, OPERATIONS_BASE)) : 'undefined'
    const success = Object.entries(op.responses).filter(([status]) => isSuccess(status))
    const answers = success.map(([status, response]) => {
      if (!response.body) return response.binary ? 'Binary' : 'void'
      const body = define(defs, `${name}Response${status}`, relink(response.body, OPERATIONS_BASE))
      return response.binary ? `${body} | Binary` : body
    })
    entries.push(`  '${op.id}': {\n    params: ${params}\n    query: ${query}\n    body: ${body}\n    success: ${answers.join(' | ') || 'never'}\n  }`)
  }
  const types = await compile({ $defs: defs }, 'Contracts', {
    bannerComment: '',
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    format: false,
    strictIndexSignatures: true,
  })
  return [
    '// Generated from contracts/ by src/build/types.ts (npm run build). Do not edit: change the contracts.',
    '/* eslint-disable */',
    "import type { Binary } from './binary.ts'",
    '',
    types.replace(/^export interface Contracts \{[^}]*\}\n/m, ''),
    '/** Every operation of contracts/operations/, by operationId. */',
    'export interface Operations {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

export async function generateScenarioTypes(): Promise<string> {
  const schema = JSON.parse(readFileSync(scenarioSchemaPath, 'utf8')) as JsonSchema
  // cwd: its $refs into schemas/ are relative to contracts/.
  const types = await compile(schema, 'Scenario', { bannerComment: '', cwd: contractsDir, additionalProperties: false, format: false })
  return [
    '// Generated from contracts/scenario.schema.json by src/build/types.ts (npm run build). Do not edit: change the schema.',
    '/* eslint-disable */',
    '',
    types,
  ].join('\n')
}

/** Writes a generated file when it changed (an unchanged file keeps its time, so nothing downstream rebuilds). */
function writeWhenChanged(file: string, source: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === source) return false
  writeFileSync(file, source)
  return true
}

export async function writeGeneratedTypes(contracts: Contracts): Promise<string> {
  const written = [
    writeWhenChanged(GENERATED_TYPES_FILE, await generateTypes(contracts)) && 'src/contracts/generated.ts',
    writeWhenChanged(SCENARIO_TYPES_FILE, await generateScenarioTypes()) && 'src/contracts/scenario.generated.ts',
  ].filter(Boolean)
  return written.length > 0 ? `wrote ${written.join(', ')}` : 'unchanged'
}
