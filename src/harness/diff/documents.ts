// The two documents `ivs-mock diff` compares: the mock's (what GET /openapi.json serves, built
// in-process from contracts/) and another OpenAPI 3.0 or 3.1 document, from a file (JSON or YAML)
// or an http(s) URL, read (and bundled when it names other files) and validated by
// @readme/openapi-parser.
import { bundle, parse, validate } from '@readme/openapi-parser'
import { parse as parseYaml, YAMLParseError } from 'yaml'
import { AjvContracts } from '../../contracts/ajv.ts'
import { buildOpenApi } from '../../contracts/openapi.ts'
import { API_BASE } from './operations.ts'
import { childPointer, refPointer, SchemaGraph, UnresolvableRefError } from './shapes.ts'

/** A document that cannot be read: `message` is the one line saying why and where. */
export class DocumentError extends Error {}

export interface OtherDocument {
  /** The file or URL, as given. */
  source: string
  document: Record<string, unknown>
  /** Its `openapi` version. */
  openapi: string
  /** What the reader has to say about it (with --validate, a document the parser could not validate). */
  notes: string[]
}

/** How long a URL may take to answer. */
export const FETCH_TIMEOUT_MS = 30_000

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The mock's document, as GET /openapi.json serves it; its server is the API's base, as the served one's is (after its origin). */
export function servedDocument(contractsDir?: string, version = '0.0.0'): Record<string, unknown> {
  const contracts = new AjvContracts(contractsDir, { validateSchemas: false })
  return { ...buildOpenApi(contracts, version, 'api'), servers: [{ url: API_BASE }] }
}

/** The first line of a parser error, without the file name it repeats; a position `(3:1)` as line and column. */
function parserReason(error: unknown, source: string): string {
  const { message, code } = error as { message?: string; code?: string; ioErrorCode?: string }
  const io = (error as { ioErrorCode?: string }).ioErrorCode
  if (io === 'ENOENT') return 'no such file'
  if (io === 'EISDIR') return 'a folder, not a file'
  if (io === 'EACCES') return 'permission denied'
  const first = (message ?? String(error)).split('\n')[0] as string
  const reason = first.replace(`Error parsing ${source}: `, '').replace(`Error opening file ${source}: `, '').replace(/^Error parsing \S+: /, '')
  const position = /\s*\((\d+):(\d+)\)$/.exec(reason)
  if (code === 'EPARSER') return `not JSON or YAML: ${position ? `${reason.slice(0, position.index)} at line ${position[1]}, column ${position[2]}` : reason}`
  if (/is not a valid JSON Schema$/.test(reason)) return 'empty, or not an object'
  return reason
}

/** What went wrong with a fetch, in a few words: ECONNREFUSED, ENOTFOUND, no answer in time. */
function fetchReason(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}

function parseText(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    try {
      return parseYaml(text) as unknown
    } catch (error) {
      if (error instanceof YAMLParseError) {
        const position = error.linePos?.[0]
        const reason = error.message.split(' at line ')[0]?.split('\n')[0] ?? error.message
        throw new DocumentError(`cannot read ${source}: not JSON or YAML: ${reason}${position ? ` at line ${position.line}, column ${position.col}` : ''}`)
      }
      throw error
    }
  }
}

/**
 * A document at a URL, fetched here rather than by the parser: its resolver refuses loopback and
 * private addresses, and a vendor's sandbox or a mock on this machine are where one is often
 * published. Its $refs must be inside it (a URL's neighbours are not fetched).
 */
async function fetchDocument(url: string): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, { headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
  } catch (error) {
    throw new DocumentError(`cannot read ${url}: ${fetchReason(error)}`)
  }
  if (!response.ok) throw new DocumentError(`cannot read ${url}: HTTP ${response.status}`)
  return parseText(await response.text(), url)
}

