// What a request sends that its operation's contract does not use or no longer wants: query
// parameters and body properties the real service would silently ignore (Laravel validates only
// the fields its rules name and drops the rest), and deprecated operations, parameters and enum
// values. The mock's journal and the validating proxy both judge requests with this one walker.
import type { Contracts, JsonSchema, OperationContract } from './load.ts'
import { DEPRECATED_VALUES, OPERATIONS_BASE } from './load.ts'

export interface InputFindings {
  /** Query parameters the operation does not take (names as sent). */
  ignoredQuery: string[]
  /** Body properties the operation's schema does not declare (dot paths, `steps.0.colour`). */
  ignoredBody: string[]
  /** Deprecated use: where (a query parameter or body path; null for the operation) and what. */
  deprecated: { at: string | null; message: string }[]
}

export interface InputToAudit {
  query?: URLSearchParams
  /** The parsed JSON body, if any. */
  body?: unknown
}

interface Located {
  schema: JsonSchema
  /** The URL the schema's relative $refs resolve against. */
  base: string
}

const MAX_DEPTH = 32

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** The contract's reason, when its description gives one ("Deprecated: use created_by. ..."). */
const describe = (description: unknown): string => {
  const reason = typeof description === 'string' ? /deprecated:?\s*([^.]*)/i.exec(description)?.[1]?.trim() : undefined
  return reason ? ` (${reason})` : ''
}

/** The query parameter's name as the API reads it (`expand[]` is `expand`). */
export const queryName = (raw: string): string => (raw.endsWith('[]') ? raw.slice(0, -2) : raw)

export class InputAudit {
  private readonly documents = new Map<string, JsonSchema>()
  private readonly queryNames = new Map<string, ReadonlySet<string>>()

  constructor(private readonly contracts: Contracts) {
    for (const schema of contracts.schemas.values()) this.documents.set(String(schema.$id), schema)
  }

  /** The names an operation's query takes (computed once per operation). */
  knownQuery(op: OperationContract): ReadonlySet<string> {
    let names = this.queryNames.get(op.id)
    if (!names) {
      names = new Set(Object.keys((this.contracts.querySchema(op.id).properties ?? {})))
      this.queryNames.set(op.id, names)
    }
    return names
  }

  audit(op: OperationContract, input: InputToAudit): InputFindings {
    const findings: InputFindings = { ignoredQuery: [], ignoredBody: [], deprecated: [] }
    if (op.deprecated) findings.deprecated.push({ at: null, message: `${op.id} is deprecated${describe(op.description)}` })
    if (input.query) this.auditQuery(op, input.query, findings)
    if (op.body && input.body !== undefined) this.walk(input.body, { schema: op.body, base: OPERATIONS_BASE }, '', findings, 0)
    return findings
  }

  private auditQuery(op: OperationContract, params: URLSearchParams, findings: InputFindings): void {
    const known = this.knownQuery(op)
    const properties = (this.contracts.querySchema(op.id).properties ?? {}) as Record<string, JsonSchema>
    const seen = new Set<string>()
    for (const [raw, value] of params) {
      const name = queryName(raw)
      if (!known.has(name)) {
        if (!seen.has(raw)) findings.ignoredQuery.push(raw)
        seen.add(raw)
        continue
      }
      const schema = { schema: properties[name] as JsonSchema, base: OPERATIONS_BASE }
      const flagged = this.flags(schema).find((flag) => flag.deprecated)
      if (!seen.has(name) && flagged) findings.deprecated.push({ at: name, message: `the query parameter ${name} is deprecated${describe(flagged.description)}` })
      seen.add(name)
      const values = this.isArray(schema) ? value.split(',').map((v) => v.trim()) : [value.trim()]
      const itemSchema = this.isArray(schema) ? this.items(schema) : [schema]
      for (const item of values) {
        if (itemSchema.some((located) => this.deprecatedValue(located, item))) findings.deprecated.push({ at: name, message: `${JSON.stringify(item)} is a deprecated value of ${name}` })
      }
    }
  }

