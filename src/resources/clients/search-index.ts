// The clients' search index: for every run of three letters (a trigram) and of two in a client's
// folded name parts and reference, the clients that have it. A search word of three letters or
// more can only match a client that has each of its trigrams, so the rarest trigram of the rarest
// word names a few candidates; a word of two letters names exactly the clients that hold it (a
// search as the user types). Each candidate is then checked against its folded fields as the
// index keeps them (folded once with kernel/search.ts, not on every search). Built at the first
// search, then kept in step with inserts, deletes and changes of a client's name or reference
// (Table.changed).
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
function runsOf(text: string, length: number, into = new Set<string>()): Set<string> {
  for (let start = 0; start + length <= text.length; start++) into.add(text.slice(start, start + length))
  return into
}

/** What a client's text is indexed under: every run of two letters and of three. */
const gramsOf = (text: string) => runsOf(text, 3, runsOf(text, 2))

/**
 * What a search word is looked up by: its trigrams, or a word of two letters itself (a text holds
 * it exactly when it has that run of two); none for a word of one letter.
 */
const keysOf = (word: string) => (word.length === 2 ? new Set([word]) : runsOf(word, 3))

/** A client as the index holds it: the row, and its searched fields folded, one a line. */
export interface IndexedClient {
  readonly client: ClientRow
  /** What a search word must be found in (a word has no white space, so it never spans two lines). */
  readonly text: string
}

export class ClientSearchIndex implements RowIndex<ClientRow> {
  /**
   * For each run of two or three letters, the clients that have it. Each holds the client's entry, not its id: a search
   * reads the row and its folded text from the entry, with no lookup by id for each candidate.
   */
  private readonly byGram = new Map<string, IndexedClient[]>()
  /** Each indexed client's entry, its text as it was when it was indexed (what a removal takes out). */
  private readonly entries = new Map<ClientRow, IndexedClient>()
  private built = false

  constructor(private readonly rows: Iterable<ClientRow>) {}

  add(client: ClientRow): void {
    if (!this.built) return
    const entry: IndexedClient = { client, text: foldedFields(client) }
    this.entries.set(client, entry)
    for (const gram of gramsOf(entry.text)) {
      const holders = this.byGram.get(gram)
      if (holders) holders.push(entry)
      else this.byGram.set(gram, [entry])
    }
  }

  remove(client: ClientRow): void {
    const entry = this.entries.get(client)
    if (entry === undefined) return
    this.entries.delete(client)
    for (const gram of gramsOf(entry.text)) {
      const holders = this.byGram.get(gram) as IndexedClient[]
      holders.splice(holders.indexOf(entry), 1)
      if (holders.length === 0) this.byGram.delete(gram)
    }
  }

  update(client: ClientRow): void {
    if (!this.built) return
    this.remove(client)
    this.add(client)
  }

  /**
   * Every client whose own fields may hold the (folded) word, or undefined when the index cannot
   * narrow it down (a word of one letter).
   */
  candidates(word: string): readonly IndexedClient[] | undefined {
    const keys = keysOf(word)
    if (keys.size === 0) return undefined
    if (!this.built) this.build()
    let rarest: readonly IndexedClient[] | undefined
    for (const key of keys) {
      const holders = this.byGram.get(key) ?? []
      if (rarest === undefined || holders.length < rarest.length) rarest = holders
    }
    return rarest
  }

  /** The client's entry (its folded text), for a client found otherwise (a scan, an organisation's name). */
  entry(client: ClientRow): IndexedClient {
    if (!this.built) this.build()
    return this.entries.get(client) ?? { client, text: foldedFields(client) }
  }

  private build(): void {
    this.built = true
    for (const client of this.rows) this.add(client)
  }
}
