// The load generator of npm run bench: wrk where it is installed (Debian's `apt-get install wrk`),
// which in one thread on one core saturates a bare Hono server that answers 50,000 requests a
// second; autocannon otherwise, which on one core cannot (it runs in Node, beside the bench), so
// its ratios are never trusted. Each run reads the CPU time of the server it loads and of the
// generator from /proc: a ratio to a server that was not kept busy measures the generator.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

export interface LoadRequest {
  url: string
  headers: Record<string, string>
  method?: 'GET' | 'POST'
  body?: string
}

export interface LoadResult {
  requests: number
  requestsPerSecond: number
  /** Latency percentiles in milliseconds. */
  p50: number
  p99: number
  /** Answers other than 2xx or 3xx, and socket errors. */
  failures: number
  /** The loaded server's CPU time over the run's wall time (1: one core busy throughout), when its pid was given. */
  serverCpu: number | undefined
  /** The generator's CPU time over the run's wall time. */
  generatorCpu: number
}

export interface Generator {
  /** What the report names: `wrk 4.1.0 (1 thread)` or `autocannon 9 (in the bench's process)`. */
  name: string
  /** Whether it can saturate the bare server: only then are ratios between servers worth printing. */
  trusted: boolean
  run(request: LoadRequest, options: { connections: number; seconds: number; serverPid?: number | undefined }): Promise<LoadResult>
}

/**
 * The share of a core a server (or a process measured in process) must have had for its figures to
 * count: below it, the generator or other work on the machine set the pace.
 */
export const SATURATED = 0.9

export const percent = (share: number) => `${(share * 100).toFixed(0)} %`

/** The middle item by `value` (of an even count, the upper of the two middle ones). */
export const medianBy = <T>(items: readonly T[], value: (item: T) => number): T => [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)] as T
export const median = (values: number[]) => medianBy(values, (value) => value)

/** Clock ticks per second of /proc's CPU times. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** A process's user and system CPU time so far in seconds, its own (all threads) and that of its children it has waited for. */
export function cpuSeconds(pid: number | 'self'): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The fields after the command's name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number)
  // utime, stime, cutime and cstime are the 14th to 17th fields; the 3rd is fields[0] here.
  const at = (field: number) => fields[field - 3] as number
  return { own: (at(14) + at(15)) / TICKS, children: (at(16) + at(17)) / TICKS }
}

/** A process's resident memory in MiB (VmRSS). */
export function rssMegabytes(pid: number | undefined): number {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

/** A string as Lua source: printable ASCII as it is, everything else byte by byte as \ddd. */
function luaString(text: string): string {
  let out = '"'
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${byte}`
  }
  return `${out}"`
}

/** The wrk script: the request, and a JSON line of the summary when done. */
function wrkScript(request: LoadRequest): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
  return [
    `wrk.method = ${luaString(request.method ?? 'GET')}`,
    ...(request.body === undefined ? [] : [`wrk.body = ${luaString(request.body)}`]),
    ...headers,
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'{"requests":%d,"us":%d,"failures":%d,"p50":%d,"p99":%d}\\n\',',
    '    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,',
    '    latency:percentile(50), latency:percentile(99)))',
    'end',
  ].join('\n')
}

/** wrk's version line, or undefined when it is not installed. */
function wrkVersion(): string | undefined {
  try {
    // wrk prints its usage (with the version) and exits with 1 when asked for it.
    execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    const output = `${stdout ?? ''}${stderr ?? ''}`
    const match = /^wrk (\S+)/m.exec(output)
    if (match) return match[1]
  }
  return undefined
}

function wrk(version: string): Generator {
  return {
    name: `wrk ${version} (1 thread)`,
    trusted: true,
    run: (request, { connections, seconds, serverPid }) =>
      new Promise((resolve, reject) => {
        const folder = mkdtempSync(join(tmpdir(), 'ivs-bench-wrk-'))
        const script = join(folder, 'request.lua')
        writeFileSync(script, wrkScript(request))
        const serverBefore = serverPid === undefined ? undefined : cpuSeconds(serverPid).own
        const generatorBefore = cpuSeconds('self').children
        const began = performance.now()
        // A request unanswered after 10 s counts as failed (autocannon's default; wrk's own is 2 s, which the scale team's slowest list can take under load).
        const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, request.url], { stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        let errors = ''
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
        // The server's time is read when wrk stops sending, before the exit is seen (the server is idle by then either way).
        child.on('exit', (code) => {
          const wall = (performance.now() - began) / 1000
          const serverCpu = serverPid === undefined || serverBefore === undefined ? undefined : (cpuSeconds(serverPid).own - serverBefore) / wall
          rmSync(folder, { recursive: true, force: true })
          const line = output.split('\n').find((text) => text.startsWith('{"requests"'))
          if (code !== 0 || !line) return reject(new Error(`wrk exited with ${String(code)}: ${errors || output}`))
          const summary = JSON.parse(line) as { requests: number; us: number; failures: number; p50: number; p99: number }
          resolve({
            requests: summary.requests,
            requestsPerSecond: summary.requests / (summary.us / 1e6),
            p50: summary.p50 / 1000,
            p99: summary.p99 / 1000,
            failures: summary.failures,
            serverCpu,
            generatorCpu: (cpuSeconds('self').children - generatorBefore) / wall,
          })
        })
      }),
  }
}

const autocannonGenerator: Generator = {
  name: 'autocannon (in the bench process: it cannot saturate the bare server, so no ratio is trusted; apt-get install wrk)',
  trusted: false,
  async run(request, { connections, seconds, serverPid }) {
    const serverBefore = serverPid === undefined ? undefined : cpuSeconds(serverPid).own
    const generatorBefore = cpuSeconds('self').own
    const began = performance.now()
    const result = await autocannon({ url: request.url, headers: request.headers, method: request.method ?? 'GET', body: request.body, connections, duration: seconds })
    const wall = (performance.now() - began) / 1000
    return {
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors,
      serverCpu: serverPid === undefined || serverBefore === undefined ? undefined : (cpuSeconds(serverPid).own - serverBefore) / wall,
      generatorCpu: (cpuSeconds('self').own - generatorBefore) / wall,
    }
  },
}

/** wrk when installed, else autocannon (whose ratios the bench does not print). */
export function loadGenerator(): Generator {
  const version = wrkVersion()
  return version === undefined ? autocannonGenerator : wrk(version)
}
