// The rows of the team's clients (their files, their forms) in parts by the users assigned to each
// row's client: what an assigned-only member lists of them is then their part as it is, not a
// scan of the team's. A client's assignees change on the client's row, so the clients' table tells
// the rows' table of each change to a client (Table.changed), and the client's rows move.
import type { GroupIndex, PartitionByEach, Table } from '../../store/table.ts'
import type { Team } from '../../store/world.ts'

export function partitionByClientAssignees<T extends { id: number; client: number }>(
  team: Team,
  table: Table<T>,
  byClient: GroupIndex<number, T>,
  before: (a: T, b: T) => boolean,
): PartitionByEach<number, T> {
  const parts = table.partitionByEach((row) => team.clients.peek(row.client)?.assignees.map((assignee) => assignee.user) ?? [], before)
  team.clients.index({
    add() {},
    remove() {},
    update(client) {
      for (const row of byClient.peek(client.id)) table.changed(row)
    },
  })
  return parts
}
