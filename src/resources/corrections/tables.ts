// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex } from '../../store/table.ts'
import type { CorrectionRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    corrections: CorrectionRow[]
  }
  interface TeamTables {
    corrections: Table<CorrectionRow>
    correctionsByClient: GroupIndex<number, CorrectionRow>
  }
  interface IdSequences {
    correction: true
  }
}

export const correctionTables = declareTables({
  rows: ['corrections'],
  open(state, team) {
    const corrections = new Table(state.corrections, team.changes)
    return { corrections, correctionsByClient: corrections.groupBy((correction) => correction.client) }
  },
  dropClient(team, client) {
    for (const correction of [...team.correctionsByClient.get(client)]) team.corrections.delete(correction.id)
    return []
  },
})
