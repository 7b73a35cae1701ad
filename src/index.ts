// The package's public face: startMock() runs the whole mock inside the caller's process (a vitest
// or jest file, an MSW handler), on no socket unless asked for. It is the mock `ivs-mock serve`
// runs (src/mock.ts) with the same options and defaults; every helper goes through the mock's own
// HTTP surface (the control API under /_mock), so what a test does here it could do over HTTP.
// Exported declarations carry their types in full: the build derives dist/index.d.ts from this
// file alone (src/build/declarations.ts).
import type {
  MockClockJson,
  MockJournalEntryJson,
  MockJournalReportJson,
  MockSnapshotJson,
  MockTeamCreateJson,
  MockTeamJson,
  MockTeamStateJson,
} from './contracts/generated.ts'
import { serveOptions, toServeConfig } from './config.ts'
import { MockClosedError } from './kernel/closed.ts'
import { IN_PROCESS_ORIGIN, openMock, type MockConfig } from './mock.ts'

export { MockClosedError } from './kernel/closed.ts'
export type {
  MockClockJson,
  MockJournalEntryJson,
  MockJournalReportJson,
  MockSnapshotJson,
  MockTeamCreateJson,
  MockTeamJson,
  MockTeamStateJson,
} from './contracts/generated.ts'

/** The roles of a team's users and tokens: owner, member, read-only, assigned-only, assumed. */
export type MockRole = keyof MockTeamJson['tokens']

/** What `ivs-mock serve` takes as flags, by the same names (camelCase), with the same defaults. */
export interface StartMockOptions {
  /** Seed of the generated world (default: the fixture's, the world `serve` starts with). */
  seed?: number
  /** Where the clock starts: a Date or an ISO 8601 date or date-time (default: now). */
  clock?: Date | string
  /** Start with the clock still: it moves only with clock.advance() (default false). */
  freezeClock?: boolean
  /** Seconds of the mock's clock between a check's submission and its result (default 60). */
  checkDelay?: number
  /** Seconds of the mock's clock an upload's virus scan takes (default 5). */
  scanDelay?: number
  /** Days until a new record expires when its request names no expiry (default 30). */
  recordExpiryDays?: number
  /** Requests per user and team in each window (default 200). */
  rateLimit?: number
  /** Length of a rate-limit window in seconds of the mock's clock (default 60). */
  rateLimitWindow?: number
  /** API exchanges the journal keeps per team (default 1000); 0 turns it off. */
  journalSize?: number
  /** Keep state in this JSON file, as `serve --data` does (default: in memory). */
  data?: string
  /** Answer cross-origin browser requests (default true). */
  cors?: boolean
  /** Origins browsers may call /api/v2 from, comma-separated (default: any). */
  corsOrigin?: string
  /** Origins browsers may call /_mock and /oauth from, comma-separated (default: none). */
  mockCorsOrigin?: string
  /** Host names the mock answers to beside the loopback ones, comma-separated (`*`: any). */
  allowedHost?: string
  /** The largest JSON or form body read: bytes, or a size such as '10mb' (default 1 MiB). */
  maxBody?: number | string
  /** Real time every /api/v2 answer is held: milliseconds, or a range such as '100-500' (default none). */
  latency?: number | string
  /** Also listen on a socket (default false): true for a free port of 127.0.0.1, or where to listen. */
  listen?: boolean | { port?: number; host?: string }
}

/** A request to the mock: a path such as /api/v2/me, a full URL, or a Request. */
export type MockFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** A team made by newTeam(): the body of POST /_mock/teams, and helpers bound to the team. */
export type MockTeam = MockTeamJson & {
  /** Fetches with the Authorization header of a role's token (the owner's unless `role` says). */
  fetch(input: string | URL | Request, init?: RequestInit & { role?: MockRole }): Promise<Response>
  /** POST /_mock/teams/{id}/snapshots */
  snapshot(name?: string): Promise<MockSnapshotJson>
  /** POST /_mock/teams/{id}/restore */
  restore(snapshot: number | MockSnapshotJson): Promise<MockTeamStateJson>
  /** POST /_mock/teams/{id}/reset: the team as newTeam() made it. */
  reset(): Promise<MockTeamStateJson>
}

