// The operations of an OpenAPI document as `ivs-mock diff` matches them: by method and path
// template, the names of path parameters left out (`/clients/{id}` is `/clients/{clientId}`), and
// the path taken after the API's base. A document may write its paths after a server URL that ends
// in /api/v2 (as the mock's does), or in full from the host: a path that, put after its server
// URL's path, begins with /api/v2 is taken after it; any other path is taken as the document
// writes it (docs/keeping-the-mock-honest.md, "How operations are matched").
import { SURFACES } from '../../contracts/load.ts'
import { childPointer, type SchemaGraph } from './shapes.ts'

export const API_BASE = SURFACES.api.base

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Header parameters OpenAPI says to ignore: the media types and the security scheme say them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])

export type ParameterIn = 'path' | 'query' | 'header' | 'cookie'

export interface ParameterEntry {
  /** How parameters are matched: a path parameter by its place in the template, others by name (headers whatever their case). */
  key: string
  /** `path parameter {id}`, `query parameter status`. */
  label: string
  in: ParameterIn
  required: boolean
  style: string
  explode: boolean
  /** Where its schema is, if it has one. */
  schema: string | undefined
}

export interface MediaEntry {
  mediaType: string
  schema: string | undefined
}

export interface OperationEntry {
  /** `GET /clients/{}`: what operations are matched by. */
  key: string
  /** `GET /clients/{id}`, as the document writes it (after the API's base). */
  label: string
  operationId: string | undefined
  parameters: Map<string, ParameterEntry>
  requestBody: { required: boolean; content: MediaEntry[] } | undefined
  /** By status (`200`, `4XX`, `default`); an empty list: no body. */
  responses: Map<string, MediaEntry[]>
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `GET /clients/{}`: method and template, parameter names and a trailing slash left out. */
export function operationKey(method: string, path: string): string {
  const template = path.replace(/\{[^}]*\}/g, '{}')
  return `${method.toUpperCase()} ${template.length > 1 ? template.replace(/\/+$/, '') : template}`
}

/** The path of the first server that applies (operation, then path item, then document), its variables at their defaults. */
function serverPath(...candidates: unknown[]): string {
  const servers = candidates.find((servers) => Array.isArray(servers) && servers.length > 0) as unknown[] | undefined
  const server = servers?.[0]
  if (!isObject(server) || typeof server.url !== 'string') return ''
  const variables = isObject(server.variables) ? server.variables : {}
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = variables[name]
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : ''
  })
  try {
    return decodeURI(new URL(url, 'http://server.invalid').pathname).replace(/\/+$/, '')
  } catch {
    return ''
  }
}

/** The path after the API's base, when the server's path and the path together begin with it; else the path as written. */
export function apiPath(server: string, path: string): string {
  const full = `${server}${path}`
  if (full === API_BASE) return '/'
  return full.startsWith(`${API_BASE}/`) ? full.slice(API_BASE.length) : path
}

function mediaEntries(pointer: string, content: unknown): MediaEntry[] {
  if (!isObject(content)) return []
  return Object.entries(content).map(([mediaType, media]) => ({
    mediaType: mediaType.split(';')[0]?.trim().toLowerCase() ?? mediaType,
    schema: isObject(media) && 'schema' in media ? childPointer(pointer, 'content', mediaType, 'schema') : undefined,
  }))
}

function parameterEntry(graph: SchemaGraph, pointer: string, templateNames: string[]): ParameterEntry | undefined {
  const at = graph.canonical(pointer)
  const parameter = graph.resolve(at)
  if (!isObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') return undefined
  const where = parameter.in as ParameterIn
  const name = parameter.name
  if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined
  let key: string
  let label: string
  if (where === 'path') {
    const index = templateNames.indexOf(name)
    if (index < 0) return undefined
    key = `path#${index}`
    label = `path parameter {${name}}`
  } else {
    key = `${where}:${where === 'header' ? name.toLowerCase() : name}`
    label = `${where} parameter ${name}`
  }
  const style = typeof parameter.style === 'string' ? parameter.style : where === 'query' || where === 'cookie' ? 'form' : 'simple'
  const schema = 'schema' in parameter ? childPointer(at, 'schema') : mediaEntries(at, parameter.content)[0]?.schema
  return {
    key,
    label,
    in: where,
    required: where === 'path' || parameter.required === true,
    style,
    explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
    schema,
  }
}

/** Every operation of a document by its key; the first of two that share a key is kept. */
export function operationsOf(document: Record<string, unknown>, graph: SchemaGraph): Map<string, OperationEntry> {
  const operations = new Map<string, OperationEntry>()
  const paths = isObject(document.paths) ? document.paths : {}
  for (const path of Object.keys(paths)) {
    const itemPointer = graph.canonical(childPointer('#', 'paths', path))
    const item = graph.resolve(itemPointer)
    if (!isObject(item)) continue
    const templateNames = [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] as string)
    for (const method of METHODS) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const pointer = childPointer(itemPointer, method)
      const relative = apiPath(serverPath(operation.servers, item.servers, document.servers), path)
      const key = operationKey(method, relative)
      if (operations.has(key)) continue
      const parameters = new Map<string, ParameterEntry>()
      const declared = [
        ...(Array.isArray(item.parameters) ? item.parameters.map((_, index) => childPointer(itemPointer, 'parameters', index)) : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters.map((_, index) => childPointer(pointer, 'parameters', index)) : []),
      ]
      // The operation's own parameters come last and replace the path item's of the same name and place.
      for (const at of declared) {
        const entry = parameterEntry(graph, at, templateNames)
        if (entry) parameters.set(entry.key, entry)
      }
      let requestBody: OperationEntry['requestBody']
      if (operation.requestBody !== undefined) {
        const at = graph.canonical(childPointer(pointer, 'requestBody'))
        const body = graph.resolve(at)
        if (isObject(body)) requestBody = { required: body.required === true, content: mediaEntries(at, body.content) }
      }
      const responses = new Map<string, MediaEntry[]>()
      if (isObject(operation.responses)) {
        for (const status of Object.keys(operation.responses)) {
          const at = graph.canonical(childPointer(pointer, 'responses', status))
          const response = graph.resolve(at)
          responses.set(status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(), isObject(response) ? mediaEntries(at, response.content) : [])
        }
      }
      operations.set(key, {
        key,
        label: `${method.toUpperCase()} ${relative}`,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        parameters,
        requestBody,
        responses,
      })
    }
  }
  return operations
}
