// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex, type InsertionOrder } from '../../store/table.ts'
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
    clientDocuments: Table<ClientDocumentRow>
  }
  interface IdSequences {
    file: true
    client_document: true
  }
}

export const fileTables = declareTables({
  rows: ['files', 'client_documents'],
  open(state) {
    const files = new Table(state.files)
    return {
      files,
      filesByClient: files.groupBy((file) => file.client),
      filesByAttachment: files.groupBy((file) => file.attachment),
      filesInIdOrder: files.insertionOrder((a, b) => a.id < b.id),
      clientDocuments: new Table(state.client_documents),
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
