// The clients' search index: for every trigram (three letters in a row) of a client's folded name
// parts and reference, the clients that have it. A search word of three letters or more
// can only match a client that has each of its trigrams, so the rarest trigram of the rarest word
// names a few candidates, and each candidate is then checked against its folded fields as the
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

/** A word's trigrams (none when shorter than three letters). */
export function trigrams(word: string): Set<string> {
  const grams = new Set<string>()
  for (let start = 0; start + 3 <= word.length; start++) grams.add(word.slice(start, start + 3))
  return grams
}

/** A client as the index holds it: the row, and its searched fields folded, one a line. */
export interface IndexedClient {
  readonly client: ClientRow
  /** What a search word must be found in (a word has no white space, so it never spans two lines). */
  readonly text: string
}

export class ClientSearchIndex implements RowIndex<ClientRow> {
  /**
   * For each trigram, the clients that have it. Each holds the client's entry, not its id: a search
   * reads the row and its folded text from the entry, with no lookup by id for each candidate.
   */
  private readonly byTrigram = new Map<string, IndexedClient[]>()
  /** Each indexed client's entry, its text as it was when it was indexed (what a removal takes out). */
  private readonly entries = new Map<ClientRow, IndexedClient>()
  private built = false

  constructor(private readonly rows: Iterable<ClientRow>) {}

  add(client: ClientRow): void {
    if (!this.built) return
    const entry: IndexedClient = { client, text: foldedFields(client) }
    this.entries.set(client, entry)
    for (const gram of trigrams(entry.text)) {
      const holders = this.byTrigram.get(gram)
      if (holders) holders.push(entry)
      else this.byTrigram.set(gram, [entry])
    }
  }

  remove(client: ClientRow): void {
    const entry = this.entries.get(client)
    if (entry === undefined) return
    this.entries.delete(client)
    for (const gram of trigrams(entry.text)) {
      const holders = this.byTrigram.get(gram) as IndexedClient[]
      holders.splice(holders.indexOf(entry), 1)
      if (holders.length === 0) this.byTrigram.delete(gram)
    }
  }

  update(client: ClientRow): void {
    if (!this.built) return
    this.remove(client)
    this.add(client)
  }

  /**
   * Every client whose own fields may hold the (folded) word, or undefined when the index cannot
   * narrow it down (shorter than three letters).
   */
  candidates(word: string): readonly IndexedClient[] | undefined {
    const grams = trigrams(word)
    if (grams.size === 0) return undefined
    if (!this.built) this.build()
    let rarest: readonly IndexedClient[] | undefined
    for (const gram of grams) {
      const holders = this.byTrigram.get(gram) ?? []
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
