// proxy --record: what passed through the proxy as a scenario for `ivs-mock verify`
// (contracts/scenario.schema.json), so a journey clicked through against a sandbox replays
// against the mock, and back. Ids and uuids that answers returned become captured variables
// where later requests reuse them; tokens become role names; generated values in the answers
// (ids, timestamps, urls, tokens) become type matchers, the rest is expected as it was.
import { dirname, join, relative, resolve, sep } from 'node:path'
import { stringify } from 'yaml'
import type { Contracts } from '../contracts/load.ts'
import type { ProxiedExchange } from './proxy.ts'
import { writeBeside } from './proxy-report.ts'
import { TOKEN_ROLES } from './roles.ts'


export interface RecordOptions {
  name: string
  description: string
  /** Role names for tokens (role -> token); tokens not named take the free roles (TOKEN_ROLES order) as they appear. */
  roleTokens: Record<string, string>
}

type Json = unknown
type Scenario = Record<string, unknown> & { steps: Record<string, unknown>[] }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const GENERATED_KEYS = /(^id$|_id$|^uuid$|_at$|^token$|_token$|^secret$|_url$|^url$|^identifier$|^number$|^links$)/

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value)

const camel = (name: string) => name.replace(/[_.-]([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())

/** Where a value first came from: a step and a dot path into its answer. */
interface Source {
  step: number
  path: string
  name: string
}

/** A value worth capturing: an id (integer) or a uuid-like string. */
const capturable = (key: string, value: unknown) =>
  (typeof value === 'number' && Number.isInteger(value) && (key === 'id' || key.endsWith('_id'))) || (typeof value === 'string' && UUID.test(value))

export function recordScenario(exchanges: readonly ProxiedExchange[], contracts: Contracts, options: RecordOptions): Scenario {
  const roles = new Map(Object.entries(options.roleTokens).map(([role, token]) => [token, role]))
  const freeRoles: string[] = TOKEN_ROLES.filter((role) => !Object.keys(options.roleTokens).includes(role))
  const roleOf = (token: string | undefined): string => {
    if (token === undefined) return 'none'
    let role = roles.get(token)
    if (!role) {
      role = freeRoles.shift() ?? 'none'
      roles.set(token, role)
    }
    return role
  }
  const sources = new Map<string, Source>()
  const names = new Set<string>()
  const captures = new Map<number, Record<string, string>>()
  const skipped: string[] = []
  const notRelayed: string[] = []
  const steps: Record<string, unknown>[] = []

  /** `{{var}}` for a value an earlier answer returned (capturing it there), else the value. */
  const reuse = (value: unknown): unknown => {
    const source = sources.get(JSON.stringify(value))
    if (!source) return value
    const captured = captures.get(source.step) ?? {}
    captured[source.name] = `body.${source.path}`
    captures.set(source.step, captured)
    return `{{${source.name}}}`
  }
  /** The kinds of object answers returned (client, team_member...): a key naming one refers to it. */
  const kinds = new Set<string>()
  const refersToSomething = (key: string) => key === 'id' || /_ids?$/.test(key) || kinds.has(key) || kinds.has(key.replace(/s$/, ''))
  /** Replaces reused ids in a request body or query: only under keys that refer to something. */
  const reuseIn = (value: Json, key: string): Json => {
    if (Array.isArray(value)) return value.map((item) => reuseIn(item, key))
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, reuseIn(child, name)]))
    return refersToSomething(key) ? reuse(value) : value
  }
  /** Notes the ids and uuids of an answer for later steps. */
  const remember = (value: Json, step: number, path: string, objectName: string, depth: number): void => {
    if (depth > 8) return
    if (Array.isArray(value)) value.slice(0, 100).forEach((item, index) => remember(item, step, `${path}.${index}`, objectName, depth + 1))
    if (!isObject(value)) return
    const kind = typeof value.object === 'string' ? value.object : objectName
    kinds.add(kind)
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key
      if (capturable(key, child) && !sources.has(JSON.stringify(child))) {
        let name = camel(key === 'id' ? `${kind}_id` : key)
        if (names.has(name)) {
          let suffix = 2
          while (names.has(`${name}${suffix}`)) suffix++
          name = `${name}${suffix}`
        }
        names.add(name)
        sources.set(JSON.stringify(child), { step, path: childPath, name })
      } else remember(child, step, childPath, key, depth + 1)
    }
  }

  exchanges.forEach((exchange) => {
    // What the proxy answered itself, or what broke off, says nothing of what the service answers.
    if (exchange.verdicts.some((verdict) => verdict.kind === 'not_relayed')) {
      notRelayed.push(`${exchange.method} ${exchange.path} -> ${exchange.status}`)
      return
    }
    const op = exchange.operationId === null ? undefined : contracts.operations.get(exchange.operationId)
    if (!op) {
      skipped.push(`${exchange.method} ${exchange.path}`)
      return
    }
    const index = steps.length
    const step: Record<string, unknown> = { name: `${index + 1}. ${op.id} -> ${exchange.status}` }
    if (op.surface === 'control') step.control = op.id
    else {
      step.operation = op.id
      step.as = roleOf(exchange.recorded.token)
    }
    const params = Object.fromEntries(
      Object.entries(exchange.recorded.params).map(([name, raw]) => {
        const value = /^\d+$/.test(raw) ? Number(raw) : raw
        return [name, reuse(value)]
      }),
    )
    if (Object.keys(params).length > 0) step.params = params
    const query: Record<string, unknown> = {}
    for (const [rawName, value] of new URLSearchParams(exchange.query)) {
      const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
      const read = /^\d+$/.test(value) ? Number(value) : value
      const item = reuseIn(read, name)
      query[name] = name in query ? [...[query[name]].flat(), item] : item
    }
    if (Object.keys(query).length > 0) step.query = query
    const multipart = op.multipart !== undefined && /multipart\//i.test(exchange.recorded.contentType ?? '')
    if (multipart) {
      const field = contracts.multipartFields(op.id)?.files[0] ?? 'file'
      step.upload = { field, sample: 'bank-statement.pdf' }
    } else if (exchange.recorded.requestBody !== undefined) step.body = reuseIn(exchange.recorded.requestBody, '')
    step.expect = { status: exchange.status, ...expectedBody(exchange.recorded.responseBody) }
    steps.push(step)
    remember(exchange.recorded.responseBody, index, '', op.id.split('.')[0]?.replace(/s$/, '') ?? 'item', 0)
  })
  captures.forEach((capture, index) => {
    const step = steps[index] as Record<string, unknown>
    step.capture = capture
  })
  const leftOut = [
    ...(skipped.length > 0 ? [`Left out (no operation matches): ${skipped.join(', ')}.`] : []),
    ...(notRelayed.length > 0 ? [`Left out (not passed through whole: the proxy answered, or the answer broke off): ${notRelayed.join(', ')}.`] : []),
  ]
  const description = [options.description, ...leftOut].join(' ')
  return { name: options.name, description, tags: ['recorded'], steps }
}

