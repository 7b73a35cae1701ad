// Reads contracts/ once: every schema document, every operation by operationId, with the universal
// responses added here and nowhere else (see contracts/operation-file.schema.json). No validator is
// made here, and Ajv is not loaded: src/contracts/ajv.ts compiles them with Ajv on first use (the
// build, the harness, the tests), and src/contracts/prebuilt.ts runs those the build compiled (the
// server, so neither Ajv nor a compile is on the way to its first answer).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { contractsDir } from '../paths.ts'

export type JsonSchema = Record<string, unknown>
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ResponseContract {
  description?: string
  body?: JsonSchema
  binary?: string[]
}

export interface SortContract {
  values: string[]
  default: string
  defaultOrder?: 'asc' | 'desc'
}

/**
 * Where operations are served: the API (contracts/operations/, under /api/v2, token and rate limit
 * on every operation), the mock's control API (contracts/control/, under /_mock, neither), and the
 * OAuth 2.0 endpoints at the service root (contracts/oauth/, no token; they answer errors in OAuth's
 * shapes, never Laravel's 422). Keep oauth last: its empty base takes every path the others leave.
 */
export const SURFACES = {
  api: { folder: 'operations', base: '/api/v2', authenticated: true, validationErrors: true },
  control: { folder: 'control', base: '/_mock', authenticated: false, validationErrors: true },
  oauth: { folder: 'oauth', base: '', authenticated: false, validationErrors: false },
} as const

export type Surface = keyof typeof SURFACES

export const surfaceFolders = () => Object.entries(SURFACES).map(([surface, { folder }]) => [surface as Surface, folder] as const)

export interface OperationContract {
  id: string
  surface: Surface
  tag: string
  method: HttpMethod
  path: string
  summary: string
  description?: string
  deprecated?: boolean
  source?: 'spec' | 'facts'
  paged: boolean
  sort?: SortContract
  expand: string[]
  query: Record<string, JsonSchema>
  body?: JsonSchema
  multipart?: JsonSchema
  /** Schema of an application/x-www-form-urlencoded body (field name -> string value). */
  form?: JsonSchema
  responses: Record<string, ResponseContract>
  pathParams: string[]
}

interface OperationFile {
  tag: string
  operations: Record<string, Omit<OperationContract, 'id' | 'surface' | 'tag' | 'expand' | 'query' | 'paged' | 'pathParams'> & {
    paged?: boolean
    expand?: string[]
    query?: Record<string, JsonSchema>
  }>
}

export interface ContractError {
  /** Dot path of the failing value ('' for the value itself). */
  path: string
  message: string
}

/**
 * The annotation that marks some values of an enum as deprecated ("x-deprecated-values":
 * ["pending"]): JSON Schema's own `deprecated` marks a whole property, never one of its values.
 * Registered with every Ajv here, so schemas carrying it stay valid in strict mode.
 */
export const DEPRECATED_VALUES = 'x-deprecated-values'

export const CONTRACTS_BASE = 'https://contracts.ivs-mock.local/'
/** Base of the $refs in operation files (they sit in contracts/operations/ and contracts/control/, side by side). */
export const OPERATIONS_BASE = `${CONTRACTS_BASE}operations/`

const PAGE_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, default: 1 }
const LIMIT_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: 100, default: 25 }
const ORDER_SCHEMA: JsonSchema = { enum: ['asc', 'desc'] }

const universalResponses = {
  unauthenticated: { description: 'Missing, invalid, revoked or expired token.', body: { $ref: '../schemas/error.json' } },
  rateLimited: { description: 'Rate limit exceeded; see Retry-After and X-RateLimit-Reset.', body: { $ref: '../schemas/message.json' } },
  invalid: { description: 'Invalid query parameters or body.', body: { $ref: '../schemas/validation-error.json' } },
  notFound: { description: 'The resource (or a resource in the path) does not exist for this team.', body: { $ref: '../schemas/error.json' } },
  tooLarge: {
    description:
      "The body is larger than the mock's limit (1 MiB unless --max-body says otherwise), said by its Content-Length or found while reading it. Like the real service's web server, the answer is an HTML page, not JSON.",
    binary: ['text/html'],
  },
} satisfies Record<string, ResponseContract>

