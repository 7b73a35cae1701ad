// Where attachments' bytes live. Uploads go to a folder: beside the data file with --data (so they
// last as long as the world), else a temporary folder made on the first upload and removed when
// the process exits. Seeded attachments point at the read-only samples in fixtures/samples, so the
// seeded world needs no copies. A blob key says which: 'upload:<name>' or 'sample:<file>'.
import { onExit } from 'signal-exit'
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { isPartialUpload } from '../kernel/multipart.ts'

const UPLOAD = 'upload:'
const SAMPLE = 'sample:'

/** Temporary folders still to remove, with one exit hook for all of them (tests make many stores). */
const temporaryFolders = new Set<string>()
let exitHookInstalled = false

/**
 * Removes the temporary folders when the process ends, however it ends but SIGKILL: a test
 * runner's worker (vitest's forks) is stopped by SIGTERM, where Node emits no 'exit', and a mock
 * nobody closed left its uploads folder behind (about a hundred of them after one npm test).
 * Installed when the first store is made, before a server adds its own SIGINT and SIGTERM
 * handlers: signal-exit then sees them at the signal and leaves the stopping to them (serve
 * closes, then exits, and the folders go with the exit); alone, it removes the folders and lets
 * the signal end the process as it would have.
 */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  onExit(() => {
    for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true })
  })
}

/** Uploads kept with --data live beside the data file: ./mock.json keeps them in ./mock.files/. */
export function uploadsBeside(dataFile: string): string {
  return `${dataFile.replace(/\.json$/i, '')}.files`
}

/** Files a request was still receiving when the process last stopped (a crash, kill -9): nothing points at them. */
function removePartialUploads(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) if (isPartialUpload(name)) rmSync(join(dir, name), { force: true })
}

export interface BlobStoreOptions {
  /** The uploads folder; undefined: a temporary one, made on first use and removed on exit. */
  dir?: string | undefined
  /** The read-only sample files seeded attachments use (fixtures/samples). */
  samplesDir: string
}

export class BlobStore {
  private dir: string | undefined
  private readonly keepers: Array<(blob: string) => boolean> = []
  /** The sizes of the sample files asked for, by blob key. */
  private readonly sampleSizes = new Map<string, number>()

  constructor(private readonly options: BlobStoreOptions) {
    this.dir = options.dir
    if (options.dir !== undefined) removePartialUploads(options.dir)
    else installExitHook()
  }

  /** The key of an upload stored under name. */
  static upload(name: string): string {
    return `${UPLOAD}${name}`
  }

  /** The key of a sample file of fixtures/samples. */
  static sample(file: string): string {
    return `${SAMPLE}${file}`
  }

  /** The uploads folder, made when first needed. */
  uploadsDir(): string {
    if (this.dir === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), 'ivs-mock-files-'))
      temporaryFolders.add(this.dir)
    } else {
      mkdirSync(this.dir, { recursive: true })
    }
    return this.dir
  }

  /** The file holding a blob's bytes. */
  path(blob: string): string {
    if (blob.startsWith(SAMPLE)) return join(this.options.samplesDir, blob.slice(SAMPLE.length))
    if (blob.startsWith(UPLOAD)) return join(this.uploadsDir(), blob.slice(UPLOAD.length))
    throw new Error(`blobs: unknown blob key ${blob}`)
  }

  /** Stores bytes as an upload named name; returns its key. */
  write(name: string, bytes: Uint8Array): string {
    const key = BlobStore.upload(name)
    writeFileSync(this.path(key), bytes)
    return key
  }

  /**
   * Takes a file already in the uploads folder (a streamed upload, see kernel/multipart.ts) as the
   * upload named name: a rename, never a copy. Returns its key.
   */
  adopt(file: string, name: string): string {
    const key = BlobStore.upload(name)
    renameSync(file, this.path(key))
    return key
  }

  read(blob: string): Buffer {
    return readFileSync(this.path(blob))
  }

  size(blob: string): number {
    if (!blob.startsWith(SAMPLE)) return statSync(this.path(blob)).size
    // Samples are read-only and shared by every seeded attachment: one stat each per store, found
    // by the blob's key (a large team asks for each of its 250,000 attachments; joining the path was most of that).
    let size = this.sampleSizes.get(blob)
    if (size === undefined) this.sampleSizes.set(blob, (size = statSync(this.path(blob)).size))
    return size
  }

  /** The bytes as a web stream, read from disk as they are sent (downloads can be 100 MB). */
  stream(blob: string): ReadableStream<Uint8Array> {
    return Readable.toWeb(createReadStream(this.path(blob))) as ReadableStream<Uint8Array>
  }

  /** Keeps the bytes of the blobs `needed` answers true for when they are removed (snapshots hold them). */
  keep(needed: (blob: string) => boolean): void {
    this.keepers.push(needed)
  }

  /** Forgets an upload's bytes, unless a keeper still needs them; samples are shared and never removed. */
  remove(blob: string): void {
    if (!blob.startsWith(UPLOAD) || this.keepers.some((needed) => needed(blob))) return
    rmSync(this.path(blob), { force: true })
  }

  /** Removes the temporary uploads folder now (a kept --data folder stays). */
  dispose(): void {
    if (this.dir === undefined || !temporaryFolders.has(this.dir)) return
    rmSync(this.dir, { recursive: true, force: true })
    temporaryFolders.delete(this.dir)
    this.dir = undefined
  }
}
