// The files of a --data world: the data file (a lowdb document: the world as of commit `log`, written whole and
// atomically), the change log beside it (commits after that), a log being compacted into the data
// file, and the lock. Reading them back is the same at start, in the compaction worker and after a
// failed save: the data file, then the logs' commits in order.
import { constants } from 'node:buffer'
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { LowSync, type SyncAdapter } from 'lowdb'
import type { Change, Place } from './changes.ts'
import { appendLines, DataFileError, isObject, linesOfFile, readLog, Replay } from './log.ts'
import { WORLD_FORMAT, type WorldData } from './world.ts'

export interface DataFiles {
  data: string
  log: string
  /** The log as it was when a compaction began; gone once the data file holds it. */
  compacting: string
  lock: string
  /** Where a new data file is written before it is renamed over the old. */
  temporary: string
}

export const dataFilesOf = (file: string): DataFiles => ({
  data: file,
  log: `${file}.log`,
  compacting: `${file}.log.compacting`,
  lock: `${file}.lock`,
  temporary: `${file}.tmp`,
})

/** An error's code (EACCES, ENOSPC...) when it has one: the one word a user can act on. */
export const reason = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message

export interface ReadWorld {
  data: WorldData
  /** The number of the last commit the world holds. */
  last: number
  /** Bytes of the change log up to its last complete commit (a commit cut short by a crash follows). */
  logBytes: number
  /** Bytes of the data file. */
  dataBytes: number
}

/** A file's size, or undefined when there is no such file. */
function sizeOf(file: string, what: string): number | undefined {
  try {
    return statSync(file).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new DataFileError(`cannot read ${what} ${file}: ${reason(error)}`, { cause: error })
  }
}

/** Reads a file by what `read` makes of it; a failure to read it (not damage) is a DataFileError naming the file. */
function reading<T>(file: string, what: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof DataFileError) throw error
    throw new DataFileError(`cannot read ${what} ${file}: ${reason(error)}`, { cause: error })
  }
}

/** Writes all the bytes (write() may take fewer at a time). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0
  while (done < bytes.length) done += writeSync(fd, bytes, done)
}

/** What the data file holds, boxed: lowdb reads a file holding null as no file at all. */
interface DataFileContent {
  value: unknown
  /** The rows that follow the first line of a data file written in lines, as bulk appends. */
  rows?: Change[]
}

/**
 * Marks the first line of a data file written in lines: the world without its rows, which follow
 * as lines of bulk appends (one commit, as the change log writes them). A world is written so when
 * its JSON is longer than a string can be (about 512 MB: a team of 100,000 clients and 250,000
 * records is some 900 MB); any other world is one JSON text.
 */
const ROWS_FOLLOW = 'rows_follow'

/** The longest JSON text a data file is written as whole: a string's limit. */
const WHOLE_TEXT_LIMIT = constants.MAX_STRING_LENGTH

/** How a world is laid out in its data file (tests ask for lines with small worlds). */
export interface WorldLayout {
  /** The longest JSON text written whole (a string's limit). */
  wholeTextLimit?: number
  /** About how many characters a line of rows holds (the change log's 4 million). */
  lineCharacters?: number
}

/**
 * The data file as a lowdb document: one JSON text, or a first line and lines of rows for a world
 * larger than a string (ROWS_FOLLOW). A write goes aside, is flushed to disk, then renamed over the
 * file (lowdb's own file adapters do not flush); a read that is neither is a DataFileError naming
 * what to do.
 */
class DataFileAdapter implements SyncAdapter<DataFileContent> {
  /** Bytes of the file as last read or written. */
  bytes = 0

  constructor(
    private readonly files: DataFiles,
    private readonly layout: WorldLayout = {},
  ) {}

  read(): DataFileContent | null {
    const { data } = this.files
    const size = sizeOf(data, 'data file')
    if (size === undefined) return null
    this.bytes = size
    const damaged = (why: string) => new DataFileError(`data file ${data} ${why}; nothing was changed (restore it, or delete it to start from the seeded world)`)
    const content = reading(data, 'data file', () => {
      const lines = linesOfFile(data)
      const first = lines.next()
      if (first.done) return undefined
      const head = parsedOrUndefined(first.value.text)
      if (isObject(head) && head[ROWS_FOLLOW] === true) {
        const read = readLog(lines, 0, (line, why) => damaged(`is damaged at line ${line + 1}: ${why}`))
        if (read.last !== 1 || read.completeBytes !== size) throw damaged('is cut short: its rows end before their last line')
        return { value: head, rows: read.commits[0] }
      }
      lines.return()
      // One JSON text ending in a newline is parsed already.
      return head !== undefined && first.value.end === size ? { value: head } : undefined
    })
    if (content) return content
    const text = reading(data, 'data file', () => readFileSync(data, 'utf8'))
    if (text.trim() === '') throw damaged('is empty')
    try {
      return { value: JSON.parse(text) as unknown }
    } catch (error) {
      throw damaged(`is not JSON (${(error as Error).message})`)
    }
  }

