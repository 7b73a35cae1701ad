// CLI runs to completion as real child processes, for the tests of bin/ivs-mock.js and the package.
import { spawn, type ChildProcess } from 'node:child_process'

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
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
