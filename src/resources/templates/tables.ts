// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table } from '../../store/table.ts'
import type { RecordTemplateRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    record_templates: RecordTemplateRow[]
  }
  interface TeamTables {
    recordTemplates: Table<RecordTemplateRow>
  }
  interface IdSequences {
    record_template: true
  }
}

export const recordTemplateTables = declareTables({
  rows: ['record_templates'],
  open: (state, team) => ({ recordTemplates: new Table(state.record_templates, team.changes) }),
})
