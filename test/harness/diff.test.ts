// ivs-mock diff in process: the mock's contracts against the document GET /openapi.json serves, and
// against documents made from it with one difference each, read from files (JSON and YAML) and
// from a loopback URL; what cannot be read; --accept; the JSON, Markdown and JUnit reports.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { stringify as toYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diffAgainst, runDiff, type DiffRequest } from '../../src/harness/diff/command.ts'
import { servedDocument } from '../../src/harness/diff/documents.ts'
import { createTestMock } from '../support/mock.ts'

let served: any
let folder: string
let server: Server
let origin: string
/** What the loopback server answers, by path. */
const published = new Map<string, { type: string; body: string }>()

beforeAll(async () => {
  const answer = await createTestMock().app.request('http://127.0.0.1:4010/openapi.json')
  expect(answer.status).toBe(200)
  served = await answer.json()
  folder = mkdtempSync(join(tmpdir(), 'ivs-diff-'))
  server = createServer((request, response) => {
    const document = published.get(request.url ?? '')
    response.writeHead(document ? 200 : 404, { 'content-type': document?.type ?? 'text/plain' })
    response.end(document?.body ?? 'Not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(folder, { recursive: true, force: true })
})

/** The served document with one change. */
function crafted(change: (document: any) => void): any {
  const document = structuredClone(served)
  change(document)
  return document
}

let files = 0
function documentFile(document: unknown, format: 'json' | 'yaml' = 'json'): string {
  const file = join(folder, `document-${++files}.${format}`)
  writeFileSync(file, format === 'json' ? JSON.stringify(document) : toYaml(document, { aliasDuplicateObjects: false }))
  return file
}

function textFile(name: string, text: string): string {
  const file = join(folder, name)
  writeFileSync(file, text)
  return file
}

/** runDiff with its output kept. */
async function run(request: Omit<DiffRequest, 'out' | 'err'>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString())
        done()
      },
    })
  const code = await runDiff({ ...request, out: sink((text) => (stdout += text)), err: sink((text) => (stderr += text)) })
  return { code, stdout, stderr }
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/**
 * The operations whose answers refer to a component, directly or through other schemas, worked out
 * from the $refs alone (each followed to the part of the document it names; conditional schemas,
 * which diff does not compare, left out): what a difference in that component must name.
 */
function operationsAnswering(document: any, component: string): string[] {
  const NOT_COMPARED = new Set(['if', 'then', 'else', 'not'])
  const refsIn = (value: unknown, found: string[] = []): string[] => {
    if (Array.isArray(value)) value.forEach((item) => refsIn(item, found))
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref') found.push(child as string)
        else if (!NOT_COMPARED.has(key)) refsIn(child, found)
      }
    }
    return found
  }
  const target = (ref: string) => ref.slice(2).split('/').reduce((value: any, token) => value[token.replace(/~1/g, '/').replace(/~0/g, '~')], document)
  const reaches = (start: unknown) => {
    const seen = new Set<string>()
    const queue = refsIn(start)
    for (const ref of queue) {
      if (seen.has(ref)) continue
      seen.add(ref)
      queue.push(...refsIn(target(ref)))
    }
    return seen.has(`#/components/schemas/${component}`)
  }
  const operations: string[] = []
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) if (reaches(operation.responses)) operations.push(`${method.toUpperCase()} ${path}`)
  }
  return operations.sort()
}

const reached = (difference: { operations: { operation: string }[] }) => [...new Set(difference.operations.map((reach) => reach.operation))].sort()