  /** Walks a body value along its schema, noting undeclared properties and deprecated ones. */
  private walk(value: unknown, at: Located, path: string, findings: InputFindings, depth: number): void {
    if (depth > MAX_DEPTH) return
    const branches = this.branches(at)
    if (branches.some((branch) => this.deprecatedValue(branch, value))) findings.deprecated.push({ at: path || null, message: `${JSON.stringify(value)} is a deprecated value of ${path || 'the body'}` })
    if (isObject(value)) {
      const declared = new Map<string, Located[]>()
      let open: Located[] | undefined
      for (const branch of branches) {
        const properties = branch.schema.properties
        if (isObject(properties)) {
          for (const [name, schema] of Object.entries(properties)) {
            declared.set(name, [...(declared.get(name) ?? []), { schema: schema as JsonSchema, base: branch.base }])
          }
        }
        const additional = branch.schema.additionalProperties
        // A map (additionalProperties: a schema) takes any key; additionalProperties: false rejects
        // unknown keys with a 422, so they are violations, not ignored.
        if (isObject(additional)) open = [...(open ?? []), { schema: additional, base: branch.base }]
        else if (additional === false) open ??= []
        if (isObject(branch.schema.patternProperties)) open ??= []
      }
      // An object schema that names no property at all takes any.
      if (declared.size === 0) open ??= []
      for (const [name, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${name}` : name
        const schemas = declared.get(name) ?? open
        if (!schemas) {
          findings.ignoredBody.push(childPath)
          continue
        }
        const flagged = schemas.flatMap((located) => this.flags(located)).find((flag) => flag.deprecated)
        if (flagged) findings.deprecated.push({ at: childPath, message: `the body property ${childPath} is deprecated${describe(flagged.description)}` })
        for (const located of schemas.slice(0, 1)) this.walk(child, located, childPath, findings, depth + 1)
      }
    } else if (Array.isArray(value)) {
      const items = branches.flatMap((branch) => this.items(branch))
      if (items.length === 0) return
      value.forEach((item, index) => this.walk(item, items[0] as Located, path ? `${path}.${index}` : String(index), findings, depth + 1))
    }
  }

  /** A schema with its $ref followed and its allOf/anyOf/oneOf/if-then-else branches spread out. */
  private branches(at: Located, depth = 0): Located[] {
    if (depth > MAX_DEPTH) return []
    const result: Located[] = [at]
    const { schema, base } = at
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, base)
      if (target) result.push(...this.branches(target, depth + 1))
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const list = schema[keyword]
      if (Array.isArray(list)) for (const branch of list) result.push(...this.branches({ schema: branch as JsonSchema, base }, depth + 1))
    }
    for (const keyword of ['then', 'else']) {
      const branch = schema[keyword]
      if (isObject(branch)) result.push(...this.branches({ schema: branch, base }, depth + 1))
    }
    return result
  }

  private flags(at: Located): JsonSchema[] {
    return this.branches(at).map((branch) => branch.schema)
  }

  private deprecatedValue(at: Located, value: unknown): boolean {
    return this.branches(at).some((branch) => {
      const values = branch.schema[DEPRECATED_VALUES]
      return Array.isArray(values) && values.includes(value)
    })
  }

  private isArray(at: Located): boolean {
    return this.branches(at).some((branch) => branch.schema.type === 'array')
  }

  private items(at: Located): Located[] {
    return this.branches(at).flatMap((branch) => (isObject(branch.schema.items) ? [{ schema: branch.schema.items, base: branch.base }] : []))
  }

  private resolve(ref: string, base: string): Located | undefined {
    const url = new URL(ref, base)
    const documentUrl = `${url.origin}${url.pathname}`
    const document = this.documents.get(documentUrl)
    if (!document) return undefined
    let schema: unknown = document
    const pointer = decodeURIComponent(url.hash.replace(/^#/, ''))
    for (const part of pointer.split('/').slice(1)) {
      if (!isObject(schema)) return undefined
      schema = schema[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    }
    return isObject(schema) ? { schema, base: documentUrl } : undefined
  }
}
