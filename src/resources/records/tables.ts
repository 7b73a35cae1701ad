// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupByEach, type GroupIndex, type InsertionOrder, type Partition, type PartitionByEach, type UniqueIndex } from '../../store/table.ts'
import { visibilityOf, type Visibility } from '../../kernel/visibility.ts'
import { assignedUsers } from '../assignees/index.ts'
import { partitionByClientVisibility } from '../clients/index.ts'
import type { CheckRow, CorrectionRow, RecordDocumentRow, RecordRow, RecordTemplateRow, StepReviewRow } from './rows.ts'
import { createdBefore, RecordStatusIndex, surelyCreatedBefore } from './status-index.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    records: RecordRow[]
    checks: CheckRow[]
    step_reviews: StepReviewRow[]
    record_documents: RecordDocumentRow[]
    corrections: CorrectionRow[]
    record_templates: RecordTemplateRow[]
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
    checks: Table<CheckRow>
    stepReviews: Table<StepReviewRow>
    reviewsByStep: GroupIndex<number, StepReviewRow>
    recordDocuments: Table<RecordDocumentRow>
    documentsByRecord: GroupIndex<number, RecordDocumentRow>
    /** The record documents that hold each attachment (what may not be deleted with a file). */
    documentsByAttachment: GroupByEach<number, RecordDocumentRow>
    corrections: Table<CorrectionRow>
    correctionsByClient: GroupIndex<number, CorrectionRow>
    recordTemplates: Table<RecordTemplateRow>
  }
  interface IdSequences {
    record: true
    step: true
    check: true
    step_review: true
    record_document: true
    correction: true
    record_template: true
  }
}

export const recordTables = declareTables({
  rows: ['records', 'checks', 'step_reviews', 'record_documents', 'corrections', 'record_templates'],
  open(state, team) {
    const records = new Table(state.records, team.changes)
    const recordsByClient = records.groupBy((record) => record.client)
    const checks = new Table(state.checks, team.changes)
    const stepReviews = new Table(state.step_reviews, team.changes)
    const recordDocuments = new Table(state.record_documents, team.changes)
    const corrections = new Table(state.corrections, team.changes)
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
      checks,
      stepReviews,
      reviewsByStep: stepReviews.groupBy((review) => review.step),
      recordDocuments,
      documentsByRecord: recordDocuments.groupBy((document) => document.record),
      documentsByAttachment: recordDocuments.groupByEach((document) => document.attachments),
      corrections,
      correctionsByClient: corrections.groupBy((correction) => correction.client),
      recordTemplates: new Table(state.record_templates, team.changes),
    }
  },
  // A client with records cannot be deleted (clients/rules.ts).
  holdsClient: (team, client) => team.recordsByClient.get(client).length > 0,
  // Its records go with everything that hangs off them (checks, reviews, documents), and its corrections.
  dropClient(team, client) {
    const held: number[] = []
    for (const record of [...team.recordsByClient.get(client)]) {
      for (const step of record.steps) {
        if (step.check !== null) team.checks.delete(step.check)
        for (const review of [...team.reviewsByStep.get(step.id)]) team.stepReviews.delete(review.id)
      }
      for (const document of [...team.documentsByRecord.get(record.id)]) {
        held.push(...document.attachments)
        team.recordDocuments.delete(document.id)
      }
      team.records.delete(record.id)
    }
    for (const correction of [...team.correctionsByClient.get(client)]) team.corrections.delete(correction.id)
    return held
  },
})