describe('ivs-mock diff: the served document against itself', () => {
  it('builds the document GET /openapi.json serves, its server the API base', () => {
    expect(servedDocument(undefined, served.info.version)).toEqual({ ...served, servers: [{ url: '/api/v2' }] })
  })

  it('finds no difference and exits 0', async () => {
    const result = await run({ document: documentFile(served) })
    expect(result.stderr).toBe('')
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ivs-mock diff: the mock's contracts \(GET \/openapi\.json\) against \S+document-\d+\.json \(OpenAPI 3\.1\.0\), \d+\.\d s$/)
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^Operations: 99 in the mock, 99 in \S+: 99 in both, 0 only in the mock, 0 only in \S+$/),
      'Differences: 0 break clients, 0 fidelity only',
      'No differences.',
    ])
    expect(result.code).toBe(0)
  })

  it('finds none in an OpenAPI 3.0 rendering of it either (nullable: true for null, enum for const, boolean exclusive bounds)', async () => {
    const to30 = (value: any): any => {
      if (Array.isArray(value)) return value.map(to30)
      if (!value || typeof value !== 'object') return value
      const schema: any = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, to30(child)]))
      if (Array.isArray(schema.type)) {
        const types = schema.type.filter((type: string) => type !== 'null')
        schema.type = types.length === 1 ? types[0] : types
        if (types.length < value.type.length) schema.nullable = true
      }
      if ('const' in schema) {
        schema.enum = [schema.const]
        delete schema.const
      }
      for (const [bound, exclusive] of [['minimum', 'exclusiveMinimum'], ['maximum', 'exclusiveMaximum']] as const) {
        if (typeof schema[exclusive] === 'number') {
          schema[bound] = schema[exclusive]
          schema[exclusive] = true
        }
      }
      for (const union of ['anyOf', 'oneOf'] as const) {
        const alternatives = schema[union]
        if (!Array.isArray(alternatives) || !alternatives.some((alternative: any) => alternative.type === 'null')) continue
        const rest = alternatives.filter((alternative: any) => alternative.type !== 'null')
        delete schema[union]
        Object.assign(schema, rest.length === 1 ? { allOf: rest } : { [union]: rest }, { nullable: true })
      }
      if (Array.isArray(schema.enum) && schema.enum.includes(null)) schema.nullable = true
      return schema
    }
    const document = { ...to30(served), openapi: '3.0.3', jsonSchemaDialect: undefined }
    const report = await diffAgainst({ document: documentFile(document, 'yaml') })
    expect(report.other.openapi).toBe('3.0.3')
    expect(report.differences).toEqual([])
  })
})

const CLIENT_ENUM = { component: 'client', where: 'response $.status: enum' }

