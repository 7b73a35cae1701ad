// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { ClientRow } from './rows.ts'
import { ClientSearchIndex } from './search-index.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    clients: ClientRow[]
  }
  interface TeamTables {
    clients: Table<ClientRow>
    /** Trigrams of the clients' names and references, for the search (search-index.ts). */
    clientSearch: ClientSearchIndex
  }
  interface IdSequences {
    client: true
  }
}

export const clientTables = declareTables({
  rows: ['clients'],
  open(state) {
    const clients = new Table(state.clients)
    return { clients, clientSearch: clients.index(new ClientSearchIndex(state.clients)) }
  },
})
