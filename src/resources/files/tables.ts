// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex, type InsertionOrder, type PartitionByEach } from '../../store/table.ts'
import { partitionByClientAssignees } from '../clients/index.ts'
import type { ClientDocumentRow, FileRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    files: FileRow[]
    client_documents: ClientDocumentRow[]
  }
  interface TeamTables {
    files: Table<FileRow>
    filesByClient: GroupIndex<number, FileRow>
    filesByAttachment: GroupIndex<number, FileRow>
    /** Whether the files as stored are in id order (the list's default sort). */
    filesInIdOrder: InsertionOrder<FileRow>
    /** The files of the clients each user is assigned to, in id order (what an assigned-only member lists). */
    filesByAssignee: PartitionByEach<number, FileRow>
    clientDocuments: Table<ClientDocumentRow>
  }
  interface IdSequences {
    file: true
    client_document: true
  }
}

export const fileTables = declareTables({
  rows: ['files', 'client_documents'],
  open(state, team) {
    const files = new Table(state.files, team.changes)
    const filesByClient = files.groupBy((file) => file.client)
    return {
      files,
      filesByClient,
      filesByAttachment: files.groupBy((file) => file.attachment),
      filesInIdOrder: files.insertionOrder((a, b) => a.id < b.id),
      filesByAssignee: partitionByClientAssignees(team, files, filesByClient, (a, b) => a.id < b.id),
      clientDocuments: new Table(state.client_documents, team.changes),
    }
  },
  dropClient(team, client) {
    const held: number[] = []
    for (const file of [...team.filesByClient.get(client)]) {
      held.push(file.attachment)
      team.files.delete(file.id)
    }
    for (const document of team.clientDocuments.filter((row) => row.client === client)) team.clientDocuments.delete(document.id)
    return held
  },
})
