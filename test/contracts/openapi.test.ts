import { validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

const DOCUMENTS = { api: '/openapi.json', control: '/_mock/openapi.json' } as const

async function servedDocument(path: string = DOCUMENTS.api): Promise<any> {
  const res = await createTestMock().app.request(`http://127.0.0.1:4010${path}`)
  expect(res.status).toBe(200)
  return res.json()
}

describe.each(Object.entries(DOCUMENTS) as Array<[keyof typeof DOCUMENTS, string]>)('the %s document (GET %s)', (surface, path) => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await servedDocument(path)
    expect(document.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(document))
    expect(result.valid, result.valid ? '' : JSON.stringify(result.errors, null, 2)).toBe(true)
  })

  it('points its server at the base of the host it was fetched from', async () => {
    const base = surface === 'api' ? '/api/v2' : '/_mock'
    expect((await servedDocument(path)).servers).toEqual([{ url: `http://127.0.0.1:4010${base}` }])
  })

  it('has every contract operation of its surface and no other, with its operationId, method and path', async () => {
    const document = await servedDocument(path)
    const operations = [...contracts.operations.values()].filter((op) => op.surface === surface)
    for (const op of operations) {
      const operation = document.paths[op.path]?.[op.method.toLowerCase()]
      expect(operation?.operationId, `${op.method} ${op.path}`).toBe(op.id)
      expect(Object.keys(operation.responses).sort()).toEqual(Object.keys(op.responses).sort())
    }
    const listed = Object.values(document.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId))
    expect(listed.sort()).toEqual(operations.map((op) => op.id).sort())
  })

  it(surface === 'api' ? 'asks for a bearer token: a personal token or an OAuth access token' : 'asks for no token', async () => {
    const document = await servedDocument(path)
    expect(document.security).toEqual(surface === 'api' ? [{ bearer: [] }, { oauth: [] }] : undefined)
  })
})

describe('GET /openapi.json', () => {
  it('has every schema document as a component, with every $ref resolving inside the document', async () => {
    const document = await servedDocument()
    for (const name of contracts.schemas.keys()) expect(document.components.schemas).toHaveProperty(name.replace('/', '-'))
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? []
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/')
      let target: any = document
      for (const part of pointer) target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
      expect(target, ref).toBeDefined()
    }
  })

  it('declares the OAuth 2.0 authorisation-code flow, its URLs at the service root', async () => {
    expect((await servedDocument()).components.securitySchemes.oauth).toEqual({
      type: 'oauth2',
      description: 'OAuth 2.0 authorisation-code flow: the access token (a JWT) is sent as a bearer token.',
      flows: { authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: {} } },
    })
  })

  it('describes paging, sorting and expand of a list as query parameters', async () => {
    const list = (await servedDocument()).paths['/clients'].get
    const names = list.parameters.map((parameter: { name: string }) => parameter.name)
    expect(names).toEqual(['page', 'limit', 'sort_by', 'order_by', 'search', 'status', 'visibility', 'assignee', 'reference', 'deletion_date'])
    const limit = list.parameters.find((parameter: { name: string }) => parameter.name === 'limit')
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 })
  })

  it('says a check response is a photo ID response or exactly check_response.other, by the check\'s type (docs/specification-notes.md "Checks and responses")', async () => {
    const { schemas } = (await servedDocument()).components
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
    const responses = (...shapes: object[]) => ({ anyOf: [{ type: 'null' }, { const: true }, ...shapes] })
    expect(schemas.check.properties.response.anyOf).toEqual(responses(ref('check-response-photo-id'), ref('check-response-other')).anyOf)
    expect(schemas.check.if).toEqual({ properties: { type: { const: 'photo_id' } } })
    expect(schemas.check.then).toEqual({ properties: { response: responses(ref('check-response-photo-id')) } })
    expect(schemas.check.else).toEqual({ properties: { response: responses(ref('check-response-other')) } })
    expect(schemas['check-response-other']).toMatchObject({ type: 'object', required: ['object'], additionalProperties: false, properties: { object: { const: 'check_response.other' } } })
    expect(Object.keys(schemas).filter((name) => name.startsWith('check-response'))).toEqual(['check-response-other', 'check-response-photo-id'])
  })
})
