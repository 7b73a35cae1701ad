// The files of a --data world: the data file (a lowdb document: the world as of commit `log`, written whole and
// atomically), the change log beside it (commits after that), a log being compacted into the data
// file, and the lock. Reading them back is the same at start, in the compaction worker and after a
// failed save: the data file, then the logs' commits in order.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { LowSync, type SyncAdapter } from 'lowdb'
import { DataFileError, readLog, Replay } from './log.ts'
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

function readText(file: string, what: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new DataFileError(`cannot read ${what} ${file}: ${reason(error)}`, { cause: error })
  }
}

/** What the data file holds, boxed: lowdb reads a file holding null as no file at all. */
interface DataFileContent {
  value: unknown
}

/**
 * The data file as a lowdb document: JSON read and written whole. A write goes aside, is flushed
 * to disk, then renamed over the file (lowdb's own file adapters do not flush); a read that is not
 * JSON is a DataFileError naming what to do.
 */
class DataFileAdapter implements SyncAdapter<DataFileContent> {
  /** Bytes of the file as last read or written. */
  bytes = 0

  constructor(private readonly files: DataFiles) {}

  read(): DataFileContent | null {
    const { data } = this.files
    const text = readText(data, 'data file')
    if (text === undefined) return null
    this.bytes = Buffer.byteLength(text)
    if (text.trim() === '') throw new DataFileError(`data file ${data} is empty; nothing was changed (restore it, or delete it to start from the seeded world)`)
    try {
      return { value: JSON.parse(text) as unknown }
    } catch (error) {
      throw new DataFileError(`data file ${data} is not JSON (${(error as Error).message}); nothing was changed (restore it, or delete it to start from the seeded world)`)
    }
  }

  write(content: DataFileContent): void {
    const text = JSON.stringify(content.value)
    const fd = openSync(this.files.temporary, 'w')
    try {
      writeSync(fd, text)
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
    this.bytes = Buffer.byteLength(text)
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What the data file holds is a world of this format: checked before its change log is replayed onto it. */
function checkFormat(value: unknown, file: string): asserts value is WorldData & { log?: unknown } {
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
  const { value } = document.data
  checkFormat(value, files.data)
  const { log: logged, ...data } = value
  // The data file is checked before its log is replayed onto it, and the result again if a log changed it.
  options.check?.(data, files.data)
  if (!Number.isInteger(logged) || (logged as number) < 0) throw new DataFileError(`data file ${files.data} is damaged: its log number is ${JSON.stringify(logged)}; nothing was changed`)
  let last = logged as number
  const first = last
  let logBytes = 0
  const replay = new Replay(data)
  const logs = [[files.compacting, false] as const, ...(options.activeLog ? [[files.log, true] as const] : [])]
  for (const [file, active] of logs) {
    const logText = readText(file, 'change log')
    if (logText === undefined) continue
    const read = readLog(logText, last, file)
    for (const commit of read.commits) replay.apply(commit)
    last = read.last
    if (active) logBytes = read.completeBytes
  }
  if (last !== first) options.check?.(data, files.data)
  return { data: data, last, logBytes, dataBytes: adapter.bytes }
}

/** Writes the world as of commit `last` in the data file's place (aside first, flushed to disk, then renamed over it); answers its bytes. */
export function writeWorld(files: DataFiles, data: WorldData, last: number): number {
  const adapter = new DataFileAdapter(files)
  new LowSync<DataFileContent>(adapter, { value: { ...data, log: last } }).write()
  return adapter.bytes
}

/** Folds the log being compacted into the data file (run by the compaction worker, off the main thread). */
export function compactFiles(files: DataFiles): void {
  const read = readWorld(files, { activeLog: false })
  if (!read) throw new Error(`no data file ${files.data} to compact into`)
  writeWorld(files, read.data, read.last)
}
