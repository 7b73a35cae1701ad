// Loads contracts/ once: every schema into one Ajv, every operation by operationId, with the
// universal responses added here and nowhere else (see contracts/operation-file.schema.json).
import { readdirSync, readFileSync } from 'node:fs'
import { Ajv2020, MissingRefError, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import ajvErrorsModule from 'ajv-errors'
import { contractsDir } from '../paths.ts'
import { RFC5321_MAILBOX } from './formats.ts'

// Both plugins are CommonJS with a default export; under NodeNext the default is the module.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default
const ajvErrors = ajvErrorsModule as unknown as typeof ajvErrorsModule.default

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

const surfaceFolders = () => Object.entries(SURFACES).map(([surface, { folder }]) => [surface as Surface, folder] as const)

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

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`contracts: cannot read ${path}: ${(error as Error).message}`, { cause: error })
  }
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort()
}

function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1] as string)
}

function newAjv(options: { useDefaults?: boolean; validateSchema?: boolean }): Ajv2020 {
  // Without schema checks the JSON Schema meta-schemas are never used: Ajv need not add them.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, meta: options.validateSchema !== false, ...options })
  // Ajv compiles a keyword's meta-schema when the keyword is added, whatever validateSchema says:
  // ajv-errors' took a quarter of the server's start-up in the contracts. Without schema checks
  // the keywords come without them (the build checks every schema with them).
  if (options.validateSchema === false) withoutKeywordMetaSchemas(ajv)
  addFormats(ajv)
  ajv.addFormat('email', RFC5321_MAILBOX)
  ajvErrors(ajv)
  ajv.addKeyword({ keyword: DEPRECATED_VALUES, schemaType: 'array', metaSchema: { type: 'array', minItems: 1 } })
  return ajv
}