/** The mock's clock: read at once; moved through the control API. */
export interface MockClock {
  now(): Date
  /** POST /_mock/clock/advance: runs what falls due on the way, each at its moment. */
  advance(seconds: number): Promise<MockClockJson>
  /** POST /_mock/clock/freeze */
  freeze(): Promise<MockClockJson>
  /** POST /_mock/clock/unfreeze */
  unfreeze(): Promise<MockClockJson>
}

/** Journal filters, as GET /_mock/journal takes them. */
export interface MockJournalFilter {
  operation?: string
  status?: number
  verdict?: MockJournalEntryJson['verdicts'][number]['kind']
}

/** A team, by id or as newTeam() made it. */
export type MockTeamRef = number | { team: { id: number } }

/** What a team's client did against the mock (GET /_mock/journal and /_mock/journal/report). */
export interface MockJournal {
  /** The team's exchanges, newest first. */
  entries(team: MockTeamRef, filter?: MockJournalFilter): Promise<MockJournalEntryJson[]>
  report(team: MockTeamRef): Promise<MockJournalReportJson>
  clear(team: MockTeamRef): Promise<void>
}

export interface Mock {
  /** Answers a request in-process; a path resolves against the mock (url, or http://localhost). */
  fetch: MockFetch
  /** http://127.0.0.1:<port> when started with listen; undefined otherwise. */
  url: string | undefined
  /** POST /_mock/teams: a fresh, isolated team with a token and user of every role. */
  newTeam(options?: MockTeamCreateJson): Promise<MockTeam>
  clock: MockClock
  journal: MockJournal
  /**
   * Stops everything: the socket, the answers held by a fault's delay or latency (their fetch
   * rejects with MockClosedError), webhook delivery, timers; saves a data file; removes temporary
   * uploads. From then on every member rejects (or throws) MockClosedError and changes nothing.
   */
  close(): Promise<void>
}

/** An answer of the control API other than the one asked for. */
export class MockControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message)
    this.name = 'MockControlError'
  }
}

/** serve's options but where it listens (that is `listen`), and always with the control API, which its helpers use. */
const OPTION_NAMES = new Set(['listen', ...serveOptions().map((option) => option.attributeName()).filter((name) => !['port', 'host', 'control'].includes(name))])

/** The options as serve would take them from flags: the same parsers, the same defaults, the same messages. */
function mockConfig(options: StartMockOptions): MockConfig {
  const given = options as Record<string, unknown>
  const unknown = Object.keys(given).filter((name) => !OPTION_NAMES.has(name))
  if (unknown.length > 0) throw new TypeError(`startMock: unknown option ${unknown.join(', ')}`)
  const values: Record<string, unknown> = {}
  for (const option of serveOptions()) {
    const name = option.attributeName()
    const value = given[name]
    if (value === undefined) {
      values[name] = option.defaultValue
      continue
    }
    const text = value instanceof Date ? value.toISOString() : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined
    if (text === undefined) throw new TypeError(`startMock: ${name}: expected a string, number or boolean`)
    try {
      values[name] = option.parseArg ? option.parseArg(text, undefined) : value
    } catch (error) {
      throw new TypeError(`startMock: ${name}: ${(error as Error).message}`, { cause: error })
    }
  }
  return toServeConfig(values)
}

/** What the app is told of a request that reached it through fetch() (kernel/env.ts): no Host check. */
const IN_PROCESS = { inProcess: true } as const

const teamId = (team: MockTeamRef) => (typeof team === 'number' ? team : team.team.id)

