// The change log of --data (mock.json.log beside mock.json): JSON lines, one commit each (a large
// one over several lines with the same number, the last marked `end`). Written before a write is
// answered; replayed over the base file at start, by the compaction worker and after a failed save.
import { closeSync, openSync, readSync } from 'node:fs'
import { replaceTeamJobs, type JobRow } from '../kernel/scheduler.ts'
import { keyField, type Change, type Place, type RowKey } from './changes.ts'
import type { TeamState, WorldData } from './world.ts'

/** The data file cannot be used as it is: one line says why; the file was not touched. */
export class DataFileError extends Error {}

/** A commit's lines stay below this many characters (a 100,000-row team made at once is several lines). */
export const LINE_CHARACTERS = 4_000_000

function changeText(change: Change): string {
  // A team's state was taken as text when it changed: it goes in as it is.
  return change[0] === 't' ? `["t",${change[1]}]` : JSON.stringify(change)
}

/** The lines of commit number n, each ending in a newline: made one at a time (a team made at once is hundreds of megabytes). */
export function* commitLines(n: number, changes: readonly Change[]): Generator<string> {
  let parts: string[] = []
  let length = 0
  for (const change of changes) {
    const text = changeText(change)
    if (length > 0 && length + text.length > LINE_CHARACTERS) {
      yield `{"n":${n},"c":[${parts.join(',')}]}\n`
      parts = []
      length = 0
    }
    parts.push(text)
    length += text.length + 1
  }
  yield `{"n":${n},"c":[${parts.join(',')}],"end":true}\n`
}

/**
 * Commit number n appending each part's rows at its place, in lines like commitLines' (a row longer
 * than a line has one of its own): the rows of a data file too large to be one JSON text.
 */
export function* appendLines(n: number, parts: ReadonlyArray<readonly [Place, readonly unknown[]]>, lineCharacters = LINE_CHARACTERS): Generator<string> {
  let changes: string[] = []
  let rows: string[] = []
  let place: Place | undefined
  let length = 0
  const closeChange = () => {
    if (place !== undefined && rows.length > 0) changes.push(`["a",${JSON.stringify(place)},[${rows.join(',')}]]`)
    rows = []
  }
  const line = (end: boolean) => {
    closeChange()
    const text = `{"n":${n},"c":[${changes.join(',')}]${end ? ',"end":true' : ''}}\n`
    changes = []
    length = 0
    return text
  }
  for (const [at, list] of parts) {
    closeChange()
    place = at
    for (const row of list) {
      const text = JSON.stringify(row)
      if (length > 0 && length + text.length > lineCharacters) yield line(false)
      rows.push(text)
      length += text.length + 1
    }
  }
  yield line(true)
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
  a: (c) => c.length === 3 && typeof c[1] === 'string' && Array.isArray(c[2]) && c[2].every(isObject),
  t: (c) => c.length === 2 && isObject(c[1]) && isObject(c[1].team),
  x: (c) => c.length === 2 && typeof c[1] === 'number',
  j: (c) => c.length === 3 && typeof c[1] === 'number' && Array.isArray(c[2]),
  s: (c) => c.length === 2 && isObject(c[1]),
}

const NEWLINE = 0x0a

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Says what is damaged at a line (1 for the first line read) and why, as a DataFileError. */
export type Damage = (line: number, why: string) => DataFileError

/** A line of a file, without its newline, and the byte just past its newline. */
export interface Line {
  text: string
  end: number
}

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 16 * 1024 * 1024

/**
 * The lines of a file, each ending in a newline (what follows the last newline was cut short, and
 * is left out). Read in chunks: a file may be larger than a string can be (about 512 MB) or than
 * one read may take (2 GB); only a line is ever one string.
 */
export function* linesOfFile(file: string): Generator<Line, void, undefined> {
  const fd = openSync(file, 'r')
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    // The beginning of a line that has not ended yet, copied out of the chunk, which is read into again.
    let pieces: Buffer[] = []
    let position = 0
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position)
      if (read === 0) return
      const view = chunk.subarray(0, read)
      let start = 0
      for (let newline = view.indexOf(NEWLINE); newline !== -1; newline = view.indexOf(NEWLINE, start)) {
        const tail = view.subarray(start, newline)
        const text = pieces.length === 0 ? tail.toString('utf8') : Buffer.concat([...pieces, tail]).toString('utf8')
        pieces = []
        start = newline + 1
        yield { text, end: position + start }
      }
      if (start < read) pieces.push(Buffer.from(view.subarray(start)))
      position += read
    }
  } finally {
    closeSync(fd)
  }
}

/**
 * The complete commits of a log's lines numbered above `after`. A last commit without its end was
 * cut short by a crash before it was answered: it is left out. Anything else that is not a
 * well-formed commit is damage.
 */
export function readLog(lines: Iterable<Line>, after: number, damage: Damage): ReadLog {
  const commits: Change[][] = []
  let last = after
  let completeBytes = 0
  let pending: { n: number; changes: Change[] } | undefined
  let lineNumber = 0
  for (const { text: line, end } of lines) {
    lineNumber++
    const damaged = (why: string) => damage(lineNumber, why)
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
      completeBytes = end
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
      case 'a': {
        // Rows appended in bulk (a team's rows, a data file's rows): an index is only kept up once built.
        const indexed = this.indexes.get(change[1])
        const rows = indexed?.rows ?? this.rowsAt(change[1])
        if (!rows) return
        const field = keyField(change[1])
        for (const row of change[2] as Array<Record<string, unknown>>) {
          indexed?.places?.set(row, rows.length)
          rows.push(row)
          indexed?.byKey.set(row[field] as RowKey, row)
        }
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
