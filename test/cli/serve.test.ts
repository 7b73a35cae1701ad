// The CLI as users run it: a real process, real flags and environment, a real socket on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { childrenKilledAfterEach, IVS_MOCK_BIN as BIN, mockEnv, runToExit, type Finished } from '../support/process.ts'

const STARTUP_LIMIT_MS = 15_000

const running = childrenKilledAfterEach()

/** Runs the CLI to completion (for commands that exit by themselves). */
function run(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return runToExit(BIN, args, { env: mockEnv(env), limitMs: STARTUP_LIMIT_MS, started: (child) => running.add(child) })
}

interface Server {
  child: ChildProcess
  origin: string
  output: string
  stop(): Promise<number | null>
}

/** Starts `ivs-mock serve` and waits for its start-up lines. */
function start(args: string[], env: Record<string, string> = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: mockEnv(env) })
    running.add(child)
    let output = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the mock did not start within ${STARTUP_LIMIT_MS} ms: ${output}`))
    }, STARTUP_LIMIT_MS)
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^/\s]+)\/api\/v2/.exec(output)
      if (match && output.includes('Try')) {
        clearTimeout(timer)
        resolve({
          child,
          origin: match[1] as string,
          output,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => {
                running.delete(child)
                done(code)
              })
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the mock exited with ${String(code)} before starting: ${output}`))
    })
  })
}

const auth = { Authorization: 'Bearer ivs_acme_owner' }