/** Expectations on an answer's top level: generated values by type, the rest as they were. */
function expectedBody(body: Json): { body?: Record<string, unknown> } {
  if (!isObject(body)) return {}
  const expected: Record<string, unknown> = {}
  const list = body.object === 'paginated_list' || body.object === 'list'
  for (const [key, value] of Object.entries(body)) {
    if (list && key !== 'object') {
      expected[key] = { type: jsonType(value) }
      continue
    }
    if (Array.isArray(value) || isObject(value)) {
      expected[key] = { type: jsonType(value) }
      continue
    }
    if (GENERATED_KEYS.test(key) || (typeof value === 'string' && (TIMESTAMP.test(value) || UUID.test(value) || /^https?:\/\//.test(value)))) {
      expected[key] = { type: jsonType(value) }
    } else expected[key] = value
  }
  return Object.keys(expected).length > 0 ? { body: expected } : {}
}

/**
 * Writes the scenario as YAML (or JSON for a .json file), with the schema line editors read: the
 * package's scenario schema, as a path from where the file is saved, so it resolves there.
 */
export function writeScenario(file: string, scenario: Scenario, contracts: Pick<Contracts, 'dir'>): void {
  if (file.endsWith('.json')) {
    writeBeside(file, `${JSON.stringify(scenario, null, 2)}\n`)
    return
  }
  const schema = relative(dirname(resolve(file)), join(contracts.dir, 'scenario.schema.json')).split(sep).join('/')
  writeBeside(file, `# yaml-language-server: $schema=${schema}\n${stringify(scenario, { lineWidth: 0 })}`)
}
