// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { OrganisationRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    organisations: OrganisationRow[]
  }
  interface TeamTables {
    organisations: Table<OrganisationRow>
  }
  interface IdSequences {
    organisation: true
  }
}

export const organisationTables = declareTables({
  rows: ['organisations'],
  open: (state, team) => ({ organisations: new Table(state.organisations, team.changes) }),
  // An organisation holds its clients' ids: a deleted client leaves every organisation.
  dropClient(team, client) {
    for (const organisation of team.organisations.filter((row) => row.clients.includes(client))) team.organisations.update(organisation, { clients: organisation.clients.filter((id) => id !== client) })
    return []
  },
})
