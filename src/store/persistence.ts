// Where the world lives: in memory (the default) or in a JSON file with --data, through one
// lowdb instance per file (lowdb writes atomically: temp file, then rename).
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Low, Memory } from 'lowdb'
import { JSONFile } from 'lowdb/node'
import { Store, WORLD_FORMAT, type TableDeclaration, type WorldData } from './world.ts'

export class DataFileError extends Error {}

export interface OpenedWorld {
  store: Store
  /** Writes the world to its file (a no-op in memory). */
  save(): Promise<void>
  /** seeded: built from fixtures now; loaded: read back from the data file. */
  origin: 'seeded' | 'loaded'
}

/** tables: every resource's tables (src/tables.ts). */
export async function openWorld(options: { file?: string | undefined; build: () => WorldData; tables: readonly TableDeclaration[] }): Promise<OpenedWorld> {
  // A data file in a folder that does not exist yet gets the folder, as a missing file gets seeded.
  if (options.file) createFolderOf(options.file)
  const db = new Low<WorldData | null>(options.file ? new JSONFile<WorldData | null>(options.file) : new Memory<WorldData | null>(), null)
  try {
    await db.read()
  } catch (error) {
    throw new DataFileError(`cannot read data file ${options.file ?? ''}: ${(error as Error).message}`, { cause: error })
  }
  let origin: OpenedWorld['origin'] = 'loaded'
  if (db.data === null) {
    db.data = options.build()
    origin = 'seeded'
    try {
      await db.write()
    } catch (error) {
      throw new DataFileError(`cannot write data file ${options.file ?? ''}: ${reason(error)}`, { cause: error })
    }
  } else if ((db.data.format as number) !== WORLD_FORMAT) {
    throw new DataFileError(
      `data file ${options.file ?? ''} has format ${String(db.data.format)}, this version reads format ${String(WORLD_FORMAT)}; delete it to start from the seeded world`,
    )
  }
  return { store: new Store(db.data, options.tables), save: () => db.write(), origin }
}

/** An error's code (EACCES, ENOTDIR...) when it has one: the one word a user can act on. */
const reason = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message

function createFolderOf(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true })
  } catch (error) {
    throw new DataFileError(`cannot create the folder ${dirname(file)} for data file ${file}: ${reason(error)}`, { cause: error })
  }
}
