// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { CreditRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    credits: CreditRow[]
  }
  interface TeamTables {
    credits: Table<CreditRow>
  }
  interface IdSequences {
    credit: true
  }
}

export const creditTables = declareTables({
  rows: ['credits'],
  open: (state) => ({ credits: new Table(state.credits) }),
})
