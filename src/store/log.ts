// The change log of --data (mock.json.log beside mock.json): JSON lines, one commit each (a large
// one over several lines with the same number, the last marked `end`). Written before a write is
// answered; replayed over the base file at start, by the compaction worker and after a failed save.
import { replaceTeamJobs, type JobRow } from '../kernel/scheduler.ts'
import { keyField, type Change, type Place, type RowKey } from './changes.ts'
import type { TeamState, WorldData } from './world.ts'

/** The data file cannot be used as it is: one line says why; the file was not touched. */
export class DataFileError extends Error {}

/** A commit's lines stay below this many characters (a 100,000-row team made at once is several lines). */
const LINE_CHARACTERS = 4_000_000

function changeText(change: Change): string {
  // A team's state was taken as text when it changed: it goes in as it is.
  return change[0] === 't' ? `["t",${change[1]}]` : JSON.stringify(change)
}

/** The lines of commit number n, each ending in a newline. */
export function commitLines(n: number, changes: readonly Change[]): string[] {
  const lines: string[] = []
  let parts: string[] = []
  let length = 0
  for (const change of changes) {
    const text = changeText(change)
    if (length > 0 && length + text.length > LINE_CHARACTERS) {
      lines.push(`{"n":${n},"c":[${parts.join(',')}]}\n`)
      parts = []
      length = 0
    }
    parts.push(text)
    length += text.length + 1
  }
  lines.push(`{"n":${n},"c":[${parts.join(',')}],"end":true}\n`)
  return lines
}

export interface ReadLog {
  /** Complete commits after `after`, in order. */
  commits: Change[][]
  /** The number of the last complete commit (after, when none). */
  last: number
  /** Bytes up to the end of the last complete commit: what follows is a commit cut short by a crash. */
  completeBytes: number
}

const OPS: Record<string, (change: unknown[]) => boolean> = {
  i: (c) => c.length === 3 && typeof c[1] === 'string' && isObject(c[2]),
  p: (c) => c.length === 3 && typeof c[1] === 'string' && isObject(c[2]),
  d: (c) => c.length === 3 && typeof c[1] === 'string' && (typeof c[2] === 'number' || typeof c[2] === 'string'),
  t: (c) => c.length === 2 && isObject(c[1]) && isObject(c[1].team),
  x: (c) => c.length === 2 && typeof c[1] === 'number',
  j: (c) => c.length === 3 && typeof c[1] === 'number' && Array.isArray(c[2]),
  s: (c) => c.length === 2 && isObject(c[1]),
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The complete commits of a log's text numbered above `after`. A last line without its newline,
 * or a last commit without its end, was cut short by a crash before it was answered: it is left
 * out. Anything else that is not a well-formed commit is damage (a DataFileError naming the line).
 */
export function readLog(text: string, after: number, file: string): ReadLog {
  const commits: Change[][] = []
  let last = after
  let completeBytes = 0
  let pending: { n: number; changes: Change[] } | undefined
  let offset = 0
  let bytes = 0
  let lineNumber = 0
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset)
    if (newline === -1) break
    lineNumber++
    const line = text.slice(offset, newline)
    offset = newline + 1
    bytes += Buffer.byteLength(line) + 1
    const damaged = (why: string) => new DataFileError(`change log ${file} is damaged at line ${lineNumber}: ${why}; nothing was changed (restore it, or delete it to lose the changes since the last compaction)`)
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      throw damaged('not JSON')
    }
    if (!isObject(entry) || !Number.isInteger(entry.n) || !Array.isArray(entry.c) || (entry.end !== undefined && entry.end !== true)) throw damaged('not a commit')
    const n = entry.n as number
    if (pending && pending.n !== n) throw damaged(`commit ${pending.n} has no end`)
    if (!pending && n <= last && n > after) throw damaged(`commit ${n} comes after commit ${last}`)
    for (const change of entry.c as unknown[]) {
      if (!Array.isArray(change) || typeof change[0] !== 'string' || !OPS[change[0]]?.(change)) throw damaged(`not a change: ${JSON.stringify(change).slice(0, 80)}`)
    }
    pending ??= { n, changes: [] }
    for (const change of entry.c as Change[]) pending.changes.push(change)
    if (entry.end) {
      if (n > after) {
        commits.push(pending.changes)
        last = n
      }
      pending = undefined
      completeBytes = bytes
    }
  }
  return { commits, last, completeBytes }
}

