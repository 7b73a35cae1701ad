// Where the world lives: in memory (the default), or with --data in a data file and the change log
// beside it. Every write unit (a request that may write, a run of due jobs, a webhook attempt)
// appends what it changed to the log before it is answered, so a write costs what it changed, not
// the world. Commits made in one turn of the event loop go out in one write() (group commit): the
// requests wait for it, so none is answered before its change is with the operating system. The
// log is folded into the data file by a worker thread once it has grown past the data file's size.
// A lock file keeps a second process off the same data file.
import { randomUUID } from 'node:crypto'
import { closeSync, ftruncateSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { Worker } from 'node:worker_threads'
import { HttpError } from '../kernel/errors.ts'
import { ChangeSink, drain, inUnit, type WriteUnit } from './changes.ts'
import { dataFilesOf, readWorld, reason, writeAll, writeWorld, type DataFiles, type WorldCheck } from './data-files.ts'
import { commitLines, DataFileError } from './log.ts'
import { Store, type TableDeclaration, type WorldData } from './world.ts'

export { DataFileError }

/** The log is folded into the data file once it holds more than this and more than the data file. */
export const COMPACT_AFTER_BYTES = 8 * 1024 * 1024

/** A write whose changes could not be saved: they were undone, and the request answers 500. */
export class SaveFailed extends HttpError {
  constructor(why: string) {
    super(500, { message: 'Server Error' }, {}, why)
  }
}

export interface OpenWorldOptions {
  file?: string | undefined
  build: () => WorldData
  tables: readonly TableDeclaration[]
  /** Writes bytes to the change log (a test makes it fail, as a full disk would). */
  writeLog?: (fd: number, bytes: Uint8Array) => void
  /** Compaction threshold in bytes of log (tests make it small). */
  compactAfterBytes?: number
  /** Where reading or writing a large world says what it is doing, in a line (the mock's console). */
  announce?: (line: string) => void
  /** What is large enough to say so (tests make it small). */
  announceFrom?: AnnounceFrom
}

/** Files this large (the data file and its logs), and commits of this many changes, say what they are doing. */
export interface AnnounceFrom {
  bytes: number
  changes: number
}

const ANNOUNCE_FROM: AnnounceFrom = { bytes: 64 * 1024 * 1024, changes: 100_000 }

const counted = new Intl.NumberFormat('en-GB')
const megabytes = (bytes: number) => `${counted.format(Math.round(bytes / 1e6))} MB`
const secondsSince = (began: number) => `${((performance.now() - began) / 1000).toFixed(1)} s`

export interface OpenedWorld {
  store: Store
  /** seeded: built from fixtures now; loaded: read back from the data file. */
  origin: 'seeded' | 'loaded'
  /**
   * Runs a request that may change the world as one write unit: its changes are in the log when it
   * resolves. A save that fails undoes them (the world is read back from the files) and rejects
   * with SaveFailed; so does every unit that was running then.
   */
  write<T>(work: () => Promise<T>): Promise<T>
  /** Called when a failed save put the world back as its files have it (the webhook queues follow). */
  onReload(listener: () => void): void
  /** Folds the change log into the data file now (a worker thread); resolves when done. */
  compact(): Promise<void>
  /** Waits for a compaction, closes the log and releases the lock. */
  close(): Promise<void>
}

export async function openWorld(options: OpenWorldOptions): Promise<OpenedWorld> {
  if (!options.file) {
    const store = new Store(options.build(), options.tables)
    return { store, origin: 'seeded', write: (work) => work(), onReload: () => undefined, compact: () => Promise.resolve(), close: () => Promise.resolve() }
  }
  // The row check (Ajv and the world's schema) loads with the first data file, never without one.
  const { checkWorld } = await import('./world-check.ts')
  const files = dataFilesOf(options.file)
  createFolderOf(options.file)
  const lock = takeLock(files)
  try {
    return new DurableWorld(files, options, lock, checkWorld)
  } catch (error) {
    lock.release()
    throw error
  }
}

function createFolderOf(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true })
  } catch (error) {
    throw new DataFileError(`cannot create the folder ${dirname(file)} for data file ${file}: ${reason(error)}`, { cause: error })
  }
}

