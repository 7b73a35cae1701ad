// `ivs-mock diff` as users run it, twice: the wiring of the command, its output and its exit statuses.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedDocument } from '../../src/harness/diff/documents.ts'
import { childrenKilledAfterEach, IVS_MOCK_BIN, runToExit } from '../support/process.ts'

const LIMIT_MS = 60_000
const running = childrenKilledAfterEach()
const diff = (args: string[]) => runToExit(IVS_MOCK_BIN, ['diff', ...args], { limitMs: LIMIT_MS, started: (child) => running.add(child) })

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ivs-diff-cli-'))
})
afterAll(() => rm(folder, { recursive: true, force: true }))

describe('ivs-mock diff', () => {
  it('exits 1 when a difference breaks clients, printing it and writing the JUnit report', async () => {
    const document: any = servedDocument()
    document.paths['/clients'].get.responses['418'] = { description: 'A teapot.' }
    const file = join(folder, 'vendor.json')
    await writeFile(file, JSON.stringify(document))
    const result = await diff([file, '--junit', join(folder, 'diff.xml')])
    expect(result.stderr).toBe('')
    expect(result.stdout).toContain('\nDifferences: 1 breaks clients, 0 fidelity only\n')
    expect(result.stdout).toContain('\nBreaks clients (1):\n  ✗ GET /clients: response 418\n      mock:  absent\n      other: documented\n      the other side may answer this status; the mock never does\n')
    expect(result.code).toBe(1)
    expect(await readFile(join(folder, 'diff.xml'), 'utf8')).toMatch(/<testsuite name="ivs-mock diff" time="[\d.]+" tests="99" failures="1" errors="0" skipped="0">/)
  })

  it('exits 2 with one line when the document cannot be read', async () => {
    const missing = join(folder, 'missing.yaml')
    expect(await diff([missing])).toEqual({ code: 2, stdout: '', stderr: `ivs-mock diff: cannot read ${missing}: no such file\n` })
  })
})