/** Every $ref of a document and where it is (examples are data, not schemas: not looked into). */
function refsOf(document: Record<string, unknown>): { ref: string; at: string }[] {
  const refs: { ref: string; at: string }[] = []
  const stack: [unknown, string][] = [[document, '#']]
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [value, pointer] = entry
    if (Array.isArray(value)) value.forEach((item, index) => stack.push([item, childPointer(pointer, index)]))
    if (!isObject(value)) continue
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') refs.push({ ref: child, at: pointer })
      else if (key !== 'example' && key !== 'examples') stack.push([child, childPointer(pointer, key)])
    }
  }
  return refs
}

/** Every $ref points at something in the document. */
function checkRefs(document: Record<string, unknown>, refs: { ref: string; at: string }[], source: string): void {
  const graph = new SchemaGraph(document)
  for (const { ref, at } of refs) {
    const target = refPointer(ref)
    if (target === undefined) throw new DocumentError(`cannot read ${source}: $ref ${ref} at ${at} is outside the document${/^https?:/i.test(source) ? ' (a document read from a URL must hold all its $refs)' : ''}`)
    try {
      graph.resolve(target)
    } catch (error) {
      if (error instanceof UnresolvableRefError) throw new DocumentError(`cannot read ${source}: $ref ${ref} at ${at} points nowhere`)
      throw error
    }
  }
}

async function parsed(source: string, read: (source: string) => Promise<unknown>): Promise<unknown> {
  try {
    return await read(source)
  } catch (error) {
    if (error instanceof DocumentError) throw error
    throw new DocumentError(`cannot read ${source}: ${parserReason(error, source)}`)
  }
}

/**
 * The other document: read, checked to be OpenAPI 3.0 or 3.1, every $ref inside it; throws
 * DocumentError when it cannot be. A file whose $refs name other files is bundled by the parser
 * (those files brought in); one that has none, as most published documents, is only parsed. With
 * `validate`, the parser validates it too, and a document that breaks the OpenAPI schema is refused.
 */
export async function readOtherDocument(source: string, options: { validate?: boolean } = {}): Promise<OtherDocument> {
  const url = /^https?:\/\//i.test(source)
  const first = await parsed(source, (from) => (url ? fetchDocument(from) : parse(from)))
  if (!isObject(first)) throw new DocumentError(`cannot read ${source}: not an OpenAPI document (not an object)`)
  let read = first
  if (typeof read.swagger === 'string') throw new DocumentError(`cannot read ${source}: it is Swagger ${read.swagger}; diff reads OpenAPI 3.0 and 3.1 (convert it first)`)
  const openapi = read.openapi
  if (typeof openapi !== 'string' || !/^3\.[01]\.\d+/.test(openapi)) {
    throw new DocumentError(`cannot read ${source}: not an OpenAPI 3.0 or 3.1 document (${openapi === undefined ? 'no "openapi" field' : `"openapi": ${JSON.stringify(openapi)}`})`)
  }
  let refs = refsOf(read)
  if (!url && refs.some(({ ref }) => !ref.startsWith('#'))) {
    read = (await parsed(source, (from) => bundle(from))) as Record<string, unknown>
    refs = refsOf(read)
  }
  checkRefs(read, refs, source)
  return { source, document: read, openapi, notes: options.validate ? await validated(read, source, openapi) : [] }
}

/**
 * Validates with the parser: a document that breaks the OpenAPI schema is refused, naming its first
 * problem. The parser dereferences the whole document first, which a long circle of components
 * takes past its depth limit: such a document is compared unvalidated, and a note says so.
 */
async function validated(document: Record<string, unknown>, source: string, openapi: string): Promise<string[]> {
  let validation: Awaited<ReturnType<typeof validate>>
  try {
    validation = await validate(structuredClone(document) as Parameters<typeof validate>[0])
  } catch (error) {
    return [`not validated: ${((error as Error).message.split('\n')[0] as string).replace(/ at #\/.*$/, '')}`]
  }
  if (validation.valid) return []
  const problems = validation.errors.length + validation.additionalErrors
  throw new DocumentError(`cannot read ${source}: not valid OpenAPI ${openapi}: ${(validation.errors[0]?.message ?? '').split('\n')[0] ?? ''}${problems > 1 ? ` (and ${problems - 1} more problems)` : ''}`)
}