describe('ivs-mock diff: one difference each, once, in its place, with what it means', () => {
  const cases: { name: string; change: (document: any) => void; expected: Record<string, unknown> }[] = [
    {
      name: 'an operation the other document lacks breaks clients',
      change: (document) => delete document.paths['/clients/{id}'].delete,
      expected: { classification: 'breaks clients', operation: 'DELETE /clients/{id}', where: 'operation', mock: 'served', other: 'absent' },
    },
    {
      name: 'an operation only the other document has is fidelity only',
      change: (document) => (document.paths['/clients/{id}/notes'] = { get: { operationId: 'notes.list', responses: { '200': { description: 'The notes.' } } } }),
      expected: { classification: 'fidelity only', operation: 'GET /clients/{id}/notes', where: 'operation', mock: 'absent', other: 'served' },
    },
    {
      name: 'a query parameter made required breaks clients',
      change: (document) => (document.paths['/clients'].get.parameters.find((parameter: any) => parameter.name === 'status').required = true),
      expected: { classification: 'breaks clients', operation: 'GET /clients', where: 'query parameter status: required', mock: 'optional', other: 'required' },
    },
    {
      name: 'an enum value added to an answer breaks clients',
      change: (document) => document.components.schemas.client.properties.status.enum.push('archived'),
      expected: { classification: 'breaks clients', ...CLIENT_ENUM, mock: '"pending", "approved", "rejected"', other: '"pending", "approved", "rejected", "archived"' },
    },
    {
      name: 'an enum value added to a request body is fidelity only',
      change: (document) => document.components.schemas['client-create'].properties.status.enum.push('archived'),
      expected: { classification: 'fidelity only', component: 'client-create', where: 'request $.status: enum', meaning: 'the other side also accepts "archived", which the mock refuses (the mock is stricter)' },
    },
    {
      name: 'an enum value added to a query parameter is fidelity only',
      change: (document) => document.paths['/clients'].get.parameters.find((parameter: any) => parameter.name === 'status').schema.enum.push('archived'),
      expected: { classification: 'fidelity only', operation: 'GET /clients', where: 'query parameter status $: enum' },
    },
    {
      name: 'a property the mock always answers, removed, breaks clients',
      change: (document) => {
        const client = document.components.schemas.client
        delete client.properties.email
        client.required = client.required.filter((name: string) => name !== 'email')
      },
      expected: { classification: 'breaks clients', component: 'client', where: 'response $.email: property', mock: 'required', other: 'absent' },
    },
    {
      name: 'a property of a request body the other side does not list breaks clients',
      change: (document) => delete document.components.schemas['organisation-create'].properties.reference,
      expected: { classification: 'breaks clients', component: 'organisation-create', where: 'request $.reference: property', mock: 'optional', other: 'absent' },
    },
    {
      name: 'a property made nullable in an answer breaks clients',
      change: (document) => (document.components.schemas.client.properties.is_deletable.type = ['boolean', 'null']),
      expected: { classification: 'breaks clients', component: 'client', where: 'response $.is_deletable: nullable', mock: 'not nullable', other: 'nullable', meaning: 'the other side may answer null; the mock never does' },
    },
    {
      name: 'a property retyped in an answer breaks clients',
      change: (document) => (document.components.schemas.client.properties.is_deletable.type = 'string'),
      expected: { classification: 'breaks clients', component: 'client', where: 'response $.is_deletable: type', mock: 'boolean', other: 'string' },
    },
    {
      name: 'a status the mock never answers breaks clients',
      change: (document) => (document.paths['/clients'].get.responses['418'] = { description: 'A teapot.' }),
      expected: { classification: 'breaks clients', operation: 'GET /clients', where: 'response 418', mock: 'absent', other: 'documented' },
    },
    {
      name: 'a property that makes the client circular (the client of a client) breaks clients',
      change: (document) => (document.components.schemas.client.properties.parent = { $ref: '#/components/schemas/client' }),
      expected: { classification: 'breaks clients', component: 'client', where: 'response $.parent: property', mock: 'absent', other: 'optional' },
    },
  ]

  it.each(cases)('$name', async ({ change, expected }) => {
    const report = await diffAgainst({ document: documentFile(crafted(change)) })
    expect(report.differences).toHaveLength(1)
    expect(report.differences[0]).toMatchObject(expected)
  })

  it('reports a difference in a shared component once, naming every operation that answers it and where', async () => {
    const report = await diffAgainst({ document: documentFile(crafted(cases[3]?.change as (document: any) => void), 'yaml') })
    const [difference] = report.differences
    expect(difference).toMatchObject(CLIENT_ENUM)
    expect(reached(difference as any)).toEqual(operationsAnswering(served, 'client'))
    expect(reached(difference as any)).toHaveLength(36)
    expect(difference?.operations).toContainEqual({ operation: 'GET /clients/{id}', at: 'response 200 (application/json) $.status' })
    expect(difference?.operations).toContainEqual({ operation: 'GET /clients', at: 'response 200 (application/json) $.data[].status' })
    expect(difference?.operations).toContainEqual({ operation: 'GET /cases/{id}/items', at: 'response 200 (application/json) $.data[].entity.client.status' })
    expect(report.operations.find((row) => row.operation === 'GET /clients/{id}')).toEqual({ operation: 'GET /clients/{id}', operationId: 'clients.get', otherOperationId: 'clients.get', presence: 'both', breaking: 1, fidelity: 0, accepted: 0 })
  })

  it('follows a chain of $refs to the same schema: no difference', async () => {
    const report = await diffAgainst({
      document: documentFile(
        crafted((document) => {
          const schemas = document.components.schemas
          schemas['client-v3'] = schemas.client
          for (let link = 0; link < 50; link++) schemas[`client-alias-${link}`] = { $ref: `#/components/schemas/${link === 49 ? 'client-v3' : `client-alias-${link + 1}`}` }
          schemas.client = { $ref: '#/components/schemas/client-alias-0' }
        }),
      ),
    })
    expect(report.differences).toEqual([])
  })

  it('matches a path whose parameter is renamed: no difference', async () => {
    const report = await diffAgainst({
      document: documentFile(
        crafted((document) => {
          const item = document.paths['/clients/{id}']
          delete document.paths['/clients/{id}']
          for (const operation of Object.values<any>(item)) for (const parameter of operation.parameters) if (parameter.in === 'path') parameter.name = 'clientId'
          document.paths['/clients/{clientId}'] = item
        }),
      ),
    })
    expect(report.differences).toEqual([])
    expect(report.operations.find((row) => row.operationId === 'clients.get')?.presence).toBe('both')
  })

  it('matches paths written in full from the host, their server without the API base: no difference', async () => {
    const report = await diffAgainst({
      document: documentFile({ ...served, servers: [{ url: 'https://vendor.example' }], paths: Object.fromEntries(Object.entries(served.paths).map(([path, item]) => [`/api/v2${path}`, item])) }),
    })
    expect(report.summary).toMatchObject({ inBoth: 99, onlyInMock: 0, onlyInOther: 0 })
    expect(report.differences).toEqual([])
  })

  it('reads the document from an http URL (YAML) as from a file', async () => {
    published.set('/vendor/openapi.yaml', { type: 'application/yaml', body: toYaml(crafted(cases[10]?.change as (document: any) => void), { aliasDuplicateObjects: false }) })
    const report = await diffAgainst({ document: `${origin}/vendor/openapi.yaml` })
    expect(report.other.document).toBe(`${origin}/vendor/openapi.yaml`)
    expect(report.differences).toHaveLength(1)
    expect(report.differences[0]).toMatchObject(cases[10]?.expected as object)
  })
})