/** The compaction worker: the bundle's dist/compaction-worker.js, or the TypeScript source through tsx's loader (tests). */
function startCompactionWorker(files: DataFiles): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./compaction-worker.js', import.meta.url), { workerData: files })
  const source = new URL('./compaction-worker.ts', import.meta.url).href
  const loader = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}) })`
  return new Worker(loader, { eval: true, workerData: files })
}

/** Lines are joined into writes of up to this many bytes (a turn's commits, as a rule, in one write()); a longer line is a write of its own, not copied. */
const WRITE_BATCH_BYTES = 1024 * 1024

/** Queued lines in as few writes as that allows, in order. */
function writeBatches(lines: readonly Buffer[]): Buffer[] {
  const batches: Buffer[] = []
  let batch: Buffer[] = []
  let bytes = 0
  const close = () => {
    if (bytes > 0) batches.push(batch.length === 1 ? (batch[0] as Buffer) : Buffer.concat(batch, bytes))
    batch = []
    bytes = 0
  }
  for (const line of lines) {
    if (line.length >= WRITE_BATCH_BYTES) {
      close()
      batches.push(line)
      continue
    }
    if (bytes + line.length > WRITE_BATCH_BYTES) close()
    batch.push(line)
    bytes += line.length
  }
  close()
  return batches
}

class DurableWorld implements OpenedWorld {
  readonly store: Store
  readonly origin: OpenedWorld['origin']
  private readonly sink: ChangeSink
  private fd: number
  private logBytes: number
  private dataBytes: number
  private last: number
  private compaction: Promise<void> | undefined
  /** Set when a failed save could not be undone: nothing more is written. */
  private broken: string | undefined
  private readonly reloadListeners: Array<() => void> = []
  /** Commits waiting for the next write (their lines, encoded), and the requests waiting for it. */
  private queued: Buffer[] = []
  private waiting: Array<{ saved: () => void; failed: (error: SaveFailed) => void }> = []
  private flushing: NodeJS.Immediate | undefined
  private readonly writeLog: (fd: number, bytes: Uint8Array) => void
  private readonly compactAfterBytes: number
  private readonly announce: (line: string) => void
  private readonly announceFrom: AnnounceFrom

  constructor(
    private readonly files: DataFiles,
    options: OpenWorldOptions,
    private readonly lock: Lock,
    check: WorldCheck,
  ) {
    this.writeLog = options.writeLog ?? writeAll
    this.compactAfterBytes = options.compactAfterBytes ?? COMPACT_AFTER_BYTES
    this.announce = options.announce ?? (() => undefined)
    this.announceFrom = options.announceFrom ?? ANNOUNCE_FROM
    const stored = [files.data, files.compacting, files.log].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0)
    const began = performance.now()
    if (stored >= this.announceFrom.bytes) this.announce(`ivs-mock: reading ${files.data} and its change log (${megabytes(stored)})`)
    const read = readWorld(files, { check, activeLog: true })
    if (stored >= this.announceFrom.bytes) this.announce(`ivs-mock: read ${files.data} and its change log in ${secondsSince(began)}`)
    let data: WorldData
    if (read) {
      data = read.data
      this.origin = 'loaded'
      this.last = read.last
      this.dataBytes = read.dataBytes
      this.logBytes = read.logBytes
    } else {
      data = options.build()
      this.origin = 'seeded'
      this.last = 0
      this.logBytes = 0
      this.dataBytes = this.startFiles(() => writeWorld(files, data, 0))
    }
    this.fd = this.startFiles(() => openSync(files.log, 'a'))
    // A commit cut short by a crash was never answered: it goes, so the next one starts on a line of its own.
    if (statSync(files.log).size > this.logBytes) this.startFiles(() => ftruncateSync(this.fd, this.logBytes))
    this.store = new Store(data, options.tables)
    this.sink = new ChangeSink(() => this.store.data.sequences)
    this.store.record(this.sink, (work) => this.background(work))
    // A compaction that a crash cut short is finished first.
    if (this.exists(files.compacting)) void this.compact()
  }

  private startFiles<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw new DataFileError(`cannot write beside data file ${this.files.data}: ${reason(error)}`, { cause: error })
    }
  }

  private exists(file: string): boolean {
    try {
      statSync(file)
      return true
    } catch {
      return false
    }
  }

  write<T>(work: () => Promise<T>): Promise<T> {
    return inUnit(this.sink, async (unit) => {
      let result: T
      try {
        result = await work()
      } catch (error) {
        // What it changed before it failed is saved all the same; a failed save is the error then.
        await this.commit(unit)
        throw error
      }
      await this.commit(unit)
      return result
    })
  }

  /** A unit outside any request: a failed save is reported and undone, never thrown. */
  private background<T>(work: () => T): T {
    // Nobody waits: a failed save is undone and reported when the write fails.
    const commit = (unit: WriteUnit) => void this.commit(unit).catch(() => undefined)
    return inUnit(this.sink, (unit) => {
      let result: T
      try {
        result = work()
      } catch (error) {
        commit(unit)
        throw error
      }
      commit(unit)
      return result
    })
  }

  onReload(listener: () => void): void {
    this.reloadListeners.push(listener)
  }

  /** Queues what the unit changed for the next write; resolves once it is written. */
  private commit(unit: WriteUnit): Promise<void> {
    if (unit.epoch !== this.sink.epoch || this.broken !== undefined) {
      unit.closed = true
      return Promise.reject(new SaveFailed(this.broken ?? 'a save failed while this request ran: its changes were undone'))
    }
    const changes = drain(unit)
    if (changes.length === 0) return Promise.resolve()
    this.last++
    const large = changes.length >= this.announceFrom.changes
    const began = performance.now()
    if (large) this.announce(`ivs-mock: writing ${counted.format(changes.length)} changes to ${this.files.log}`)
    // Each line is encoded as it is made: a team made at once is hundreds of megabytes of lines.
    let bytes = 0
    for (const line of commitLines(this.last, changes)) {
      const encoded = Buffer.from(line)
      this.queued.push(encoded)
      bytes += encoded.length
    }
    if (large) this.announce(`ivs-mock: ${megabytes(bytes)} of changes made ready for ${this.files.log} in ${secondsSince(began)}`)
    this.flushing ??= setImmediate(() => this.flush())
    return new Promise((saved, failed) => this.waiting.push({ saved, failed }))
  }

  /** Writes every queued commit with one write(), then answers those waiting. */
  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing)
    this.flushing = undefined
    if (this.queued.length === 0) return
    const batches = writeBatches(this.queued)
    const waiting = this.waiting
    this.queued = []
    this.waiting = []
    const before = this.logBytes
    try {
      for (const batch of batches) {
        this.writeLog(this.fd, batch)
        this.logBytes += batch.length
      }
    } catch (error) {
      const failure = this.undo(error, before)
      for (const waiter of waiting) waiter.failed(failure)
      return
    }
    for (const waiter of waiting) waiter.saved()
    if (this.logBytes > Math.max(this.compactAfterBytes, this.dataBytes)) void this.compact()
  }

  /** A save failed: the log loses what was half written, and the world is read back as its files have it. */
  private undo(error: unknown, logBytes: number): SaveFailed {
    const why = `could not write the change log ${this.files.log} (${reason(error)})`
    this.sink.epoch++
    this.sink.ordered = []
    this.sink.sequences.clear()
    try {
      ftruncateSync(this.fd, logBytes)
      this.logBytes = logBytes
      const read = readWorld(this.files, { activeLog: true })
      if (!read) throw new Error(`data file ${this.files.data} is gone`)
      this.store.reload(read.data)
      this.last = read.last
      for (const listener of this.reloadListeners) listener()
      console.error(`ivs-mock: ${why}; the change was undone`)
      return new SaveFailed(`${why}; the change was undone`)
    } catch (undoError) {
      this.broken = `${why}, and it could not be undone (${reason(undoError)}): nothing more is saved; restart the mock`
      console.error(`ivs-mock: ${this.broken}`)
      return new SaveFailed(this.broken)
    }
  }

  compact(): Promise<void> {
    if (this.compaction) return this.compaction
    // Everything committed so far goes into the log first (which may itself start a compaction).
    this.flush()
    if (this.compaction) return this.compaction
    const { files } = this
    try {
      // A compaction that failed or was cut short left its log: that one is folded in first.
      if (!this.exists(files.compacting)) {
        closeSync(this.fd)
        renameSync(files.log, files.compacting)
        this.fd = openSync(files.log, 'a')
        this.logBytes = 0
      }
    } catch (error) {
      console.error(`ivs-mock: could not start compacting ${files.log} (${reason(error)}); the log keeps growing`)
      return Promise.resolve()
    }
    this.compaction = new Promise<void>((resolve) => {
      const worker = startCompactionWorker(files)
      let failure: string | undefined
      worker.once('error', (error) => (failure = reason(error)))
      worker.once('exit', (code) => {
        if (failure === undefined && code === 0) {
          rmSync(files.compacting, { force: true })
          this.dataBytes = statSync(files.data).size
        } else {
          console.error(`ivs-mock: compacting ${files.compacting} into ${files.data} failed (${failure ?? `exit ${code}`}); both are kept and replayed at start`)
        }
        this.compaction = undefined
        resolve()
      })
    })
    return this.compaction
  }

  async close(): Promise<void> {
    this.flush()
    await this.compaction
    closeSync(this.fd)
    this.lock.release()
  }
}

interface Lock {
  release(): void
}

/** Locks still held, released when the process exits however it exits (kill -9 aside: see takeLock). */
const heldLocks = new Set<string>()
let exitHookInstalled = false

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the data file's lock: a file holding this process's id, created only if there is none
 * (written aside and hard-linked into place, so it never exists empty). A lock whose process is
 * gone (a mock killed with kill -9) is stale and taken over.
 */
function takeLock(files: DataFiles): Lock {
  const release = () => {
    heldLocks.delete(files.lock)
    try {
      if (readFileSync(files.lock, 'utf8').trim() === String(process.pid)) rmSync(files.lock, { force: true })
    } catch {
      // Already gone.
    }
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const aside = `${files.lock}.${process.pid}.${randomUUID()}`
    let taken = false
    try {
      writeFileSync(aside, `${process.pid}\n`)
      linkSync(aside, files.lock)
      taken = true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataFileError(`cannot lock data file ${files.data} (${files.lock}): ${reason(error)}`, { cause: error })
    } finally {
      rmSync(aside, { force: true })
    }
    if (taken) {
      heldLocks.add(files.lock)
      if (!exitHookInstalled) {
        exitHookInstalled = true
        process.once('exit', () => {
          for (const lock of heldLocks) rmSync(lock, { force: true })
        })
      }
      return { release }
    }
    let holder: number
    try {
      holder = Number.parseInt(readFileSync(files.lock, 'utf8'), 10)
    } catch {
      continue
    }
    if (Number.isInteger(holder) && alive(holder)) {
      throw new DataFileError(`data file ${files.data} is in use by process ${holder} (lock file ${files.lock}); stop that mock first, or give this one another --data file`)
    }
    rmSync(files.lock, { force: true })
  }
  throw new DataFileError(`cannot lock data file ${files.data}: its lock file ${files.lock} keeps changing`)
}
