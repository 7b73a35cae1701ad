// Scenario files that break the format are refused before anything runs, each problem named by
// file and dot path.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { displayPath, loadScenarios, ScenarioFormatError } from '../../src/harness/scenarios.ts'
import { contracts } from '../support/contracts.ts'
import { FIXTURES } from './support.ts'

const folders: string[] = []
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })))
})

/** The problems of loading some scenario files written to a fresh folder. */
async function problemsOf(files: Record<string, string>): Promise<{ folder: string; problems: string[] }> {
  const folder = await mkdtemp(join(tmpdir(), 'ivs-scenarios-'))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text)
  try {
    loadScenarios([folder], contracts)
  } catch (error) {
    if (error instanceof ScenarioFormatError) return { folder, problems: error.problems }
    throw error
  }
  throw new Error('the files loaded')
}

const minimal = (name: string, step: string) => `name: ${name}\ndescription: d\nsteps:\n  - ${step}\n`

describe('scenario format errors', () => {
  it('names the file and the dot path of every problem, one per step', () => {
    const file = relative(process.cwd(), `${FIXTURES}broken/bad-format.yaml`)
    let caught: unknown
    try {
      loadScenarios([`${FIXTURES}broken`], contracts)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ScenarioFormatError)
    expect((caught as ScenarioFormatError).problems).toEqual([
      `${file}: (file): unknown key "colour"`,
      `${file}: steps.0.expect.status: must be integer or array`,
      `${file}: steps.1.expect.body.data: unknown key "lenght"`,
      `${file}: steps.2: unknown key "as"`,
      `${file}: steps.3: a step needs operation, method + path, control or receive`,
    ])
    expect((caught as Error).message).toContain(`5 problems in scenario files not valid:\n  ${file}: (file): unknown key "colour"`)
  })

  it('names YAML syntax errors by line, unknown operations, duplicate step names and duplicate scenario names', async () => {
    const { folder, problems } = await problemsOf({
      'a.yaml': 'name: A\ndescription: d\nsteps:\n  - name: x\n    operation: clients.create\n   body: {}\n',
      'b.yaml': minimal('B', 'name: x\n    operation: clients.frobnicate'),
      'c.yaml': `${minimal('C', 'name: x\n    operation: clients.list')}  - name: x\n    control: clients.list\n`,
      'd.json': JSON.stringify({ name: 'D', description: 'd', steps: [{ name: 'x', method: 'GET', path: '/status' }] }),
      'f.yaml': minimal('D', 'name: x\n    operation: status.get'),
      'e.yaml': minimal('E', 'name: x\n    receive: { event: client.created }\n    expect: { status: 200 }'),
    })
    const file = (name: string) => displayPath(join(folder, name))
    expect(problems).toEqual([
      `${file('a.yaml')}: line 6, column 1: Sequence item without - indicator`,
      `${file('b.yaml')}: steps.0.operation: no API operation clients.frobnicate in contracts/operations`,
      `${file('c.yaml')}: steps.1.control: must match ^control(\\.[a-z][A-Za-z]*)+$`,
      `${file('e.yaml')}: steps.0.expect: unknown key "status"`,
      `${file('f.yaml')}: name: "D" is also the name of ${file('d.json')}`,
    ])
  })

  it('refuses a scenario with mutates: false that sends a write its step does not mark safe, or a control write, and a refusal marked safe without a 4xx', async () => {
    const { folder, problems } = await problemsOf({
      'a.yaml': `name: A\ndescription: d\nmutates: false\nsteps:\n  - name: x\n    operation: attachments.delete\n    params: { id: 1 }\n    expect: { status: 404 }\n  - name: y\n    control: control.clock.advance\n    body: { minutes: 1 }\n`,
      'b.yaml': minimal('B', 'name: x\n    method: DELETE\n    path: /webhooks/1\n    safe: refused\n    expect: { status: [204, 404] }'),
      'c.yaml': `name: C\ndescription: d\nmutates: false\nsteps:\n  - name: x\n    operation: attachments.delete\n    as: read-only\n    safe: refused\n    params: { id: 1 }\n    expect: { status: 404 }\n  - name: y\n    control: control.clock.get\n`,
    })
    const file = (name: string) => displayPath(join(folder, name))
    expect(problems).toEqual([
      `${file('a.yaml')}: steps.0: mutates: false, but attachments.delete (DELETE) is a write the step does not mark safe: mark it safe: refused if the API refuses it before any change and the step checks that refusal, safe: computes if the operation only works out an answer, or drop mutates: false`,
      `${file('a.yaml')}: steps.1: mutates: false, but control.clock.advance is a POST to the mock's control API (/_mock): drop mutates: false`,
      `${file('b.yaml')}: steps.0.safe: refused needs expect.status with only 4xx statuses (the refusal the step checks)`,
    ])
  })

  it('refuses a folder without scenario files and a path that does not exist', async () => {
    const { folder, problems } = await problemsOf({ 'notes.txt': 'not a scenario' })
    expect(problems).toEqual([`${folder}: no scenario files (.yaml, .yml, .json)`])
    expect(() => loadScenarios([join(folder, 'missing')], contracts)).toThrow(`${join(folder, 'missing')}: no such file or folder`)
  })

  it('loads the example scenarios', () => {
    const scenarios = loadScenarios([`${FIXTURES}suite`], contracts)
    expect(scenarios.map((scenario) => scenario.file)).toEqual(
      ['clients.yaml', 'clock.yaml', 'read-only.yaml', 'webhook.yaml'].map((name) => relative(process.cwd(), `${FIXTURES}suite/${name}`)),
    )
  })
})
