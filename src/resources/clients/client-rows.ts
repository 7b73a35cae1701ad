// Indexes of the rows that belong to the team's clients (their records, files, forms) by something
// of the client's: who is assigned to it, whether it is archived. A list filtered by it (what an
// assigned-only member sees, the records by their client's visibility) is then a part as it is,
// not a scan of the team's rows. That something changes on the client's row, so the rows' table
// follows the clients' table (Table.follows): a change to a client moves the client's rows.
import { visibilityOf, type Visibility } from '../../kernel/visibility.ts'
import type { GroupIndex, Partition, PartitionByEach, Table } from '../../store/table.ts'
import type { Team } from '../../store/world.ts'
import { assignedUsers } from '../assignees/index.ts'

type ClientsRow = { readonly id: number; readonly client: number }

/** The rows in parts by the users assigned to their client (none: in no part), each part in `before`'s order. */
export function partitionByClientAssignees<T extends ClientsRow>(team: Team, table: Table<T>, byClient: GroupIndex<number, T>, before: (a: T, b: T) => boolean): PartitionByEach<number, T> {
  followClients(team, table, byClient)
  return table.partitionByEach((row) => {
    const client = team.clients.get(row.client)
    return client === undefined ? [] : assignedUsers(client)
  }, before)
}

/** The rows of active and of archived clients, each part in `before`'s order. */
export function partitionByClientVisibility<T extends ClientsRow>(team: Team, table: Table<T>, byClient: GroupIndex<number, T>, before: (a: T, b: T) => boolean): Partition<Visibility, T> {
  followClients(team, table, byClient)
  // A row outlives its client only while the client is being deleted (its rows go first).
  return table.partitionBy((row) => visibilityOf(team.clients.get(row.client) ?? { archived_at: null }), before)
}

/** The table's indexes follow each change to a client's row, for each of the client's rows. */
function followClients<T extends ClientsRow>(team: Team, table: Table<T>, byClient: GroupIndex<number, T>): void {
  table.follows(team.clients, (client) => byClient.get(client.id))
}
