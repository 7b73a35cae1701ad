// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupByEach, type GroupIndex } from '../../store/table.ts'
import type { RecordDocumentRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    record_documents: RecordDocumentRow[]
  }
  interface TeamTables {
    recordDocuments: Table<RecordDocumentRow>
    documentsByRecord: GroupIndex<number, RecordDocumentRow>
    /** The record documents that hold each attachment (what may not be deleted with a file). */
    documentsByAttachment: GroupByEach<number, RecordDocumentRow>
  }
  interface IdSequences {
    record_document: true
  }
}

export const recordDocumentTables = declareTables({
  rows: ['record_documents'],
  open(state, team) {
    const recordDocuments = new Table(state.record_documents, team.changes)
    return {
      recordDocuments,
      documentsByRecord: recordDocuments.groupBy((document) => document.record),
      documentsByAttachment: recordDocuments.groupByEach((document) => document.attachments),
    }
  },
  // A client's records go with their documents (records are dropped after this); the attachments they held are returned.
  dropClient(team, client) {
    const held: number[] = []
    for (const record of team.recordsByClient.get(client)) {
      for (const document of [...team.documentsByRecord.get(record.id)]) {
        held.push(...document.attachments)
        team.recordDocuments.delete(document.id)
      }
    }
    return held
  },
})