describe('ivs-mock serve', () => {
  it('starts on 127.0.0.1, prints the base URL, the tokens and a curl to try, and serves the API', async () => {
    const server = await start(['--port', '0'])
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.output).toContain(`listening on ${server.origin}/api/v2`)
    expect(server.output).toContain('ivs_acme_owner (owner)')
    expect(server.output).toContain('ivs_initech_owner (owner)')
    expect(server.output).toContain('401 on purpose: ivs_left, ivs_revoked, ivs_expired')
    expect(server.output).toContain(`Control  ${server.origin}/_mock (fresh teams: POST /_mock/teams; ${server.origin}/_mock/openapi.json)`)
    expect(server.output).toContain(`curl -H "Authorization: Bearer ivs_acme_owner" "${server.origin}/api/v2/clients?limit=2"`)
    expect(server.output).toContain(
      `OAuth    ${server.origin}/oauth/authorize and /oauth/token; client Acme ATS integration: id 9d3c8b1e-5a7f-4e2b-8c6d-1f0a2b3c4d5e, secret ats-demo-secret-2b9f6a41c7d3e8f05a1b2c3d`,
    )

    const res = await fetch(`${server.origin}/api/v2/clients?limit=2`, { headers: auth })
    const body: any = await res.json()
    expect(res.status).toBe(200)
    expect({ status: res.status, body }).toMatchContract('clients.list')
    expect(body.total).toBe(50)
    expect(res.headers.get('x-ratelimit-limit')).toBe('200')
    expect(await server.stop()).toBe(0)
  })

  it('serves without the control API with --no-control (or IVS_NO_CONTROL), as a real deployment does', async () => {
    for (const [args, env] of [[['--no-control'], {}], [[], { IVS_NO_CONTROL: 'true' }]] as const) {
      const server = await start(['--port', '0', ...args], env)
      expect(server.output).toContain('Control  off (--no-control): /_mock answers 404, as on a real deployment')
      for (const path of ['/_mock/clock', '/_mock/openapi.json', '/_mock/teams']) {
        const res = await fetch(`${server.origin}${path}`)
        expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status: 404, body: { error: 'Not Found.' } })
      }
      const res = await fetch(`${server.origin}/api/v2/clients?limit=1`, { headers: auth })
      expect(res.status).toBe(200)
      expect(await server.stop()).toBe(0)
    }
    const kept = await start(['--port', '0', '--no-control', 'false'])
    expect((await fetch(`${kept.origin}/_mock/clock`)).status).toBe(200)
    await kept.stop()
  })

  it('takes the port from PORT and options from their environment variables', async () => {
    const port = await freePort()
    const server = await start([], { PORT: String(port), IVS_RATE_LIMIT: '7' })
    expect(server.origin).toBe(`http://127.0.0.1:${port}`)
    const res = await fetch(`${server.origin}/api/v2/status`, { headers: auth })
    expect(res.status).toBe(204)
    expect(res.headers.get('x-ratelimit-limit')).toBe('7')
    await server.stop()
  })

  it('starts the clock where --clock says', async () => {
    const server = await start(['--port', '0', '--clock', '2030-01-02T03:04:05Z'])
    const res = await fetch(`${server.origin}/api/v2/clients`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: { first_name: 'Clock', last_name: 'Test' }, email: 'clock@example.com' }),
    })
    const body: any = await res.json()
    expect(res.status).toBe(201)
    expect(body.created_at.slice(0, 15)).toBe('2030-01-02T03:0')
    await server.stop()
  })

  it('keeps the clock still from its start with --freeze-clock (or IVS_FREEZE_CLOCK), until advanced', async () => {
    const server = await start(['--port', '0', '--clock', '2030-01-02T03:04:05Z', '--freeze-clock'])
    expect(server.output).toContain('Clock    2030-01-02T03:04:05Z, frozen (POST /_mock/clock/advance moves it)')
    const clock = async () => ((await (await fetch(`${server.origin}/_mock/clock`)).json()) as { now: string; frozen: boolean })
    expect(await clock()).toMatchObject({ now: '2030-01-02T03:04:05Z', frozen: true })
    await fetch(`${server.origin}/_mock/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"seconds": 3600}' })
    expect(await clock()).toMatchObject({ now: '2030-01-02T04:04:05Z', frozen: true })
    await server.stop()

    const fromEnv = await start(['--port', '0'], { IVS_FREEZE_CLOCK: 'true', IVS_CLOCK: '2031-01-01' })
    expect(await (await fetch(`${fromEnv.origin}/_mock/clock`)).json()).toMatchObject({ now: '2031-01-01T00:00:00Z', frozen: true })
    await fromEnv.stop()
  })

  it('keeps state across restarts with --data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const file = join(dir, 'state.json')
      const first = await start(['--port', '0', '--data', file])
      expect(first.output).toContain(`${file} (seeded)`)
      const created = await fetch(`${first.origin}/api/v2/clients`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: { first_name: 'Persisted', last_name: 'Person' }, email: 'persisted@example.com' }),
      })
      const client: any = await created.json()
      expect(await first.stop()).toBe(0)

      const second = await start(['--port', '0', '--data', file])
      expect(second.output).toContain(`${file} (loaded)`)
      const res = await fetch(`${second.origin}/api/v2/clients/${String(client.id)}`, { headers: auth })
      expect(res.status).toBe(200)
      expect(((await res.json()) as any).name.full_name).toBe('Persisted Person')
      await second.stop()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('makes the folders of a --data file that do not exist yet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const file = join(dir, 'not', 'yet', 'state.json')
      const server = await start(['--port', '0', '--data', file])
      expect(server.output).toContain(`${file} (seeded)`)
      expect(await server.stop()).toBe(0)
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ seed: 20260601 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

/** Kills a server with SIGKILL, as a crash would, and waits until it is gone. */
function killHard(server: Server): Promise<void> {
  return new Promise((done) => {
    server.child.once('exit', () => {
      running.delete(server.child)
      done()
    })
    server.child.kill('SIGKILL')
  })
}

describe('ivs-mock serve --data and kill -9', () => {
  let dir: string
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('loses no acknowledged create when killed in the middle of a burst', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ivs-mock-kill-'))
    const file = join(dir, 'state.json')
    const server = await start(['--port', '0', '--data', file, '--rate-limit', '1000000'])
    const TOTAL = 400
    const AT_ONCE = 16
    const KILL_AFTER = 150
    const acknowledged: number[] = []
    let sent = 0
    let killing: Promise<void> | undefined
    const sender = async () => {
      while (sent < TOTAL && !killing) {
        const n = sent++
        try {
          const res = await fetch(`${server.origin}/api/v2/clients`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: { first_name: `Burst${n}`, last_name: 'Client' }, email: `burst${n}@example.com` }),
            signal: AbortSignal.timeout(10_000),
          })
          if (res.status !== 201) continue
          acknowledged.push(((await res.json()) as { id: number }).id)
          if (acknowledged.length === KILL_AFTER) killing = killHard(server)
        } catch {
          // Cut off by the kill: never acknowledged.
        }
      }
    }
    await Promise.all(Array.from({ length: AT_ONCE }, sender))
    await killing
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER)

    const restarted = await start(['--port', '0', '--data', file])
    expect(restarted.output).toContain(`${file} (loaded)`)
    const missing: number[] = []
    for (const id of acknowledged) {
      const res = await fetch(`${restarted.origin}/api/v2/clients/${id}`, { headers: auth })
      if (res.status !== 200) missing.push(id)
    }
    expect(missing).toEqual([])
    expect(await restarted.stop()).toBe(0)
  }, 60_000)

  it('removes at the next start an upload that kill -9 cut short', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ivs-mock-kill-'))
    const file = join(dir, 'state.json')
    const uploads = join(dir, 'state.files')
    const server = await start(['--port', '0', '--data', file])
    // An upload that is still arriving: its first 256 KB are on disk, the rest never comes.
    const upload = request(`${server.origin}/api/v2/attachments`, { method: 'POST', headers: { ...auth, 'Content-Type': 'multipart/form-data; boundary=cut' } })
    upload.on('error', () => undefined)
    upload.write('--cut\r\nContent-Disposition: form-data; name="attachment"; filename="half.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n')
    upload.write(Buffer.alloc(256 * 1024, 0x20))
    const partials = async () => (await readdir(uploads).catch(() => [] as string[])).filter((name) => name.endsWith('.part'))
    for (let i = 0; i < 100 && (await partials()).length === 0; i++) await sleep(50)
    await killHard(server)
    expect(await partials()).toHaveLength(1)

    const restarted = await start(['--port', '0', '--data', file])
    expect(await partials()).toEqual([])
    expect(await restarted.stop()).toBe(0)
  }, 60_000)
})

describe('ivs-mock command line errors', () => {
  it('prints help with every option and its environment variable, and exits 0', async () => {
    const { code, stdout } = await run(['serve', '--help'])
    expect(code).toBe(0)
    const help = stdout.replace(/\s+/g, ' ')
    for (const text of ['--port', 'env: PORT', '--host', 'env: IVS_HOST', '--seed', '--data', '--record-expiry-days', '--rate-limit', '--rate-limit-window', '--clock', '--freeze-clock', 'env: IVS_FREEZE_CLOCK', '--cors']) {
      expect(help).toContain(text)
    }
  })

  it('lists every command in the help, says a bare ivs-mock serves, and gives a command\'s help with help <command>', async () => {
    const { code, stdout } = await run(['--help'])
    expect(code).toBe(0)
    const commands = [...stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1])
    expect(commands).toEqual(['serve', 'verify', 'proxy', 'diff', 'pact', 'help'])
    expect(stdout).toMatch(/^ {2}serve \[options\] +start the mock server \(the default command\)$/m)
    expect(stdout).toContain('A bare ivs-mock serves: `ivs-mock --port 4011` is `ivs-mock serve --port 4011`.')
    expect(await run(['help'])).toEqual({ code: 0, stdout, stderr: '' })
    const serveHelp = await run(['help', 'serve'])
    expect(serveHelp.code).toBe(0)
    expect(serveHelp.stdout).toContain('Usage: ivs-mock serve [options]')
  })

  it('prints the version and exits 0', async () => {
    const { code, stdout } = await run(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it.each([
    [['serve', '--bogus'], {}, "unknown option '--bogus'"],
    [['serve', '--port', 'abc'], {}, 'the port must be a whole number from 0 to 65535.'],
    [['serve', '--port', '70000'], {}, 'the port must be a whole number from 0 to 65535.'],
    [['serve'], { PORT: 'eighty' }, 'the port must be a whole number from 0 to 65535.'],
    [['serve', '--rate-limit', '0'], {}, 'the rate limit must be a whole number from 1 to 1000000000.'],
    [['serve', '--clock', 'yesterday'], {}, 'expected an ISO 8601 date or date-time'],
    [['serve', '--cors', 'maybe'], {}, 'expected true or false.'],
    [['serve', '--freeze-clock', 'maybe'], {}, 'expected true or false.'],
    [['serve', 'extra'], {}, 'too many arguments'],
    [['bogus'], {}, "ivs-mock: unknown command 'bogus' (commands: serve, verify, proxy, diff, pact; run with --help for usage)\n"],
    [['help', 'bogus'], {}, "ivs-mock: unknown command 'bogus' (commands: serve, verify, proxy, diff, pact; run with --help for usage)\n"],
    [['pact', 'bogus'], {}, "ivs-mock pact: unknown command 'bogus' (commands: verify, check; run with --help for usage)\n"],
  ])('%j %j exits 2 with a clear message', async (args, env, message) => {
    const { code, stderr } = await run(args, env)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
  })

  it('refuses a data file of another format with exit 2 and says what to do', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const file = join(dir, 'old.json')
      await writeFile(file, JSON.stringify({ format: 0 }))
      const { code, stderr } = await run(['serve', '--port', '0', '--data', file])
      expect(code).toBe(2)
      expect(stderr).toContain('delete it to start from the seeded world')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses a second mock on a data file in use with exit 2 in one line, and the first goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const file = join(dir, 'state.json')
      const first = await start(['--port', '0', '--data', file])
      const pid = String(first.child.pid)
      const { code, stdout, stderr } = await run(['serve', '--port', '0', '--data', file])
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `ivs-mock: data file ${file} is in use by process ${pid} (lock file ${file}.lock); stop that mock first, or give this one another --data file\n`,
      })
      expect((await fetch(`${first.origin}/api/v2/team`, { headers: auth })).status).toBe(200)
      expect(await first.stop()).toBe(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses a damaged data file with exit 2 in one line and leaves it as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const file = join(dir, 'state.json')
      const server = await start(['--port', '0', '--data', file])
      expect(await server.stop()).toBe(0)
      const world = JSON.parse(await readFile(file, 'utf8')) as { users?: unknown }
      delete world.users
      const damaged = JSON.stringify(world)
      await writeFile(file, damaged)
      const { code, stdout, stderr } = await run(['serve', '--port', '0', '--data', file])
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `ivs-mock: data file ${file} is damaged: the world has no users; nothing was changed (restore it, or delete it to start from the seeded world)\n`,
      })
      expect(await readFile(file, 'utf8')).toBe(damaged)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses a data file whose folder cannot be made with exit 2 in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ivs-mock-cli-'))
    try {
      const inTheWay = join(dir, 'not-a-folder')
      await writeFile(inTheWay, '')
      const file = join(inTheWay, 'state', 'mock.json')
      const { code, stdout, stderr } = await run(['serve', '--port', '0', '--data', file])
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `ivs-mock: cannot create the folder ${join(inTheWay, 'state')} for data file ${file}: ENOTDIR\n` })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says so and exits 1 when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const { code, stderr } = await run(['serve', '--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    } finally {
      blocker.close()
    }
  })
})

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as { port: number }).port
  await new Promise((resolve) => probe.close(resolve))
  return port
}
