// CLI runs to completion as real child processes, for the tests of bin/ivs-mock.js and the package.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach } from 'vitest'

/** The command line users run (bin/ivs-mock.js). */
export const IVS_MOCK_BIN = fileURLToPath(new URL('../../bin/ivs-mock.js', import.meta.url))

/** The environment without the mock's own variables (PORT, IVS_*), plus `extra`: a test's mock sees only what the test sets. */
export function mockEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'PORT' && !name.startsWith('IVS_')))
  return { ...clean, ...extra }
}

/** The children a test file starts, killed after each test (call it at the file's top level; add each child). */
export function childrenKilledAfterEach(): Set<ChildProcess> {
  const running = new Set<ChildProcess>()
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL')
    running.clear()
  })
  return running
}

export interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  limitMs: number
  /** Sees the child at once (to kill it when a test ends early). */
  started?: (child: ChildProcess) => void
}

/** Runs `node <script> ...args` until it exits, collecting its output; killed and rejected after `limitMs`. */
export function runToExit(script: string, args: string[], options: RunOptions): Promise<Finished> {
  return runCommand(process.execPath, [script, ...args], options)
}

/** Runs a program (npm, npx) until it exits, collecting its output; killed and rejected after `limitMs`. */
export function runCommand(command: string, args: string[], options: RunOptions): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, ...(options.cwd !== undefined && { cwd: options.cwd }) })
    options.started?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} did not exit within ${options.limitMs} ms: ${stderr}`))
    }, options.limitMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    // 'close', not 'exit': the last output may still be arriving when the process has exited.
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export interface RunningServe {
  child: ChildProcess
  /** http://127.0.0.1:<port> */
  origin: string
  port: number
  /** Everything it wrote to stderr so far. */
  readonly stderr: string
}

/**
 * Starts `node <script> serve ...args` on a free port of 127.0.0.1 and waits for its start-up lines
 * (rejected after `limitMs`). `started` sees the child at once, to kill it when the test ends.
 */
export function startServe(script: string, args: string[], options: { env?: NodeJS.ProcessEnv; limitMs: number; started?: (child: ChildProcess) => void }): Promise<RunningServe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, 'serve', '--port', '0', ...args], { env: options.env ?? process.env })
    options.started?.(child)
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the mock did not start within ${options.limitMs} ms: ${stdout}${stderr}`))
    }, options.limitMs)
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v2/.exec(stdout)
      if (!match || !stdout.includes('Try')) return
      clearTimeout(timer)
      const origin = match[1] as string
      resolve({
        child,
        origin,
        port: Number(new URL(origin).port),
        get stderr() {
          return stderr
        },
      })
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the mock exited with ${String(code)} before starting: ${stdout}${stderr}`))
    })
  })
}
