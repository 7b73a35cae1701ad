// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type InsertionOrder, type OrderedRows, type Partition, type PartitionByEach } from '../../store/table.ts'
import { compareBy } from '../../kernel/sort.ts'
import { visibilityOf, type Visibility } from '../../kernel/visibility.ts'
import { assignedUsers } from '../assignees/index.ts'
import type { ClientRow, ClientStatus } from './rows.ts'
import { ClientSearchIndex } from './search-index.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    clients: ClientRow[]
  }
  interface TeamTables {
    clients: Table<ClientRow>
    /** Trigrams of the clients' names and references, for the search (search-index.ts). */
    clientSearch: ClientSearchIndex
    /** Whether the clients as stored are in id order (the list's default sort, without a filter). */
    clientsInIdOrder: InsertionOrder<ClientRow>
    /** Active and archived clients, each in id order (the visibility filter). */
    clientsByVisibility: Partition<Visibility, ClientRow>
    /** The clients of each status (null included), in id order (the status filter). */
    clientsByStatus: Partition<ClientStatus | null, ClientRow>
    /** The clients of each reference, lower-cased (null: none), in id order (the reference filter, which ignores case). */
    clientsByReference: Partition<string | null, ClientRow>
    /** The clients each user is assigned to, in id order (the assignee filter, and what an assigned-only member sees). */
    clientsByAssignee: PartitionByEach<number, ClientRow>
    /** The clients by deletion date, those without one first (the deletion_date filter's buckets: ranges of it). */
    clientsByDeletionDate: OrderedRows<ClientRow>
    /** The clients by first name and by last name (the list's sorts by name, without a filter). */
    clientsByName: Record<'name.first_name' | 'name.last_name', OrderedRows<ClientRow>>
  }
  interface IdSequences {
    client: true
  }
}

/** By deletion date as the filter's buckets compare them (as strings: UTC dates), those without one first, ties by id. */
function byDeletionDate(a: ClientRow, b: ClientRow): number {
  if (a.deletion_date === b.deletion_date) return a.id - b.id
  if (a.deletion_date === null) return -1
  if (b.deletion_date === null) return 1
  return a.deletion_date < b.deletion_date ? -1 : 1
}

export const clientTables = declareTables({
  rows: ['clients'],
  open(state, team) {
    const clients = new Table(state.clients, team.changes)
    return {
      clients,
      clientSearch: clients.index(new ClientSearchIndex(state.clients)),
      clientsInIdOrder: clients.insertionOrder((a, b) => a.id < b.id),
      clientsByVisibility: clients.partitionBy(visibilityOf, (a, b) => a.id < b.id),
      clientsByStatus: clients.partitionBy((client) => client.status, (a, b) => a.id < b.id),
      clientsByReference: clients.partitionBy((client) => client.reference?.toLowerCase() ?? null, (a, b) => a.id < b.id),
      clientsByAssignee: clients.partitionByEach(assignedUsers, (a, b) => a.id < b.id),
      clientsByDeletionDate: clients.orderedBy(byDeletionDate),
      clientsByName: {
        'name.first_name': clients.orderedBy(compareBy((client) => client.name.first_name)),
        'name.last_name': clients.orderedBy(compareBy((client) => client.name.last_name)),
      },
    }
  },
})