interface Indexed {
  rows: Array<Record<string, unknown>>
  byKey: Map<RowKey, Record<string, unknown>>
  /**
   * Where each row is, for rows kept in no order (the clock's jobs: the scheduler orders them when
   * it opens them), so a row deleted is replaced by the last instead of the rows after it moving up.
   */
  places?: Map<Record<string, unknown>, number>
}

/** Applies logged changes to a world read from its base file, as they were made. */
export class Replay {
  private readonly teams = new Map<number, TeamState>()
  private readonly indexes = new Map<Place, Indexed>()

  constructor(private readonly data: WorldData) {
    for (const state of data.teams) this.teams.set(state.team.id, state)
  }

  apply(changes: readonly Change[]): void {
    for (const change of changes) this.applyOne(change)
  }

  private applyOne(change: Change): void {
    switch (change[0]) {
      case 'i': {
        const place = this.index(change[1])
        if (!place) return
        const row = change[2] as Record<string, unknown>
        place.places?.set(row, place.rows.length)
        place.rows.push(row)
        place.byKey.set(row[keyField(change[1])] as RowKey, row)
        return
      }
      case 'p': {
        const row = change[2] as Record<string, unknown>
        if (change[1].endsWith('/team')) {
          const state = this.teams.get(Number(change[1].split('/')[0]))
          if (state) state.team = row as unknown as TeamState['team']
          return
        }
        const current = this.index(change[1])?.byKey.get(row[keyField(change[1])] as RowKey)
        if (!current) return
        for (const key of Object.keys(current)) delete current[key]
        Object.assign(current, row)
        return
      }
      case 'd': {
        const place = this.index(change[1])
        const row = place?.byKey.get(change[2])
        if (!place || !row) return
        place.byKey.delete(change[2])
        if (!place.places) {
          place.rows.splice(place.rows.indexOf(row), 1)
          return
        }
        const at = place.places.get(row) as number
        place.places.delete(row)
        const last = place.rows.pop() as Record<string, unknown>
        if (last === row) return
        place.rows[at] = last
        place.places.set(last, at)
        return
      }
      case 't': {
        const state = (typeof change[1] === 'string' ? JSON.parse(change[1]) : change[1]) as TeamState
        const old = this.teams.get(state.team.id)
        if (old) this.data.teams[this.data.teams.indexOf(old)] = state
        else this.data.teams.push(state)
        this.teams.set(state.team.id, state)
        this.forgetTeam(state.team.id)
        return
      }
      case 'x': {
        const old = this.teams.get(change[1])
        if (!old) return
        this.data.teams.splice(this.data.teams.indexOf(old), 1)
        this.teams.delete(change[1])
        this.forgetTeam(change[1])
        return
      }
      case 'j':
        replaceTeamJobs(this.data.jobs, change[1], change[2] as JobRow[])
        this.indexes.delete('jobs')
        return
      case 's':
        Object.assign(this.data.sequences, change[1])
        return
    }
  }

  private forgetTeam(team: number): void {
    for (const place of this.indexes.keys()) if (place.startsWith(`${team}/`)) this.indexes.delete(place)
  }

  /** The rows at a place, indexed by their key once. */
  private index(place: Place): Indexed | undefined {
    const known = this.indexes.get(place)
    if (known) return known
    const rows = this.rowsAt(place)
    if (!rows) return undefined
    const field = keyField(place)
    const indexed: Indexed = { rows, byKey: new Map(rows.map((row) => [row[field] as RowKey, row])) }
    if (place === 'jobs') indexed.places = new Map(rows.map((row, at) => [row, at]))
    this.indexes.set(place, indexed)
    return indexed
  }

  private rowsAt(place: Place): Array<Record<string, unknown>> | undefined {
    const slash = place.indexOf('/')
    let holder: unknown
    if (slash >= 0) {
      holder = (this.teams.get(Number(place.slice(0, slash))) as Record<string, unknown> | undefined)?.[place.slice(slash + 1)]
    } else {
      holder = this.data
      for (const step of place.split('.')) holder = (holder as Record<string, unknown> | undefined)?.[step]
    }
    return Array.isArray(holder) ? (holder as Array<Record<string, unknown>>) : undefined
  }
}
