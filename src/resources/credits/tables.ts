// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { compareBy } from '../../kernel/sort.ts'
import { Table, type RowIndex, type OrderedRows } from '../../store/table.ts'
import type { CreditRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    credits: CreditRow[]
  }
  interface TeamTables {
    credits: Table<CreditRow>
    /** The sum of the entries, kept as they come and go (a record pays from it). */
    creditBalance: CreditBalance
    /** The entries by created_at (a record's charges are written after purchases dated later). */
    creditsByCreation: OrderedRows<CreditRow>
  }
  interface IdSequences {
    credit: true
  }
}

/** The team's balance: ledger entries are never changed once written, so adding them up as they come is exact. */
export class CreditBalance implements RowIndex<CreditRow> {
  total = 0

  add(entry: CreditRow): void {
    this.total += entry.credits
  }

  remove(entry: CreditRow): void {
    this.total -= entry.credits
  }
}

export const creditTables = declareTables({
  rows: ['credits'],
  open(state, team) {
    const credits = new Table(state.credits, team.changes)
    return { credits, creditBalance: credits.index(new CreditBalance()), creditsByCreation: credits.orderedBy(compareBy((entry) => entry.created_at)) }
  },
})
