// serve --latency (IVS_LATENCY): every /api/v2 answer held a while in real time. Bad values exit 2
// with the reason; a running mock answers no sooner than the latency (asserted only as "at least").
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { childrenKilledAfterEach, IVS_MOCK_BIN as BIN, mockEnv, runToExit } from '../support/process.ts'

const LIMIT_MS = 15_000

const running = childrenKilledAfterEach()

/** Starts `ivs-mock serve --port 0` with the arguments, resolving with its origin once it listens. */
function start(args: string[], extra: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: mockEnv(extra) })
    running.add(child)
    let output = ''
    const timer = setTimeout(() => reject(new Error(`the mock did not start within ${LIMIT_MS} ms: ${output}`)), LIMIT_MS)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const origin = /listening on (http:\/\/[^/\s]+)\/api\/v2/.exec(output)?.[1]
      if (origin) {
        clearTimeout(timer)
        resolve(origin)
      }
    })
    child.on('exit', (code) => reject(new Error(`the mock exited with ${String(code)}: ${output}`)))
  })
}

const MESSAGE = 'expected milliseconds from 0 to 600000, or a range min-max with min <= max, e.g. 250 or 100-500.'

describe('serve --latency', () => {
  it.each([
    [['--latency', 'slow'], {}],
    [['--latency', '500-100'], {}],
    [['--latency', '600001'], {}],
    [[], { IVS_LATENCY: '10-' }],
  ])('%j %j exits 2 with the reason on one line', async (args, extra) => {
    const { code, stderr, stdout } = await runToExit(BIN, ['serve', '--port', '0', ...args], { env: mockEnv(extra), limitMs: LIMIT_MS, started: (child) => running.add(child) })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const reason = stderr.split('\n').filter((line) => line.includes(MESSAGE))
    expect(reason).toHaveLength(1)
    expect(reason[0]).toContain('--latency')
  })

  it('holds every API answer at least the latency, a fixed one or one drawn from a range (IVS_LATENCY)', async () => {
    for (const [args, extra, atLeast] of [
      [['--latency', '300'], {}, 300],
      [[], { IVS_LATENCY: '200-250' }, 200],
    ] as const) {
      const origin = await start([...args], extra)
      for (const path of ['/api/v2/clients/1', '/api/v2/no-such-route']) {
        const started = performance.now()
        const res = await fetch(`${origin}${path}`, { headers: { Authorization: 'Bearer ivs_acme_owner' }, signal: AbortSignal.timeout(10_000) })
        await res.arrayBuffer()
        expect(performance.now() - started, `${path} with ${JSON.stringify(args)} ${JSON.stringify(extra)}`).toBeGreaterThanOrEqual(atLeast)
      }
    }
  })
})
