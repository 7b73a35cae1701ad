// The clients' search index: for every trigram (three letters in a row) of a client's folded name
// parts and reference, the ids of the clients that have it. A search word of three letters or more
// can only match a client that has each of its trigrams, so the rarest trigram of the rarest word
// names a few candidates, and each candidate is then checked with the search's own matching
// (kernel/search.ts): the index only narrows, it never decides. Built at the first search, then
// kept in step with inserts, deletes and changes of a client's name or reference (Table.changed).
import { foldText } from '../../kernel/search.ts'
import type { RowIndex } from '../../store/table.ts'
import type { ClientRow } from './rows.ts'

/** The fields of a client the search reads itself (its organisations' names are read live). */
export function searchedFields(client: ClientRow): Array<string | null> {
  return [client.name.first_name, client.name.middle_name, client.name.last_name, client.reference]
}

/** A word's trigrams (none when shorter than three letters). */
export function trigrams(word: string): Set<string> {
  const grams = new Set<string>()
  for (let start = 0; start + 3 <= word.length; start++) grams.add(word.slice(start, start + 3))
  return grams
}

export class ClientSearchIndex implements RowIndex<ClientRow> {
  private readonly idsByTrigram = new Map<string, number[]>()
  /**
   * Each indexed client's folded fields as they were when it was indexed, one text a line each
   * (what a removal takes out): a string a client, where its trigrams would be twenty. Trigrams
   * across two lines hold a line break, which no search word has: they never narrow anything.
   */
  private readonly indexedText = new Map<ClientRow, string>()
  private built = false

  constructor(private readonly rows: Iterable<ClientRow>) {}

  add(client: ClientRow): void {
    if (!this.built) return
    const text = searchedFields(client)
      .filter((field): field is string => Boolean(field))
      .map(foldText)
      .join('\n')
    this.indexedText.set(client, text)
    for (const gram of trigrams(text)) {
      const ids = this.idsByTrigram.get(gram)
      if (ids) ids.push(client.id)
      else this.idsByTrigram.set(gram, [client.id])
    }
  }

  remove(client: ClientRow): void {
    const text = this.indexedText.get(client)
    if (text === undefined) return
    this.indexedText.delete(client)
    for (const gram of trigrams(text)) {
      const ids = this.idsByTrigram.get(gram) as number[]
      ids.splice(ids.indexOf(client.id), 1)
      if (ids.length === 0) this.idsByTrigram.delete(gram)
    }
  }

  update(client: ClientRow): void {
    if (!this.built) return
    this.remove(client)
    this.add(client)
  }

  /**
   * The ids of every client whose own fields may hold the (folded) word, or undefined when the
   * index cannot narrow it down (shorter than three letters).
   */
  candidates(word: string): readonly number[] | undefined {
    const grams = trigrams(word)
    if (grams.size === 0) return undefined
    if (!this.built) this.build()
    let rarest: readonly number[] | undefined
    for (const gram of grams) {
      const ids = this.idsByTrigram.get(gram) ?? []
      if (rarest === undefined || ids.length < rarest.length) rarest = ids
    }
    return rarest
  }

  private build(): void {
    this.built = true
    for (const client of this.rows) this.add(client)
  }
}
