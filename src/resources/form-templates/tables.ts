// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type UniqueIndex } from '../../store/table.ts'
import type { FormTemplateRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    form_templates: FormTemplateRow[]
  }
  interface TeamTables {
    formTemplates: Table<FormTemplateRow>
    formTemplatesByReference: UniqueIndex<string, FormTemplateRow>
  }
  interface IdSequences {
    form_template: true
  }
}

export const formTemplateTables = declareTables({
  rows: ['form_templates'],
  open(state, team) {
    const formTemplates = new Table(state.form_templates, team.changes)
    return { formTemplates, formTemplatesByReference: formTemplates.uniqueBy((template) => template.reference) }
  },
})
