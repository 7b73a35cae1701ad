// A pact file (Pact specification V2, V3 or V4) read into the HTTP interactions it holds, each with
// its example request and response. Matching rules only loosen what the examples show and a
// generator's example value is in the file too, so the examples are what the harness judges.
import { readFileSync } from 'node:fs'
import { bodyText, readJsonBody } from '../../contracts/body.ts'

export interface ProviderState {
  name: string
  params: Record<string, unknown>
}

export interface PactRequest {
  method: string
  path: string
  /** The query string without its leading '?'. */
  query: string
  /** Header names lower-cased, several values joined with ', '. */
  headers: Record<string, string>
  /** The body as JSON (or text when it is not JSON); undefined when the interaction has none. */
  body: unknown
  /** The body's raw text, '' when none. */
  text: string
}

export interface PactResponse {
  status: number
  headers: Record<string, string>
  body: unknown
  text: string
}

export interface PactInteraction {
  description: string
  providerStates: ProviderState[]
  request: PactRequest
  response: PactResponse
}

export interface PactFile {
  path: string
  consumer: string
  provider: string
  /** The specification version as the file names it (2.0.0, 3.0.0, 4.0). */
  specification: string
  interactions: PactInteraction[]
  /** Interactions that are not synchronous HTTP (V4 messages), which the HTTP checks leave out. */
  skipped: string[]
}

/** A file that cannot be read as a pact: missing, not JSON, or without interactions. */
export class PactFileError extends Error {}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** V2 and V3 headers are strings, V4's lists of strings; names are case-insensitive. */
function readHeaders(raw: unknown): Record<string, string> {
  if (!isObject(raw)) return {}
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.map(String).join(', ') : String(value)]))
}

/** V2 writes the query as a string, V3 and V4 as {name: [values]}. */
function readQuery(raw: unknown): string {
  if (typeof raw === 'string') return raw.replace(/^\?/, '')
  if (!isObject(raw)) return ''
  const params = new URLSearchParams()
  for (const [name, values] of Object.entries(raw)) {
    for (const value of Array.isArray(values) ? values : [values]) params.append(name, String(value))
  }
  return params.toString()
}

const isJsonType = (contentType: string | undefined) => /json/i.test(contentType ?? '')

/**
 * V4 bodies are {content, contentType, encoded}: encoded false (content as it is), 'base64' or
 * 'json' (content is JSON text). V2 and V3 bodies are the JSON value itself, or a string.
 */
function readBody(raw: unknown, headers: Record<string, string>, v4: boolean): { body: unknown; text: string } {
  if (raw === undefined || raw === null) return { body: undefined, text: '' }
  if (!v4 || !isObject(raw) || !('content' in raw)) {
    return typeof raw === 'string' && !isJsonType(headers['content-type']) ? { body: raw, text: raw } : { body: raw, text: JSON.stringify(raw) }
  }
  const contentType = typeof raw.contentType === 'string' ? raw.contentType : headers['content-type']
  if (contentType && !headers['content-type']) headers['content-type'] = contentType
  const content = raw.content
  if (typeof content !== 'string') return { body: content, text: JSON.stringify(content) }
  const text = raw.encoded === 'base64' ? bodyText(Buffer.from(content, 'base64')) : content
  if (isJsonType(contentType) && (raw.encoded === 'json' || raw.encoded === 'base64' || raw.encoded === true)) {
    const body = readJsonBody(text)
    return { body: body.kind === 'json' ? body.value : text, text }
  }
  return { body: text, text }
}

function readStates(interaction: Json): ProviderState[] {
  if (Array.isArray(interaction.providerStates)) {
    return interaction.providerStates.filter(isObject).map((state) => ({ name: typeof state.name === 'string' ? state.name : '', params: isObject(state.params) ? state.params : {} }))
  }
  // V2: one state, by name only.
  return typeof interaction.providerState === 'string' && interaction.providerState !== '' ? [{ name: interaction.providerState, params: {} }] : []
}

function readInteraction(raw: Json, v4: boolean, at: string): PactInteraction {
  const request = raw.request
  const response = raw.response
  if (!isObject(request) || !isObject(response) || typeof request.method !== 'string' || typeof request.path !== 'string') {
    throw new PactFileError(`${at} has no request with a method and a path, or no response`)
  }
  const requestHeaders = readHeaders(request.headers)
  const responseHeaders = readHeaders(response.headers)
  return {
    description: typeof raw.description === 'string' ? raw.description : at,
    providerStates: readStates(raw),
    request: {
      method: request.method.toUpperCase(),
      path: request.path,
      query: readQuery(request.query),
      headers: requestHeaders,
      ...readBody(request.body, requestHeaders, v4),
    },
    response: { status: Number(response.status ?? 200), headers: responseHeaders, ...readBody(response.body, responseHeaders, v4) },
  }
}

export function readPactFile(path: string): PactFile {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new PactFileError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!isObject(parsed) || !Array.isArray(parsed.interactions)) throw new PactFileError(`${path} is not a pact file: it has no interactions list`)
  const metadata = isObject(parsed.metadata) ? parsed.metadata : {}
  const specification = isObject(metadata.pactSpecification) ? metadata.pactSpecification : isObject(metadata['pact-specification']) ? metadata['pact-specification'] : {}
  const version = typeof specification.version === 'string' ? specification.version : '2.0.0'
  const v4 = version.startsWith('4')
  const interactions: PactInteraction[] = []
  const skipped: string[] = []
  parsed.interactions.forEach((raw, index) => {
    const at = `${path}: interaction ${index + 1}`
    if (!isObject(raw)) throw new PactFileError(`${at} is not an object`)
    if (v4 && raw.type !== undefined && raw.type !== 'Synchronous/HTTP') {
      skipped.push(typeof raw.description === 'string' ? raw.description : at)
      return
    }
    interactions.push(readInteraction(raw, v4, at))
  })
  const name = (party: unknown) => (isObject(party) && typeof party.name === 'string' ? party.name : '?')
  return { path, consumer: name(parsed.consumer), provider: name(parsed.provider), specification: version, interactions, skipped }
}
