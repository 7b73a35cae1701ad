// The clients' search index: for every run of three letters (a trigram) and of two in a client's
// folded name parts and reference, the clients that have it. A search word of three letters or
// more can only match a client that has each of its trigrams, so the rarest trigram of the rarest
// word names a few candidates; a word of two letters names exactly the clients that hold it (a
// search as the user types). Each candidate is then checked against its folded fields as the
// index keeps them (folded once with kernel/search.ts, not on every search). Built at the first
// search (the runs of two letters at the first word of two), then kept in step with inserts,
// deletes and changes of a client's name or reference (Table.update).
import { foldText } from '../../kernel/search.ts'
import type { RowIndex } from '../../store/table.ts'
import type { ClientRow } from './rows.ts'

/** The fields of a client the search reads itself (its organisations' names are read live). */
function searchedFields(client: ClientRow): Array<string | null> {
  return [client.name.first_name, client.name.middle_name, client.name.last_name, client.reference]
}

function foldedFields(client: ClientRow): string {
  return searchedFields(client)
    .filter((field): field is string => Boolean(field))
    .map(foldText)
    .join('\n')
}

/** The runs of `length` letters in a text (none when it is shorter). */
function runsOf(text: string, length: number): Set<string> {
  const runs = new Set<string>()
  for (let start = 0; start + length <= text.length; start++) runs.add(text.slice(start, start + length))
  return runs
}

/** A client as the index holds it: the row, and its searched fields folded, one a line. */
export interface IndexedClient {
  readonly client: ClientRow
  /** What a search word must be found in (a word has no white space, so it never spans two lines). */
  readonly text: string
}

/** Runs of letters of one length (two or three), each with the clients whose text has it. */
type Runs = Map<string, IndexedClient[]>

export class ClientSearchIndex implements RowIndex<ClientRow> {
  /** Each indexed client's entry, its text as it was when it was indexed (what a removal takes out). */
  private readonly entries = new Map<ClientRow, IndexedClient>()
  private built = false
  /**
   * For each run of three letters, and of two, the clients that have it, each built at the first
   * search that needs it (the runs of two at the first word of two letters). A run holds the
   * clients' entries, not their ids: a search reads the row and its folded text from the entry,
   * with no lookup by id for each candidate.
   */
  private readonly runs = new Map<2 | 3, Runs>()

  constructor(private readonly rows: Iterable<ClientRow>) {}

  add(client: ClientRow): void {
    if (!this.built) return
    const entry: IndexedClient = { client, text: foldedFields(client) }
    this.entries.set(client, entry)
    for (const [length, runs] of this.runs) addTo(runs, runsOf(entry.text, length), entry)
  }

  remove(client: ClientRow): void {
    const entry = this.entries.get(client)
    if (entry === undefined) return
    this.entries.delete(client)
    for (const [length, runs] of this.runs) {
      for (const run of runsOf(entry.text, length)) {
        const holders = runs.get(run) as IndexedClient[]
        holders.splice(holders.indexOf(entry), 1)
        if (holders.length === 0) runs.delete(run)
      }
    }
  }

  update(client: ClientRow): void {
    if (!this.built) return
    this.remove(client)
    this.add(client)
  }

  /**
   * Every client whose own fields may hold the (folded) word, or undefined when the index cannot
   * narrow it down (a word of one letter). A word of three letters or more is looked up by its
   * rarest trigram; one of two letters by itself (a text holds it exactly when it has that run).
   */
  candidates(word: string): readonly IndexedClient[] | undefined {
    if (word.length < 2) return undefined
    const length = word.length === 2 ? 2 : 3
    const runs = this.runsOfLength(length)
    let rarest: readonly IndexedClient[] | undefined
    for (const run of runsOf(word, length)) {
      const holders = runs.get(run) ?? []
      if (rarest === undefined || holders.length < rarest.length) rarest = holders
    }
    return rarest
  }

  /** The client's entry (its folded text), for a client found otherwise (a scan, an organisation's name). */
  entry(client: ClientRow): IndexedClient {
    this.build()
    return this.entries.get(client) ?? { client, text: foldedFields(client) }
  }

  private runsOfLength(length: 2 | 3): Runs {
    this.build()
    let runs = this.runs.get(length)
    if (runs === undefined) {
      runs = new Map()
      for (const entry of this.entries.values()) addTo(runs, runsOf(entry.text, length), entry)
      this.runs.set(length, runs)
    }
    return runs
  }

  private build(): void {
    if (this.built) return
    this.built = true
    for (const client of this.rows) this.add(client)
  }
}

/** Adds an entry to the holders of each of its runs. */
function addTo(runs: Runs, of: Iterable<string>, entry: IndexedClient): void {
  for (const run of of) {
    const holders = runs.get(run)
    if (holders) holders.push(entry)
    else runs.set(run, [entry])
  }
}
