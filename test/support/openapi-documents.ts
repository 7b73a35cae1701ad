// OpenAPI documents for the diff tests: a large one made to measure (components in a circle, each
// referring to itself through its children, $ref chains, allOf, oneOf, inline objects nested deep),
// the same every time it is made.

export interface LargeDocumentOptions {
  /** Operations: a GET and a PUT per path. */
  operations?: number
  components?: number
  /** The length of the $ref chain the first path's answer goes through. */
  chain?: number
  /** How deep the inline objects of the Deep component nest. */
  depth?: number
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

export function largeDocument({ operations = 160, components = 400, chain = 500, depth = 200 }: LargeDocumentOptions = {}): Record<string, any> {
  const schemas: Record<string, unknown> = {
    Meta: { type: 'object', properties: { revision: { type: 'integer', minimum: 0 }, source: { type: 'string', enum: ['import', 'api', 'ui'] } }, required: ['revision'] },
  }
  for (let index = 0; index < components; index++) {
    const filler = Object.fromEntries(
      Array.from({ length: 16 }, (_, field) => [`field_${field}`, { type: 'string', maxLength: 64 + field, description: `Field ${field} of entity ${index}, a text of some length so the document weighs what a real one does.` }]),
    )
    schemas[`Entity${index}`] = {
      type: 'object',
      description: `Entity ${index}.`,
      required: ['id', 'name', 'status'],
      additionalProperties: false,
      properties: {
        id: { type: 'integer', minimum: 1 },
        name: { type: 'string', minLength: 1, maxLength: 100 },
        status: { type: 'string', enum: ['draft', 'active', 'archived'] },
        created_at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        owner: ref(`Entity${(index + 1) % components}`),
        children: { type: 'array', items: ref(`Entity${index}`) },
        meta: { allOf: [ref('Meta'), { type: 'object', properties: { note: { type: ['string', 'null'] } } }] },
        choice: { oneOf: [ref(`Entity${(index + 7) % components}`), { type: 'null' }] },
        ...filler,
      },
    }
  }
  for (let link = 0; link < chain; link++) schemas[`Link${link}`] = ref(link === chain - 1 ? 'Entity0' : `Link${link + 1}`)
  let deep: Record<string, unknown> = { type: 'string' }
  for (let level = 0; level < depth; level++) deep = { type: 'object', properties: { level: { type: 'integer', const: level }, next: deep } }
  schemas.Deep = deep
  const paths: Record<string, unknown> = {}
  for (let index = 0; index * 2 < operations; index++) {
    const entity = index === 0 ? 'Link0' : index === 1 ? 'Deep' : `Entity${index % components}`
    const answer = (status: string) => ({ [status]: { description: 'The entity.', content: { 'application/json': { schema: ref(entity) } } }, '404': { description: 'Not found.', content: { 'application/json': { schema: ref('Error') } } } })
    paths[`/entities${index}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: `get${index}`, parameters: [{ name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['owner', 'children'] } }, style: 'form', explode: false }], responses: answer('200') },
      put: { operationId: `put${index}`, requestBody: { required: true, content: { 'application/json': { schema: ref(entity) } } }, responses: answer('200') },
    }
  }
  schemas.Error = { type: 'object', required: ['message'], properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } }
  return { openapi: '3.1.0', info: { title: 'A large document', version: '1.0.0' }, servers: [{ url: 'https://api.example/api/v2' }], paths, components: { schemas } }
}