/** Starts the mock in this process; resolves once it answers (and listens, when asked). */
export async function startMock(options: StartMockOptions = {}): Promise<Mock> {
  const running = await openMock(mockConfig(options))
  let url: string | undefined
  if (options.listen) {
    const where = options.listen === true ? {} : options.listen
    try {
      url = await running.listen(where.port ?? 0, where.host ?? '127.0.0.1')
    } catch (error) {
      await running.close()
      throw error
    }
  }
  const origin = url ?? IN_PROCESS_ORIGIN
  let closed = false

  // Every helper goes through it: once closed, nothing reaches the app.
  const fetch: MockFetch = async (input, init) => {
    const request = input instanceof Request ? (init ? new Request(input, init) : input) : new Request(new URL(input, origin), init)
    if (closed) throw new MockClosedError(`${request.method} ${new URL(request.url).pathname}`)
    return running.app.fetch(request, IN_PROCESS)
  }

  /** A control operation's JSON answer; a MockControlError for any status but `expected`. */
  const control = async <T>(method: string, path: string, expected: number, body?: unknown): Promise<T> => {
    const res = await fetch(`/_mock${path}`, {
      method,
      ...(body !== undefined && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    })
    const text = await res.text()
    const parsed: unknown = text === '' ? undefined : JSON.parse(text)
    if (res.status !== expected) throw new MockControlError(res.status, parsed, `${method} /_mock${path} answered ${res.status}: ${text}`)
    return parsed as T
  }

  const bindTeam = (made: MockTeamJson): MockTeam => {
    const id = made.team.id
    return {
      ...made,
      fetch: (input, init = {}) => {
        const { role = 'owner', ...rest } = init
        const headers = new Headers(input instanceof Request ? input.headers : undefined)
        for (const [name, value] of new Headers(rest.headers)) headers.set(name, value)
        headers.set('Authorization', `Bearer ${made.tokens[role]}`)
        return fetch(input, { ...rest, headers })
      },
      snapshot: (name) => control<MockSnapshotJson>('POST', `/teams/${id}/snapshots`, 201, name === undefined ? {} : { name }),
      restore: (snapshot) => control<MockTeamStateJson>('POST', `/teams/${id}/restore`, 200, { snapshot: typeof snapshot === 'number' ? snapshot : snapshot.id }),
      reset: () => control<MockTeamStateJson>('POST', `/teams/${id}/reset`, 200),
    }
  }

  const journal: MockJournal = {
    async entries(team, filter = {}) {
      const entries: MockJournalEntryJson[] = []
      const query = new URLSearchParams({ team: String(teamId(team)), limit: '100' })
      for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, String(value))
      // The journal holds at most --journal-size entries: its pages end.
      for (let page = 1; ; page++) {
        query.set('page', String(page))
        const list = await control<{ data: MockJournalEntryJson[]; total_pages: number }>('GET', `/journal?${query.toString()}`, 200)
        entries.push(...list.data)
        if (page >= list.total_pages) return entries
      }
    },
    report: (team) => control<MockJournalReportJson>('GET', `/journal/report?team=${teamId(team)}`, 200),
    clear: (team) => control<void>('DELETE', `/journal?team=${teamId(team)}`, 204),
  }

  return {
    fetch,
    url,
    newTeam: async (teamOptions = {}) => bindTeam(await control<MockTeamJson>('POST', '/teams', 201, teamOptions)),
    clock: {
      now: () => {
        if (closed) throw new MockClosedError('clock.now()')
        return running.services.clock.now()
      },
      advance: (seconds) => control<MockClockJson>('POST', '/clock/advance', 200, { seconds }),
      freeze: () => control<MockClockJson>('POST', '/clock/freeze', 200),
      unfreeze: () => control<MockClockJson>('POST', '/clock/unfreeze', 200),
    },
    journal,
    close: () => {
      closed = true
      return running.close()
    },
  }
}