/** A contract file's text, parsed. */
export function parseJson(path: string, text = readText(path)): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`contracts: cannot read ${path}: ${(error as Error).message}`, { cause: error })
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`contracts: cannot read ${path}: ${(error as Error).message}`, { cause: error })
  }
}

export function jsonFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort()
}

function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1] as string)
}

/** Query schema of an operation: paging, sorting, expand and its own parameters. */
function querySchemaOf(op: OperationContract): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  if (op.paged) {
    properties.page = PAGE_SCHEMA
    properties.limit = LIMIT_SCHEMA
  }
  if (op.sort) {
    properties.sort_by = { enum: op.sort.values, description: `Without sort_by, the list is in ${op.sort.default} order.` }
    properties.order_by = { ...ORDER_SCHEMA, default: op.sort.defaultOrder ?? 'asc' }
  }
  if (op.expand.length > 0) {
    properties.expand = {
      type: 'array',
      items: { enum: op.expand },
      errorMessage: `The expand parameter must be one of: ${op.expand.join(', ')}`,
    }
  }
  Object.assign(properties, op.query)
  return { type: 'object', properties }
}

/**
 * What contracts/ says: its operations, schema documents and path parameters. The validators are
 * made by a subclass: compiled by Ajv on first use (AjvContracts, src/contracts/ajv.ts) or compiled
 * by the build (PrebuiltContracts, src/contracts/prebuilt.ts).
 */
export abstract class Contracts {
  readonly operations = new Map<string, OperationContract>()
  /** Schema documents by file name without .json (client, paginated-list, events/...). */
  readonly schemas = new Map<string, JsonSchema>()
  readonly parameters: Record<string, JsonSchema>
  /** Of every file read, names and texts: validators the build compiled are used only with the contracts they came from. */
  readonly fingerprint: string
  /** Schema documents by $id. */
  protected readonly documents = new Map<string, JsonSchema>()

  constructor(
    /** The contracts/ folder these were read from. */
    readonly dir = contractsDir,
  ) {
    const hash = createHash('sha256')
    const read = (name: string): unknown => {
      const text = readText(`${dir}/${name}`)
      hash.update(`${name}\n${text}\n`)
      return parseJson(`${dir}/${name}`, text)
    }
    for (const folder of ['schemas', 'events']) {
      for (const file of jsonFiles(`${dir}/${folder}`)) {
        const schema = read(`${folder}/${file}`) as JsonSchema
        const expectedId = `${CONTRACTS_BASE}${folder}/${file}`
        if (schema.$id !== expectedId) throw new Error(`contracts: ${folder}/${file} must have $id ${expectedId}`)
        this.schemas.set(`${folder === 'schemas' ? '' : `${folder}/`}${file.replace(/\.json$/, '')}`, schema)
        this.documents.set(expectedId, schema)
      }
    }
    const parameters = read('parameters.json') as JsonSchema & { $defs: Record<string, JsonSchema> }
    this.parameters = parameters.$defs
    // The files' shape is checked by checkOperationFiles in the build, not here on every start.
    for (const [surface, folder] of surfaceFolders()) {
      for (const file of jsonFiles(`${dir}/${folder}`)) this.addOperations(surface, file, read(`${folder}/${file}`) as OperationFile)
    }
    this.fingerprint = hash.digest('hex')
  }

