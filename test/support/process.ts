// A CLI run to completion as a real child process, for the tests of bin/ivs-mock.js.
import { spawn, type ChildProcess } from 'node:child_process'

export interface Finished {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `node <script> ...args` until it exits, collecting its output; killed and rejected after
 * `limitMs`. `started` sees the child at once (to kill it when a test ends early).
 */
export function runToExit(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; limitMs: number; started?: (child: ChildProcess) => void },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: options.env ?? process.env })
    options.started?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} ${args.join(' ')} did not exit within ${options.limitMs} ms: ${stderr}`))
    }, options.limitMs)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
