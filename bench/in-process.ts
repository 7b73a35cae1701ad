// The in-process figures of npm run bench, run in a Node process of their own: what a test suite
// feels. `mock.fetch('/api/v2/clients/{id}')` on the built package (dist/index.js, what
// `import { startMock } from 'ivs-mock'` loads) against a bare Hono `app.request` answering the same
// JSON, in alternating rounds after a warm-up (the median of each side's rounds), and `newTeam()`.
// Prints one JSON line: { fetchUs, bareUs, ratios, cpuShare, rounds, requests, newTeamMs, teams }.
import { Hono } from 'hono'
import type { startMock as StartMock } from '../src/index.ts'

const TOKEN = 'ivs_acme_owner'
const ROUNDS = Number(process.env.IN_PROCESS_ROUNDS ?? 21)
const REQUESTS = Number(process.env.IN_PROCESS_REQUESTS ?? 2000)
const TEAMS = Number(process.env.IN_PROCESS_TEAMS ?? 41)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

// Bundled into a folder of its own by npm run bench (as the bare server is), so the package is named by its path.
const { startMock } = (await import(process.env.IVS_MOCK_PACKAGE ?? new URL('../dist/index.js', import.meta.url).href)) as { startMock: typeof StartMock }
// The rate limit is lifted so the rounds measure the mock, not its 429s.
const mock = await startMock({ rateLimit: 1_000_000_000 })
try {
  const headers = { Authorization: `Bearer ${TOKEN}` }
  const first = (await (await mock.fetch('/api/v2/clients?limit=1', { headers })).json()) as { data: Array<{ id: number }> }
  const id = first.data[0]?.id
  if (id === undefined) throw new Error('the seeded team has no client')
  const path = `/api/v2/clients/${id}`
  const body = (await (await mock.fetch(path, { headers })).json()) as Record<string, unknown>
  const bare = new Hono()
  bare.get('/api/v2/clients/:id', (c) => c.json(body))

  /** Microseconds per request over REQUESTS requests, each answer read. */
  const round = async (fetchOnce: () => Response | Promise<Response>) => {
    const began = performance.now()
    for (let index = 0; index < REQUESTS; index++) {
      const res = await fetchOnce()
      if (res.status !== 200) throw new Error(`answered ${res.status}`)
      await res.text()
    }
    return ((performance.now() - began) * 1000) / REQUESTS
  }
  const viaMock = () => mock.fetch(path, { headers })
  const viaBare = () => bare.request(path, { headers })
  if (process.env.IN_PROCESS_PROFILE) {
    // npm run bench:profile -- --target in-process (in-process-bare, new-team): one side alone, 2 s of warm-up, then the window it profiles.
    const sides = { bare: async () => void (await (await viaBare()).text()), mock: async () => void (await (await viaMock()).text()), team: async () => void (await mock.newTeam()) }
    const side = sides[(process.env.IN_PROCESS_SIDE ?? 'mock') as keyof typeof sides]
    const fetchFor = async (ms: number) => {
      let requests = 0
      for (const until = performance.now() + ms; performance.now() < until; requests += 10) for (let index = 0; index < 10; index++) await side()
      return requests
    }
    await fetchFor(2000)
    const fromMs = performance.now()
    const requests = await fetchFor(Number(process.env.IN_PROCESS_PROFILE) * 1000)
    process.stdout.write(`${JSON.stringify({ requests, fromMs, toMs: performance.now() })}\n`)
    process.exit(0)
  }
  // Warm-up: both paths optimised before anything is measured.
  for (let index = 0; index < 3; index++) {
    await round(viaMock)
    await round(viaBare)
  }
  const fetchUs: number[] = []
  const bareUs: number[] = []
  // The process's CPU time over the rounds' wall time: under 90 %, other work on the machine took turns with it.
  const cpuBefore = process.cpuUsage()
  const wallBefore = performance.now()
  for (let index = 0; index < ROUNDS; index++) {
    // Alternating which goes first, so neither always follows the other's garbage.
    if (index % 2 === 0) {
      fetchUs.push(await round(viaMock))
      bareUs.push(await round(viaBare))
    } else {
      bareUs.push(await round(viaBare))
      fetchUs.push(await round(viaMock))
    }
  }
  const cpu = process.cpuUsage(cpuBefore)
  const cpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)

  const teamMs: number[] = []
  for (let index = 0; index < TEAMS + 5; index++) {
    const began = performance.now()
    await mock.newTeam()
    if (index >= 5) teamMs.push(performance.now() - began)
  }
  process.stdout.write(
    `${JSON.stringify({ fetchUs: median(fetchUs), bareUs: median(bareUs), ratios: fetchUs.map((us, index) => us / (bareUs[index] as number)), cpuShare, rounds: ROUNDS, requests: REQUESTS, newTeamMs: median(teamMs), teams: TEAMS })}\n`,
  )
} finally {
  await mock.close()
}
