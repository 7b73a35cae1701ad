// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { AttachmentRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    attachments: AttachmentRow[]
  }
  interface TeamTables {
    attachments: Table<AttachmentRow>
  }
  interface IdSequences {
    attachment: true
  }
}

export const attachmentTables = declareTables({
  rows: ['attachments'],
  open: (state, team) => ({ attachments: new Table(state.attachments, team.changes) }),
  blobs: (state) => state.attachments.map((attachment) => attachment.blob),
})
