// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { ClientRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    clients: ClientRow[]
  }
  interface TeamTables {
    clients: Table<ClientRow>
  }
  interface IdSequences {
    client: true
  }
}

export const clientTables = declareTables({
  rows: ['clients'],
  open: (state) => ({ clients: new Table(state.clients) }),
})
