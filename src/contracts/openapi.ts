// The served OpenAPI 3.1 document, generated from contracts/ (never written by hand): schemas
// become components, operations become paths, the universal responses and headers are shared.
import { OPERATIONS_BASE, SURFACES, type Contracts, type JsonSchema, type OperationContract, type Surface } from './load.ts'
import { relinkRefs } from './refs.ts'

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
}

/** Component name of a schema document: schemas/client.json -> client, events/delivery.json -> events-delivery. */
function componentName(documentUrl: URL): string | undefined {
  const match = /^\/(schemas|events)\/([\w-]+)\.json$/.exec(documentUrl.pathname)
  if (!match) return undefined
  return match[1] === 'events' ? `events-${match[2] as string}` : match[2]
}

/** Rewrites a contract's $refs (relative to the document at `base`) to component refs. */
function toComponentRefs(value: unknown, base: string): unknown {
  return relinkRefs(value, base, (target) => {
    const component = componentName(target)
    if (!component) throw new Error(`openapi: cannot map $ref ${target.href} (from ${base})`)
    return `#/components/schemas/${component}${target.hash.replace(/^#/, '')}`
  })
}

function parameters(contracts: Contracts, op: OperationContract): unknown[] {
  const path = op.pathParams.map((name) => ({ name, in: 'path', required: true, schema: contracts.parameters[name] }))
  const querySchema = contracts.querySchema(op.id) as { properties: Record<string, JsonSchema> }
  const query = Object.entries(querySchema.properties).map(([name, schema]) => {
    const { description, deprecated, errorMessage: _message, ...rest } = schema
    return {
      name,
      in: 'query',
      ...(description ? { description } : {}),
      ...(deprecated ? { deprecated: true } : {}),
      ...(rest.type === 'array' ? { style: 'form', explode: false } : {}),
      schema: toComponentRefs(rest, OPERATIONS_BASE),
    }
  })
  return [...path, ...query]
}

function responses(op: OperationContract): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(op.responses)) {
    const limited = SURFACES[op.surface].authenticated
    const headers = !limited
      ? undefined
      : status === '429'
        ? { ...RATE_LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' } }
        : RATE_LIMIT_HEADERS
    const content =
      response.body || response.binary
        ? {
            ...(response.body && { 'application/json': { schema: toComponentRefs(response.body, OPERATIONS_BASE) } }),
            ...Object.fromEntries((response.binary ?? []).map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
          }
        : undefined
    result[status] = {
      description: response.description ?? (Number(status) < 300 ? 'Success.' : 'Error.'),
      ...(headers ? { headers } : {}),
      ...(content ? { content } : {}),
    }
  }
  return result
}

function operationObject(contracts: Contracts, op: OperationContract): Record<string, unknown> {
  const body = op.body
    ? { required: true, content: { 'application/json': { schema: toComponentRefs(op.body, OPERATIONS_BASE) } } }
    : op.multipart
      ? { required: true, content: { 'multipart/form-data': { schema: toComponentRefs(op.multipart, OPERATIONS_BASE) } } }
      : op.form
        ? { required: true, content: { 'application/x-www-form-urlencoded': { schema: toComponentRefs(op.form, OPERATIONS_BASE) } } }
        : undefined
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    parameters: parameters(contracts, op),
    ...(body ? { requestBody: body } : {}),
    responses: responses(op),
  }
}

const INFO: Record<Surface, { title: string; description: string }> = {
  api: {
    title: 'Identity Verification Service REST API (mock)',
    description:
      'Generated from the contracts of ivs-mock, a stateful mock of the Identity Verification Service REST API v2.0. Every operation takes a bearer token; 401 and 429 apply everywhere.',
  },
  control: {
    title: 'ivs-mock control API',
    description:
      "The mock's own operations, outside the API it mocks: fresh isolated teams, and changes the real service makes outside its API. No token, no rate limit.",
  },
  oauth: {
    title: 'Identity Verification Service OAuth 2.0 endpoints (mock)',
    description: 'The authorisation-code flow at the service root: the consent page and the token endpoint. Errors in the shapes of RFC 6749 section 5.2.',
  },
}

/** The API's second security scheme (docs/specification-notes.md "Authentication"); the URLs are relative to the API's origin. */
const OAUTH_SCHEME = {
  type: 'oauth2',
  description: 'OAuth 2.0 authorisation-code flow: the access token (a JWT) is sent as a bearer token.',
  flows: { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: {} } },
}

/** The OpenAPI document of one surface: the API (GET /openapi.json) or the control API (GET /_mock/openapi.json). */
export function buildOpenApi(contracts: Contracts, version: string, surface: Surface = 'api'): Record<string, unknown> {
  const operations = [...contracts.operations.values()].filter((op) => op.surface === surface)
  const authenticated = SURFACES[surface].authenticated
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    paths[op.path] ??= {}
    ;(paths[op.path] as Record<string, unknown>)[op.method.toLowerCase()] = operationObject(contracts, op)
  }
  const schemas: Record<string, unknown> = {}
  for (const schema of contracts.schemas.values()) {
    const id = schema.$id as string
    schemas[componentName(new URL(id)) as string] = toComponentRefs(schema, id)
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { ...INFO[surface], version },
    ...(authenticated ? { security: [{ bearer: [] }, { oauth: [] }] } : {}),
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      ...(authenticated
        ? {
            securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token.' }, oauth: OAUTH_SCHEME },
            headers: {
              'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
              'X-RateLimit-Remaining': { description: 'Requests left in this window.', schema: { type: 'integer' } },
              'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
              'X-RateLimit-Reset': { description: 'Unix time when the window resets.', schema: { type: 'integer' } },
            },
          }
        : {}),
      schemas,
    },
  }
}