function withoutKeywordMetaSchemas(ajv: Ajv2020): void {
  const addKeyword = ajv.addKeyword.bind(ajv)
  ajv.addKeyword = (definition) => addKeyword(typeof definition === 'string' ? definition : { ...definition, metaSchema: undefined })
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

export interface ContractsOptions {
  /**
   * Check every schema against the JSON Schema meta-schema when it is added or compiled (the
   * default). The server turns it off: compiling the meta-schema was most of what loading the
   * contracts cost at start-up, and the build's check step has checked every schema document.
   */
  validateSchemas?: boolean
}

export class Contracts {
  readonly operations = new Map<string, OperationContract>()
  /** Schema documents by file name without .json (client, paginated-list, events/...). */
  readonly schemas = new Map<string, JsonSchema>()
  readonly parameters: Record<string, JsonSchema>
  private readonly validateSchema: boolean
  /** Bodies, forms, responses and whole documents: made on first use (see the `ajv` getter). */
  private bodyAjv: Ajv2020 | undefined
  // Query values are coerced by kernel/validate.ts (as strictly as Laravel); this one fills defaults.
  // Made with the first query validator, holding only the documents query schemas refer to (compileQuery).
  private queryAjv: Ajv2020 | undefined
  /** Schema documents by $id. */
  private readonly documents = new Map<string, JsonSchema>()
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor(
    /** The contracts/ folder these were read from. */
    readonly dir = contractsDir,
    options: ContractsOptions = {},
  ) {
    this.validateSchema = options.validateSchemas ?? true
    for (const folder of ['schemas', 'events']) {
      for (const file of jsonFiles(`${dir}/${folder}`)) {
        const schema = readJson(`${dir}/${folder}/${file}`) as JsonSchema
        const expectedId = `${CONTRACTS_BASE}${folder}/${file}`
        if (schema.$id !== expectedId) throw new Error(`contracts: ${folder}/${file} must have $id ${expectedId}`)
        this.schemas.set(`${folder === 'schemas' ? '' : `${folder}/`}${file.replace(/\.json$/, '')}`, schema)
        this.documents.set(expectedId, schema)
      }
    }
    const parameters = readJson(`${dir}/parameters.json`) as JsonSchema & { $defs: Record<string, JsonSchema> }
    this.parameters = parameters.$defs
    // The files' shape is checked by checkOperationFiles in the build, not here on every start.
    for (const [surface, folder] of surfaceFolders()) {
      for (const file of jsonFiles(`${dir}/${folder}`)) this.addOperations(surface, file, readJson(`${dir}/${folder}/${file}`) as OperationFile)
    }
    // Asked to check the schemas (the build, the harness, the tests): every document is checked
    // against the meta-schema now, as Ajv adds it. The server skips it, and adds documents to Ajv
    // as its validators first need them.
    if (this.validateSchema) void this.ajv
  }

  /** The Ajv of everything but queries, with every schema document, made with the first validator asked of it. */
  private get ajv(): Ajv2020 {
    if (!this.bodyAjv) {
      const ajv = newAjv({ validateSchema: this.validateSchema })
      for (const schema of this.schemas.values()) ajv.addSchema(schema)
      this.bodyAjv = ajv
    }
    return this.bodyAjv
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

  queryValidator(id: string): ValidateFunction {
    return this.cached(`query:${id}`, () => this.compileQuery({ $id: `${OPERATIONS_BASE}${id}.query.json`, ...this.querySchema(id) }))
  }

  /**
   * Compiles a query schema, adding to the query Ajv each document it refers to as Ajv finds it
   * missing (as Ajv's own compileAsync loads schemas): few queries refer to any, and adding every
   * document at start took a tenth of the server's start-up.
   */
  private compileQuery(schema: JsonSchema): ValidateFunction {
    const ajv = (this.queryAjv ??= newAjv({ validateSchema: this.validateSchema, useDefaults: true }))
    // Each pass adds a document or fails: bounded by the number of documents.
    for (let pass = 0; ; pass++) {
      try {
        return ajv.compile(schema)
      } catch (error) {
        const missing = error instanceof MissingRefError && pass < this.documents.size ? this.documents.get(error.missingSchema) : undefined
        if (!missing) throw error
        ajv.addSchema(missing)
      }
    }
  }

  bodyValidator(id: string): ValidateFunction | undefined {
    const op = this.operation(id)
    if (!op.body) return undefined
    const body = op.body
    return this.cached(`body:${id}`, () => this.ajv.compile({ $id: `${OPERATIONS_BASE}${id}.body.json`, ...body }))
  }

  formValidator(id: string): ValidateFunction | undefined {
    const form = this.operation(id).form
    if (!form) return undefined
    return this.cached(`form:${id}`, () => this.ajv.compile({ $id: `${OPERATIONS_BASE}${id}.form.json`, ...form }))
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

  /** Validator of the JSON body of one response, or undefined when that status has no JSON body. */
  responseValidator(id: string, status: number): ValidateFunction | undefined {
    const body = this.operation(id).responses[String(status)]?.body
    if (!body) return undefined
    return this.cached(`response:${id}:${status}`, () =>
      this.ajv.compile({ $id: `${OPERATIONS_BASE}${id}.${status}.json`, ...body }),
    )
  }

  /** Validator of a whole schema document by name (client, events/delivery, ...). */
  schemaValidator(name: string): ValidateFunction {
    const schema = this.schemas.get(name)
    if (!schema) throw new Error(`contracts: no schema ${name}`)
    return this.cached(`schema:${name}`, () => this.ajv.getSchema(schema.$id as string) as ValidateFunction)
  }

  /** Compiles a schema outside contracts/ that refers into it (the fixture schema). */
  compile(schema: JsonSchema): ValidateFunction {
    return this.cached(`extra:${String(schema.$id)}`, () => this.ajv.compile(schema))
  }

  private cached(key: string, build: () => ValidateFunction): ValidateFunction {
    let validate = this.compiled.get(key)
    if (!validate) {
      validate = build()
      this.compiled.set(key, validate)
    }
    return validate
  }
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

/**
 * Checks every file in operations/ against operation-file.schema.json. The build and the tests run
 * it; start-up does not (with the fixture check, it cost about 80 ms of every start).
 */
export function checkOperationFiles(dir = contractsDir): void {
  const fileSchema = newAjv({}).compile(readJson(`${dir}/operation-file.schema.json`) as JsonSchema)
  for (const [, folder] of surfaceFolders()) {
    for (const file of jsonFiles(`${dir}/${folder}`)) {
      if (!fileSchema(readJson(`${dir}/${folder}/${file}`))) {
        const problems = (fileSchema.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
        throw new Error(`contracts: ${folder}/${file} is not a valid operations file: ${problems.join('; ')}`)
      }
    }
  }
}

let shared: Contracts | undefined
/** The contracts of this checkout, loaded once per process. */
export function loadContracts(): Contracts {
  shared ??= new Contracts()
  return shared
}