describe('ivs-mock diff: a document that cannot be read exits 2 with one line', () => {
  it.each([
    ['a missing file', () => join(folder, 'missing.yaml'), (file: string) => `cannot read ${file}: no such file`],
    ['invalid YAML', () => textFile('broken.yaml', 'openapi: 3.1.0\ninfo: {title: x, version: "1"\npaths: {}\n'), (file: string) => `cannot read ${file}: not JSON or YAML: deficient indentation at line 3, column 1`],
    ['JSON that is not OpenAPI', () => textFile('hello.json', '{"hello": 1}'), (file: string) => `cannot read ${file}: not an OpenAPI 3.0 or 3.1 document (no "openapi" field)`],
    ['a Swagger 2.0 document', () => textFile('swagger.yaml', 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n'), (file: string) => `cannot read ${file}: it is Swagger 2.0; diff reads OpenAPI 3.0 and 3.1 (convert it first)`],
    [
      'a $ref that points nowhere',
      () => documentFile(crafted((document) => (document.components.schemas.client.properties.name = { $ref: '#/components/schemas/nobody' }))),
      (file: string) => `cannot read ${file}: $ref #/components/schemas/nobody at #/components/schemas/client/properties/name points nowhere`,
    ],
  ])('%s', async (_name, make, line) => {
    const file = make()
    const result = await run({ document: file })
    expect(result).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: ${line(file)}\n` })
  })

  it('with --validate, a document that breaks the OpenAPI schema (read and compared without it)', async () => {
    const file = documentFile(crafted((document) => delete document.info.version))
    expect(await run({ document: file, validate: true })).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: cannot read ${file}: not valid OpenAPI 3.1.0: REQUIRED must have required property 'version'\n` })
    expect((await run({ document: file })).code).toBe(0)
    expect((await run({ document: documentFile(served), validate: true })).code).toBe(0)
  })

  it('an unreachable URL, and one that answers 404', async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}/openapi.json`
    expect(await run({ document: unreachable })).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: cannot read ${unreachable}: ECONNREFUSED\n` })
    expect(await run({ document: `${origin}/nothing.json` })).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: cannot read ${origin}/nothing.json: HTTP 404\n` })
  })
})

describe('ivs-mock diff --accept', () => {
  // Two differences that break clients: a status only the other side answers, and the client's enum.
  const twoDifferences = () =>
    crafted((document) => {
      document.paths['/clients'].get.responses['418'] = { description: 'A teapot.' }
      document.components.schemas.client.properties.status.enum.push('archived')
    })
  const entries = {
    status: { operation: 'get /clients', where: 'response 418', reason: 'The vendor documents a teapot; the mock never brews.' },
    enum: { component: 'client', where: 'response $.status: enum', reason: 'The specification the mock follows lists three statuses.' },
    stale: { operation: 'DELETE /clients/{clientId}', where: 'operation', reason: 'Once missing from the vendor document.' },
  }

  it('hides exactly the differences it lists, says how many, and reports an entry that matches nothing as stale', async () => {
    const accept = textFile('accept-some.yaml', toYaml([entries.status, entries.stale]))
    const result = await run({ document: documentFile(twoDifferences()), accept })
    expect(result.stdout).toContain('\nDifferences: 1 breaks clients, 0 fidelity only, 1 accepted (--accept); 1 stale accepted entry\n')
    expect(result.stdout).toContain('\nBreaks clients (1):\n  ✗ component client: response $.status: enum\n')
    expect(result.stdout).not.toContain('response 418')
    expect(result.stdout).toContain('\nStale accepted entries (1): no such difference any more\n  - DELETE /clients/{clientId}: operation (Once missing from the vendor document.)\n')
    expect(result.code).toBe(1)
    const report = await diffAgainst({ document: documentFile(twoDifferences()), accept })
    expect(report.accepted).toEqual([expect.objectContaining({ operation: 'GET /clients', where: 'response 418', reason: entries.status.reason })])
    expect(report.stale).toEqual([entries.stale])
  })

  it('exits 0 when every difference is accepted, a stale entry reported; 1 with --fail-on-stale', async () => {
    const accept = textFile('accept-all.yaml', toYaml(Object.values(entries)))
    const document = documentFile(twoDifferences())
    const result = await run({ document, accept })
    expect(result.stdout).toContain('\nDifferences: 0 break clients, 0 fidelity only, 2 accepted (--accept); 1 stale accepted entry\n')
    expect(result.code).toBe(0)
    expect((await run({ document, accept, failOnStale: true })).code).toBe(1)
  })

  it('exits 2 naming the entry when the file is not a list of entries with a reason', async () => {
    const accept = textFile('accept-bad.yaml', toYaml([entries.status, { component: 'client', where: 'response $.status: enum' }]))
    expect(await run({ document: documentFile(served), accept })).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: --accept ${accept}: entry 2: has no reason: say why the difference is accepted\n` })
  })
})

