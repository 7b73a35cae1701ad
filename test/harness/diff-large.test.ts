// ivs-mock diff on documents unlike the mock's: schemas circular on both sides, and a large
// generated document (over 1 MB, 160 operations, a chain of 500 $refs, components in a circle each
// holding itself, objects nested 200 deep), compared without running out of stack.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareDocuments } from '../../src/harness/diff/compare.ts'
import { differencesOf } from '../../src/harness/diff/differences.ts'
import { readOtherDocument } from '../../src/harness/diff/documents.ts'
import { largeDocument } from '../support/openapi-documents.ts'

const reached = (difference: { operations: { operation: string }[] }) => [...new Set(difference.operations.map((reach) => reach.operation))].sort()

/** A tree of nodes, and two schemas that hold each other, answered by GET /nodes and GET /pairs. */
function circularDocument(change: (schemas: any) => void = () => {}): Record<string, any> {
  const schemas: any = {
    Node: { type: 'object', required: ['value'], properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
    Left: { type: 'object', properties: { name: { type: 'string' }, right: { $ref: '#/components/schemas/Right' } } },
    Right: { type: 'object', properties: { name: { type: 'string' }, left: { $ref: '#/components/schemas/Left' } } },
  }
  change(schemas)
  const answer = (name: string) => ({ responses: { '200': { description: 'OK.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } } })
  return { openapi: '3.1.0', info: { title: 'Circles', version: '1' }, servers: [{ url: '/api/v2' }], paths: { '/nodes': { get: answer('Node') }, '/pairs': { get: answer('Left') } }, components: { schemas } }
}

describe('ivs-mock diff: schemas circular on both sides', () => {
  it('compares them to the end: no difference against themselves', () => {
    expect(differencesOf(compareDocuments(circularDocument(), circularDocument()))).toEqual([])
  })

  it('reports a difference inside the circle once, in its component, at the shortest path to it', () => {
    const differences = differencesOf(
      compareDocuments(
        circularDocument(),
        circularDocument((schemas) => {
          schemas.Node.properties.value.maxLength = 10
          schemas.Right.properties.name.type = ['string', 'null']
        }),
      ),
    )
    expect(differences).toEqual([
      {
        classification: 'breaks clients',
        component: 'Right',
        where: 'response $.name: nullable',
        aspect: 'nullable',
        mock: 'not nullable',
        other: 'nullable',
        meaning: 'the other side may answer null; the mock never does',
        operations: [{ operation: 'GET /pairs', at: 'response 200 (application/json) $.right.name' }],
      },
      {
        classification: 'fidelity only',
        component: 'Node',
        where: 'response $.value: maxLength',
        aspect: 'maxLength',
        mock: '(none)',
        other: '10',
        meaning: 'the mock may answer longer strings, which the other side never does',
        operations: [{ operation: 'GET /nodes', at: 'response 200 (application/json) $.value' }],
      },
    ])
  })
})

describe('ivs-mock diff: a large document', () => {
  let folder: string
  let file: string
  let large: Record<string, any>

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'ivs-diff-large-'))
    file = join(folder, 'large.json')
    large = largeDocument()
    writeFileSync(file, JSON.stringify(large))
  })

  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('weighs over 1 MB, with 160 operations, and is read whole', async () => {
    expect(statSync(file).size).toBeGreaterThan(1_000_000)
    const read = await readOtherDocument(file)
    expect(read.document).toEqual(large)
    expect(compareDocuments(large, read.document).otherOperations.size).toBe(160)
  })

  it('against itself: no difference', async () => {
    expect(differencesOf(compareDocuments(large, (await readOtherDocument(file)).document))).toEqual([])
  })

  it('an operation removed and an enum value added in the circle: each difference once, with every operation it reaches', () => {
    const other = structuredClone(large)
    delete other.paths['/entities3/{id}'].put
    other.components.schemas.Entity5.properties.status.enum.push('deleted')
    const differences = differencesOf(compareDocuments(large, other))
    expect(differences.map(({ classification, operation, component, where, mock, other: says }) => ({ classification, operation, component, where, mock, other: says }))).toEqual([
      { classification: 'breaks clients', operation: 'PUT /entities3/{id}', component: undefined, where: 'operation', mock: 'served', other: 'absent' },
      { classification: 'breaks clients', operation: undefined, component: 'Entity5', where: 'response $.status: enum', mock: '"draft", "active", "archived"', other: '"draft", "active", "archived", "deleted"' },
      { classification: 'fidelity only', operation: undefined, component: 'Entity5', where: 'request $.status: enum', mock: '"draft", "active", "archived"', other: '"draft", "active", "archived", "deleted"' },
    ])
    // Every entity reaches the fifth around the circle of owners; only the Deep component's path does not.
    const operations = Object.keys(large.paths)
      .filter((path) => path !== '/entities1/{id}')
      .flatMap((path) => [`GET ${path}`, `PUT ${path}`])
    expect(reached(differences[1] as any)).toEqual(operations.filter((operation) => operation !== 'PUT /entities3/{id}').sort())
    expect(reached(differences[2] as any)).toEqual(operations.filter((operation) => operation.startsWith('PUT') && operation !== 'PUT /entities3/{id}').sort())
    expect(differences[1]?.operations).toContainEqual({ operation: 'GET /entities5/{id}', at: 'response 200 (application/json) $.status' })
  })

  it('with --validate, says the parser could not validate it (its dereference goes too deep) and compares it all the same', async () => {
    expect((await readOtherDocument(file, { validate: true })).notes).toEqual(['not validated: Maximum dereference depth (500) exceeded'])
  })
})