  write(content: DataFileContent): void {
    const text = wholeText(content.value, this.layout.wholeTextLimit ?? WHOLE_TEXT_LIMIT)
    const fd = openSync(this.files.temporary, 'w')
    let bytes = 0
    const write = (piece: string) => {
      const encoded = Buffer.from(piece)
      writeAll(fd, encoded)
      bytes += encoded.length
    }
    try {
      if (text !== undefined) write(text)
      else for (const line of worldLines(content.value as WorldData, this.layout.lineCharacters)) write(line)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(this.files.temporary, this.files.data)
    // The rename itself is durable once the folder is flushed.
    const folder = openSync(dirname(this.files.data), 'r')
    try {
      fsyncSync(folder)
    } finally {
      closeSync(folder)
    }
    this.bytes = bytes
  }
}

/** The value as one JSON text, or undefined when it is longer than the limit or than a string can be. */
function wholeText(value: unknown, limit: number): string | undefined {
  try {
    const text = JSON.stringify(value)
    return text.length <= limit ? text : undefined
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** A line's JSON, or undefined when it is not JSON of its own (the first line of JSON laid out over lines, edited by hand). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** A world in lines: itself without rows (marked ROWS_FOLLOW), then its rows, table by table, as bulk appends. */
function* worldLines(world: WorldData, lineCharacters?: number): Generator<string> {
  const parts: Array<[Place, unknown[]]> = []
  const withoutRows: Record<string, unknown> = { ...world, [ROWS_FOLLOW]: true }
  for (const [key, value] of Object.entries(world)) {
    if (!Array.isArray(value) || key === 'teams') continue
    parts.push([key, value])
    withoutRows[key] = []
  }
  withoutRows.teams = world.teams.map((state) => {
    const empty: Record<string, unknown> = { ...state }
    for (const [key, rows] of Object.entries(state)) {
      if (!Array.isArray(rows)) continue
      parts.push([`${state.team.id}/${key}`, rows])
      empty[key] = []
    }
    return empty
  })
  yield `${JSON.stringify(withoutRows)}\n`
  yield* appendLines(1, parts, lineCharacters)
}

/** What the data file holds is a world of this format: checked before its change log is replayed onto it. */
function checkFormat(value: unknown, file: string): asserts value is WorldData & { log?: unknown; [ROWS_FOLLOW]?: unknown } {
  if (!isObject(value)) {
    throw new DataFileError(`data file ${file} holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not a world; nothing was changed (delete it to start from the seeded world)`)
  }
  if (value.format !== WORLD_FORMAT) {
    const format = value.format === undefined ? 'no format' : `format ${JSON.stringify(value.format)}`
    throw new DataFileError(`data file ${file} has ${format}, this version reads format ${WORLD_FORMAT}; delete it to start from the seeded world`)
  }
}

/** Checks a world read from the files row by row (world-check.ts's checkWorld), throwing a DataFileError. */
export type WorldCheck = (data: WorldData, file: string) => void

/**
 * The world the files hold, or undefined when there is no data file yet. check: validates the whole
 * world (at start; after a failed save and in the compaction worker, what is read was checked already);
 * activeLog: replay the change log too (the compaction worker folds in only the log it was given).
 */
export function readWorld(files: DataFiles, options: { check?: WorldCheck; activeLog: boolean }): ReadWorld | undefined {
  const adapter = new DataFileAdapter(files)
  // JSON never reads as undefined: the default stays when there is no file.
  const document = new LowSync<DataFileContent>(adapter, { value: undefined })
  document.read()
  if (document.data.value === undefined) {
    if (existsSync(files.log)) throw new DataFileError(`change log ${files.log} has no data file ${files.data} beside it; nothing was changed (restore the data file, or delete the log)`)
    return undefined
  }
  const { value, rows } = document.data
  checkFormat(value, files.data)
  const { log: logged, [ROWS_FOLLOW]: _rowsFollow, ...data } = value
  if (rows && !(Array.isArray(data.teams) && data.teams.every((state) => isObject(state) && isObject(state.team)))) {
    throw new DataFileError(`data file ${files.data} is damaged: its first line is not a world's teams without their rows; nothing was changed`)
  }
  let replay: Replay | undefined
  if (rows) {
    replay = new Replay(data)
    replay.apply(rows)
  }
  // The data file is checked before its log is replayed onto it, and the result again if a log changed it.
  options.check?.(data, files.data)
  if (!Number.isInteger(logged) || (logged as number) < 0) throw new DataFileError(`data file ${files.data} is damaged: its log number is ${JSON.stringify(logged)}; nothing was changed`)
  let last = logged as number
  const first = last
  let logBytes = 0
  const logs = [[files.compacting, false] as const, ...(options.activeLog ? [[files.log, true] as const] : [])]
  for (const [file, active] of logs) {
    if (sizeOf(file, 'change log') === undefined) continue
    const damaged = (line: number, why: string) => new DataFileError(`change log ${file} is damaged at line ${line}: ${why}; nothing was changed (restore it, or delete it to lose the changes since the last compaction)`)
    const read = reading(file, 'change log', () => readLog(linesOfFile(file), last, damaged))
    replay ??= new Replay(data)
    for (const commit of read.commits) replay.apply(commit)
    last = read.last
    if (active) logBytes = read.completeBytes
  }
  if (last !== first) options.check?.(data, files.data)
  return { data: data, last, logBytes, dataBytes: adapter.bytes }
}

/**
 * Writes the world as of commit `last` in the data file's place (aside first, flushed to disk, then
 * renamed over it); answers its bytes.
 */
export function writeWorld(files: DataFiles, data: WorldData, last: number, layout?: WorldLayout): number {
  const adapter = new DataFileAdapter(files, layout)
  new LowSync<DataFileContent>(adapter, { value: { ...data, log: last } }).write()
  return adapter.bytes
}

/** Folds the log being compacted into the data file (run by the compaction worker, off the main thread). */
export function compactFiles(files: DataFiles): void {
  const read = readWorld(files, { activeLog: false })
  if (!read) throw new Error(`no data file ${files.data} to compact into`)
  writeWorld(files, read.data, read.last)
}