  private addOperations(surface: Surface, file: string, content: OperationFile): void {
    const { folder, authenticated, validationErrors } = SURFACES[surface]
    // teams.json, or teams.<topic>.json for a topic that deserves its own file (teams.faults.json).
    const resource = file.replace(/\.json$/, '').split('.')[0]
    for (const [id, raw] of Object.entries(content.operations)) {
      if (this.operations.has(id)) throw new Error(`contracts: operationId ${id} is defined twice`)
      const op: OperationContract = {
        ...raw,
        id,
        surface,
        tag: content.tag,
        paged: raw.paged ?? false,
        expand: raw.expand ?? [],
        query: raw.query ?? {},
        pathParams: pathParamsOf(raw.path),
        responses: { ...raw.responses },
      }
      const firstSegment = op.path.split('/')[1]
      if (firstSegment !== resource) {
        throw new Error(`contracts: ${id} (${op.path}) belongs in ${folder}/${firstSegment}.json (or ${firstSegment}.<topic>.json), not ${file}`)
      }
      for (const name of op.pathParams) {
        if (!this.parameters[name]) throw new Error(`contracts: ${id} uses path parameter {${name}} missing from parameters.json`)
      }
      const takesInput = op.paged || op.sort || op.expand.length > 0 || Object.keys(op.query).length > 0 || op.body || op.multipart || op.form
      if (authenticated) {
        op.responses['401'] ??= universalResponses.unauthenticated
        op.responses['429'] ??= universalResponses.rateLimited
      }
      if (takesInput && validationErrors) op.responses['422'] ??= universalResponses.invalid
      if (op.pathParams.length > 0) op.responses['404'] ??= universalResponses.notFound
      if (op.body || op.form) op.responses['413'] ??= universalResponses.tooLarge
      this.operations.set(id, op)
    }
  }

  operation(id: string): OperationContract {
    const op = this.operations.get(id)
    if (!op) throw new Error(`contracts: no operation ${id}`)
    return op
  }

  /** The schema an operation's query is validated with. */
  querySchema(id: string): JsonSchema {
    return querySchemaOf(this.operation(id))
  }

  /**
   * The top-level properties of an operation's JSON body, in the contract's order: the order of
   * Laravel's rules, in which a 422 lists its keys. Empty for a body that is not an object.
   */
  bodyProperties(id: string): string[] {
    const body = this.operation(id).body
    if (!body) return []
    const ref = body.$ref
    const schema = typeof ref === 'string' ? this.schemaById(new URL(ref, OPERATIONS_BASE).href) : body
    return Object.keys(schema.properties ?? {})
  }

  /**
   * The fields of an operation's multipart body: its binary fields (those with a
   * contentMediaType) and its required fields. Undefined when it takes no multipart body.
   */
  multipartFields(id: string): { files: string[]; required: string[] } | undefined {
    const op = this.operation(id)
    if (!op.multipart) return undefined
    const ref = op.multipart.$ref
    const schema = typeof ref === 'string' ? this.schemaById(new URL(ref, OPERATIONS_BASE).href) : op.multipart
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
    return {
      files: Object.keys(properties).filter((name) => properties[name]?.contentMediaType !== undefined),
      required: (schema.required ?? []) as string[],
    }
  }

  private schemaById(id: string): JsonSchema {
    const schema = [...this.schemas.values()].find((candidate) => candidate.$id === id)
    if (!schema) throw new Error(`contracts: no schema ${id}`)
    return schema
  }

  /** The validator of an operation's query (it fills in defaults such as page and limit). */
  abstract queryValidator(id: string): ValidateFunction

  /** The validator of an operation's JSON body, or undefined when it takes none. */
  abstract bodyValidator(id: string): ValidateFunction | undefined
}

/** '/name/first_name' -> 'name.first_name' */
export function dotPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
}

/** Plain, developer-facing description of what failed (used by tests and the scenario runner). */
export function describeErrors(errors: ErrorObject[] | null | undefined): ContractError[] {
  return (errors ?? []).map((error) => ({
    path: dotPath(error.instancePath),
    message: `${error.message ?? error.keyword}${error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}`,
  }))
}