describe('ivs-mock diff: the reports', () => {
  let written: { json: string; markdown: string; junit: string }

  beforeAll(async () => {
    written = { json: join(folder, 'reports', 'diff.json'), markdown: join(folder, 'reports', 'diff.md'), junit: join(folder, 'reports', 'diff.xml') }
    const document = crafted((document) => {
      delete document.paths['/clients/{id}'].delete
      document.paths['/clients/{id}/notes'] = { get: { operationId: 'notes.list', responses: { '200': { description: 'The notes.' } } } }
      document.components.schemas.client.properties.status.enum.push('archived')
    })
    const result = await run({ document: documentFile(document), ...written })
    expect(result.code).toBe(1)
  })

  it('JSON: the summary, every operation and every difference with the operations it reaches', () => {
    const report = JSON.parse(readFileSync(written.json, 'utf8'))
    expect(report.summary).toEqual({ inBoth: 98, onlyInMock: 1, onlyInOther: 1, breaking: 2, fidelity: 1, accepted: 0, stale: 0 })
    expect(report.operations).toHaveLength(100)
    expect(report.differences.map((difference: any) => [difference.classification, difference.operation ?? `component ${difference.component}`, difference.where])).toEqual([
      ['breaks clients', 'DELETE /clients/{id}', 'operation'],
      ['breaks clients', 'component client', 'response $.status: enum'],
      ['fidelity only', 'GET /clients/{id}/notes', 'operation'],
    ])
    expect(reached(report.differences[1])).toEqual(operationsAnswering(served, 'client').filter((operation) => operation !== 'DELETE /clients/{id}'))
  })

  it('Markdown: the summary, then a table of what breaks clients and one of what is fidelity only', () => {
    const markdown = readFileSync(written.markdown, 'utf8')
    expect(markdown).toContain("### ivs-mock diff: the mock's contracts against `")
    expect(markdown).toContain('\n**2 differences break clients**; 1 fidelity only. Operations: 98 in both, 1 only in the mock, 1 only in the other document (OpenAPI 3.1.0).\n')
    expect(markdown).toContain('\n#### Breaks clients\n\n| Where | Mock | Other | What it means |\n|---|---|---|---|\n| `DELETE /clients/{id}` `operation` | `served` | `absent` | the other side does not serve it: a request the mock answers fails there |\n')
    expect(markdown).toContain('| component `client` `response $.status: enum`<br><details><summary>in 36 operations</summary>`GET /cases`, ')
    expect(markdown).toContain('\n<details><summary>Fidelity only (1)</summary>\n\n| Where | Mock | Other | What it means |\n')
  })

  it('JUnit: parses, one test case per operation of either document, failed by the differences that break clients', () => {
    const xml = readFileSync(written.junit, 'utf8')
    expect(XMLValidator.validate(xml)).toBe(true)
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml).testsuites.testsuite
    expect(suite.name).toBe('ivs-mock diff')
    expect(suite.testcase).toHaveLength(100)
    const names = suite.testcase.map((testCase: any) => testCase.name)
    expect(new Set(names).size).toBe(100)
    const failed = suite.testcase.filter((testCase: any) => testCase.failure).map((testCase: any) => testCase.name.replace(/ \(.*\)$/, ''))
    expect(failed.sort()).toEqual([...operationsAnswering(served, 'client'), 'DELETE /clients/{id}'].filter((name, index, all) => all.indexOf(name) === index).sort())
    const notes = suite.testcase.find((testCase: any) => testCase.name === 'GET /clients/{id}/notes')
    expect(notes.failure).toBeUndefined()
    expect(notes['system-out']).toContain('fidelity only: GET /clients/{id}/notes: operation')
  })
})
