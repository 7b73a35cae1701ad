// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { compareBy } from '../../kernel/sort.ts'
import { Table, type GroupByEach, type GroupIndex, type OrderedRows, type PartitionByEach, type UniqueIndex } from '../../store/table.ts'
import { attachmentsInAnswers } from '../attachments/index.ts'
import { partitionByClientAssignees } from '../clients/index.ts'
import type { FormRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    forms: FormRow[]
  }
  interface TeamTables {
    forms: Table<FormRow>
    formsByClient: GroupIndex<number, FormRow>
    formsByReference: UniqueIndex<string, FormRow>
    /** The forms by created_at (a record's forms come with it, a client's internal ones at their own moments). */
    formsByCreation: OrderedRows<FormRow>
    /** The forms of the clients each user is assigned to, by created_at (what an assigned-only member lists). */
    formsByAssignee: PartitionByEach<number, FormRow>
    /** The forms whose answers hold each attachment (what may not be deleted with a file). */
    formsByAttachment: GroupByEach<number, FormRow>
  }
  interface IdSequences {
    form: true
  }
}

export const formTables = declareTables({
  rows: ['forms'],
  open(state, team) {
    const forms = new Table(state.forms, team.changes)
    const formsByClient = forms.groupBy((form) => form.client)
    const byCreation = compareBy((form: FormRow) => form.created_at)
    return {
      forms,
      formsByClient,
      formsByReference: forms.uniqueBy((form) => form.reference),
      formsByCreation: forms.orderedBy(byCreation),
      formsByAssignee: partitionByClientAssignees(team, forms, formsByClient, (a, b) => byCreation(a, b) < 0),
      formsByAttachment: forms.groupByEach((form) => attachmentsInAnswers(form.fields)),
    }
  },
  dropClient(team, client) {
    const held: number[] = []
    for (const form of [...team.formsByClient.get(client)]) {
      held.push(...attachmentsInAnswers(form.fields))
      team.forms.delete(form.id)
    }
    return held
  },
})
