// A mock without --data keeps uploads in a temporary folder of its own: it goes when the process
// ends, whether the process exits or is stopped by a signal (a test runner stops its workers with
// SIGTERM, where Node emits no 'exit').
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const BLOBS = fileURLToPath(new URL('../../src/store/blobs.ts', import.meta.url))
const SAMPLES = fileURLToPath(new URL('../../fixtures/samples', import.meta.url))

/**
 * Stores one upload in a BlobStore of its own, prints the folder and whether it exists (looked at
 * by the script itself: a script that exits may have removed it before the test reads the line),
 * then exits, waits, or waits with a SIGTERM handler of its own, added before the first upload,
 * that stops a moment later, as `ivs-mock serve` does.
 */
const script = (then: 'wait' | 'exit' | 'own handler') => `
import { existsSync } from 'node:fs'
import { BlobStore } from ${JSON.stringify(BLOBS)}
const blobs = new BlobStore({ samplesDir: ${JSON.stringify(SAMPLES)} })
${then === 'own handler' ? "process.once('SIGTERM', () => setTimeout(() => process.exit(0), 100))" : ''}
blobs.write('upload.txt', new TextEncoder().encode('bytes'))
console.log(JSON.stringify({ folder: blobs.uploadsDir(), existed: existsSync(blobs.uploadsDir()) }))
${then === 'exit' ? '' : 'setInterval(() => {}, 1000)'}
`

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ivs-blobs-test-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

/** Runs the script with its temporary folder under `tmp`; `stop` is sent once the folder is printed. */
function run(then: 'wait' | 'exit' | 'own handler', stop?: NodeJS.Signals): Promise<{ folder: string; existed: boolean; code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(then)], { env: { ...process.env, TMPDIR: tmp } })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error('the script did not end within 15 s'))
    }, 15_000)
    let output = ''
    let stopSent = false
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (!output.includes('\n') || stopSent) return
      stopSent = true
      if (stop) child.kill(stop)
    })
    // 'close', not 'exit': the output may still be arriving when the process has exited.
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      try {
        const printed = JSON.parse(output) as { folder: string; existed: boolean }
        resolve({ ...printed, code, signal })
      } catch {
        reject(new Error(`the script printed no folder (code ${code}, signal ${signal}): ${output}`))
      }
    })
  })
}

describe('the temporary uploads folder', () => {
  it('is removed when the process exits', async () => {
    const ended = await run('exit')
    expect(ended).toMatchObject({ existed: true, code: 0 })
    expect(ended.folder.startsWith(join(tmp, 'ivs-mock-files-'))).toBe(true)
    expect(readdirSync(tmp)).not.toContain(ended.folder.slice(tmp.length + 1))
    expect(existsSync(ended.folder)).toBe(false)
  })

  it.each(['SIGTERM', 'SIGINT'] as const)('is removed when the process is stopped by %s, which still ends it', async (signal) => {
    const ended = await run('wait', signal)
    expect(ended).toMatchObject({ existed: true, code: null, signal })
    expect(existsSync(ended.folder)).toBe(false)
  })

  it('is removed when a process that handles SIGTERM itself stops as it chose to', async () => {
    const ended = await run('own handler', 'SIGTERM')
    expect(ended).toMatchObject({ existed: true, code: 0, signal: null })
    expect(existsSync(ended.folder)).toBe(false)
  })
})
