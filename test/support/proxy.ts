// The validating proxy and the mock as child processes (bin/ivs-mock.js) on 127.0.0.1 with a free
// port, stopped with SIGTERM (which writes the proxy's reports); requests over a real socket.
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { IVS_MOCK_BIN as BIN, childrenKilledAfterEach } from './process.ts'

export const MB = 1024 * 1024

export interface Started {
  child: ChildProcess
  origin: string
  /** Everything it printed so far, stdout and stderr. */
  output: () => string
}

/**
 * Starts and stops `ivs-mock serve` and `ivs-mock proxy` for a test file, with upstreams of the
 * test's own and temporary folders for the reports; after each test, the children still running
 * are killed, the upstreams closed and the folders removed (call it at the file's top level).
 */
export function proxyProcesses() {
  const running = childrenKilledAfterEach()
  const servers: Server[] = []
  const folders: string[] = []
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      server.close()
    }
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  })

  /** Starts `ivs-mock <args>` and resolves with the origin it prints once `ready` matches its output. */
  const start = (args: string[], ready: RegExp): Promise<Started> => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let output = ''
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within 30 s: ${output}`)), 30_000)
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = ready.exec(output)
        if (match) {
          clearTimeout(timer)
          resolve({ child, origin: match[1] as string, output: () => output })
        }
      })
      child.on('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`exited with ${code}: ${output}`))
      })
    })
  }

  /** Sends SIGTERM and waits for the exit code. */
  const stop = (child: ChildProcess): Promise<number | null> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('did not exit within 20 s of SIGTERM')), 20_000)
      // 'close', not 'exit': the tests read what it printed last (its summary) once this resolves.
      child.once('close', (code) => {
        clearTimeout(timer)
        running.delete(child)
        resolve(code)
      })
      child.kill('SIGTERM')
    })

  return {
    running,
    stop,
    /** An upstream on 127.0.0.1 that answers with `handle`; resolves with its origin. */
    upstream: async (handle: Parameters<typeof createServer>[1]): Promise<string> => {
      const server = createServer(handle)
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    tempFolder: (): string => {
      const folder = mkdtempSync(join(tmpdir(), 'ivs-proxy-'))
      folders.push(folder)
      return folder
    },
    startMock: () => start(['serve', '--port', '0', '--scan-delay', '0'], /listening on (http:\/\/[^/\s]+)\/api\/v2[\s\S]*Try/),
    startProxy: (upstream: string, ...args: string[]) => start(['proxy', '--upstream', upstream, '--port', '0', ...args], /listening on (http:\/\/\S+) ->/),
  }
}

export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  /** The body's bytes when kept (small bodies), and always its SHA-256 and size. */
  text: string
  sha256: string
  size: number
}

/** One request over a real socket; the body may be generated chunk by chunk (with backpressure). The answer is hashed as it streams. */
export function send(origin: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Uint8Array | Iterable<Uint8Array> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers: options.headers }, (res) => {
      const hash = createHash('sha256')
      const kept: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk)
        size += chunk.length
        if (size <= MB) kept.push(chunk)
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(kept).toString('utf8'), sha256: hash.digest('hex'), size }))
      res.on('error', reject)
    })
    req.on('error', reject)
    const body = options.body
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      req.end(body)
      return
    }
    const chunks = body[Symbol.iterator]()
    const pump = () => {
      for (;;) {
        const next = chunks.next()
        if (next.done) {
          req.end()
          return
        }
        if (!req.write(next.value)) {
          req.once('drain', pump)
          return
        }
      }
    }
    pump()
  })
}

/** Writes `bytes` as they are on a new connection to 127.0.0.1:`port` and reads until the server closes it. */
export function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no end of the answer within 10 s: ${JSON.stringify(answer)}`)))
  })
}
