// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex, type InsertionOrder, type Partition, type PartitionByEach, type RowIndex, type UniqueIndex } from '../../store/table.ts'
import { visibilityOf, type Visibility } from '../../kernel/visibility.ts'
import { assignedUsers } from '../assignees/index.ts'
import { partitionByClientVisibility } from '../clients/index.ts'
import type { RecordRow } from './rows.ts'
import { createdBefore, RecordStatusIndex, surelyCreatedBefore } from './status-index.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    records: RecordRow[]
  }
  interface TeamTables {
    records: Table<RecordRow>
    recordsByClient: GroupIndex<number, RecordRow>
    /** By the secret of perform_url (the client's perform page). */
    recordsByPerformToken: UniqueIndex<string, RecordRow>
    /** By derived status, for the status filter (status-index.ts). */
    recordsByStatus: RecordStatusIndex
    /** Whether the records as stored are in sort_by=created_at's order (the list without a filter). */
    recordsInCreationOrder: InsertionOrder<RecordRow>
    /** Active and archived records, each in creation order (the visibility filter). */
    recordsByVisibility: Partition<Visibility, RecordRow>
    /** The records each user is assigned to, in creation order (the assignee filter, and what an assigned-only member sees). */
    recordsByAssignee: PartitionByEach<number, RecordRow>
    /** The records with assignees and those without, each in creation order (assignee=true|false). */
    recordsByHavingAssignees: Partition<boolean, RecordRow>
    /** The records each user made, in creation order (created_by). */
    recordsByCreator: Partition<number | null, RecordRow>
    /** The records of active and of archived clients, each in creation order (client_visibility). */
    recordsByClientVisibility: Partition<Visibility, RecordRow>
  }
  interface IdSequences {
    record: true
    step: true
  }
}

/** A row a record is made of (a check, a step review, a record document, a correction). */
interface RecordPart {
  readonly record: number
  readonly updated_at: string
}

export const recordTables = declareTables({
  rows: ['records'],
  // Opened after the tables of what a record is made of (src/tables.ts), which it follows.
  open(state, team) {
    const records = new Table(state.records, team.changes)
    const recordsByClient = records.groupBy((record) => record.client)
    // A record is made of its checks, step reviews, documents and corrections: when one of them is
    // made or changes, the record changes with it (its status is derived again, its updated_at
    // follows), whoever changed it.
    const partChanged = (part: RecordPart) => {
      const record = records.get(part.record)
      if (record) records.update(record, { updated_at: part.updated_at > record.updated_at ? part.updated_at : record.updated_at })
    }
    const follower: RowIndex<RecordPart> = { add: partChanged, update: partChanged, remove() {} }
    team.checks.track(follower)
    team.stepReviews.track(follower)
    team.recordDocuments.track(follower)
    team.corrections.track(follower)
    return {
      records,
      recordsByClient,
      recordsByPerformToken: records.uniqueBy((record) => record.perform_token),
      recordsByStatus: records.index(new RecordStatusIndex(state.records)),
      recordsInCreationOrder: records.insertionOrder(surelyCreatedBefore),
      recordsByVisibility: records.partitionBy(visibilityOf, createdBefore),
      recordsByAssignee: records.partitionByEach(assignedUsers, createdBefore),
      recordsByHavingAssignees: records.partitionBy((record) => record.assignees.length > 0, createdBefore),
      recordsByCreator: records.partitionBy((record) => record.created_by, createdBefore),
      recordsByClientVisibility: partitionByClientVisibility(team, records, recordsByClient, createdBefore),
    }
  },
  // A client with records cannot be deleted (clients/rules.ts).
  holdsClient: (team, client) => team.recordsByClient.get(client).length > 0,
  // What hangs off its records went first (their checks, reviews, documents: src/tables.ts).
  dropClient(team, client) {
    for (const record of [...team.recordsByClient.get(client)]) team.records.delete(record.id)
    return []
  },
})
