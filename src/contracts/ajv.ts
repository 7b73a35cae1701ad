// The contracts with validators compiled by Ajv on first use: what the build, the harness and the
// tests check with. The server runs the validators the build compiled (src/contracts/prebuilt.ts),
// which are this module's, written out as code (src/build/validators.ts).
import { Ajv2020, MissingRefError, type ValidateFunction } from 'ajv/dist/2020.js'
import standaloneCodeModule from 'ajv/dist/standalone/index.js'
import addFormatsModule from 'ajv-formats'
import ajvErrorsModule from 'ajv-errors'
import { contractsDir } from '../paths.ts'
import { RFC5321_MAILBOX } from './formats.ts'
import { Contracts, DEPRECATED_VALUES, jsonFiles, OPERATIONS_BASE, parseJson, surfaceFolders, type JsonSchema } from './load.ts'

// The plugins and the standalone generator are CommonJS with a default export; under NodeNext the default is the module.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default
const ajvErrors = ajvErrorsModule as unknown as typeof ajvErrorsModule.default
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default

function newAjv(options: { useDefaults?: boolean; validateSchema?: boolean; code?: boolean }): Ajv2020 {
  const { code, ...rest } = options
  // Without schema checks the JSON Schema meta-schemas are never used: Ajv need not add them.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    meta: options.validateSchema !== false,
    ...rest,
    ...(code ? { code: { source: true } } : {}),
  })
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

export interface AjvContractsOptions {
  /**
   * Check every schema against the JSON Schema meta-schema when it is added or compiled (the
   * default). The proxy turns it off: compiling the meta-schema was most of what loading the
   * contracts cost, and the build's check step has checked every schema document.
   */
  validateSchemas?: boolean
  /** Keep each validator's source, so the build can write it out (standaloneSource). */
  code?: boolean
}

export class AjvContracts extends Contracts {
  private readonly validateSchema: boolean
  private readonly keepCode: boolean
  /** Bodies, forms, responses and whole documents: made on first use (see the `ajv` getter). */
  private bodyAjv: Ajv2020 | undefined
  // Query values are coerced by kernel/validate.ts (as strictly as Laravel); this one fills defaults.
  // Made with the first query validator, holding only the documents query schemas refer to (compileQuery).
  private queryAjv: Ajv2020 | undefined
  private readonly compiled = new Map<string, ValidateFunction>()

  constructor(dir = contractsDir, options: AjvContractsOptions = {}) {
    super(dir)
    this.validateSchema = options.validateSchemas ?? true
    this.keepCode = options.code ?? false
    // Asked to check the schemas (the build, the harness, the tests): every document is checked
    // against the meta-schema now, as Ajv adds it.
    if (this.validateSchema) void this.ajv
  }

  /** The Ajv of everything but queries, with every schema document, made with the first validator asked of it. */
  private get ajv(): Ajv2020 {
    if (!this.bodyAjv) {
      const ajv = newAjv({ validateSchema: this.validateSchema, code: this.keepCode })
      for (const schema of this.schemas.values()) ajv.addSchema(schema)
      this.bodyAjv = ajv
    }
    return this.bodyAjv
  }

  queryValidator(id: string): ValidateFunction {
    return this.cached(`query:${id}`, () => this.compileQuery({ $id: `${OPERATIONS_BASE}${id}.query.json`, ...this.querySchema(id) }))
  }

  /**
   * Compiles a query schema, adding to the query Ajv each document it refers to as Ajv finds it
   * missing (as Ajv's own compileAsync loads schemas): few queries refer to any.
   */
  private compileQuery(schema: JsonSchema): ValidateFunction {
    const ajv = (this.queryAjv ??= newAjv({ validateSchema: this.validateSchema, useDefaults: true, code: this.keepCode }))
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

  /**
   * An operation's query or body validator as a CommonJS module's code (Ajv's standalone output:
   * the validator and everything it refers to), for the build to write out. Needs `code: true`.
   */
  standaloneSource(kind: 'query' | 'body', id: string): string | undefined {
    const validate = kind === 'query' ? this.queryValidator(id) : this.bodyValidator(id)
    if (!validate) return undefined
    return standaloneCode(kind === 'query' ? (this.queryAjv as Ajv2020) : this.ajv, validate)
  }

  formValidator(id: string): ValidateFunction | undefined {
    const form = this.operation(id).form
    if (!form) return undefined
    return this.cached(`form:${id}`, () => this.ajv.compile({ $id: `${OPERATIONS_BASE}${id}.form.json`, ...form }))
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

/**
 * Checks every file in operations/ against operation-file.schema.json. The build and the tests run
 * it; start-up does not (with the fixture check, it cost about 80 ms of every start).
 */
export function checkOperationFiles(dir = contractsDir): void {
  const fileSchema = newAjv({}).compile(parseJson(`${dir}/operation-file.schema.json`) as JsonSchema)
  for (const [, folder] of surfaceFolders()) {
    for (const file of jsonFiles(`${dir}/${folder}`)) {
      if (!fileSchema(parseJson(`${dir}/${folder}/${file}`))) {
        const problems = (fileSchema.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
        throw new Error(`contracts: ${folder}/${file} is not a valid operations file: ${problems.join('; ')}`)
      }
    }
  }
}

let shared: AjvContracts | undefined
/** The contracts of this checkout, loaded once per process. */
export function loadContracts(): AjvContracts {
  shared ??= new AjvContracts()
  return shared
}
