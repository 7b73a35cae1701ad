import { validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { contracts } from '../support/contracts.ts'
import { createTestMock } from '../support/mock.ts'

async function servedDocument(): Promise<any> {
  const res = await createTestMock().app.request('http://127.0.0.1:4010/openapi.json')
  expect(res.status).toBe(200)
  return res.json()
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await servedDocument()
    expect(document.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(document))
    expect(result.valid, result.valid ? '' : JSON.stringify(result.errors, null, 2)).toBe(true)
  })

  it('points its server at the API base of the host it was fetched from', async () => {
    expect((await servedDocument()).servers).toEqual([{ url: 'http://127.0.0.1:4010/api/v2' }])
  })

  it('has every contract operation, with its operationId, method and path', async () => {
    const document = await servedDocument()
    for (const op of contracts.operations.values()) {
      const operation = document.paths[op.path]?.[op.method.toLowerCase()]
      expect(operation?.operationId, `${op.method} ${op.path}`).toBe(op.id)
      expect(Object.keys(operation.responses).sort()).toEqual(Object.keys(op.responses).sort())
    }
  })

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

  it('describes paging, sorting and expand of a list as query parameters', async () => {
    const list = (await servedDocument()).paths['/clients'].get
    const names = list.parameters.map((parameter: { name: string }) => parameter.name)
    expect(names).toEqual(['page', 'limit', 'sort_by', 'order_by', 'search', 'status', 'visibility', 'assignee', 'reference', 'deletion_date'])
    const limit = list.parameters.find((parameter: { name: string }) => parameter.name === 'limit')
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 })
  })
})
