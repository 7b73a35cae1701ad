// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { CheckRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    checks: CheckRow[]
  }
  interface TeamTables {
    checks: Table<CheckRow>
  }
  interface IdSequences {
    check: true
  }
}

export const checkTables = declareTables({
  rows: ['checks'],
  open: (state, team) => ({ checks: new Table(state.checks, team.changes) }),
  // A client's records go with their checks (records are dropped after this).
  dropClient(team, client) {
    for (const record of team.recordsByClient.get(client)) for (const step of record.steps) if (step.check !== null) team.checks.delete(step.check)
    return []
  },
})
