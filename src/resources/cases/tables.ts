// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex } from '../../store/table.ts'
import type { CaseReviewRow, CaseRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    cases: CaseRow[]
    case_reviews: CaseReviewRow[]
  }
  interface TeamTables {
    cases: Table<CaseRow>
    casesByClient: GroupIndex<number, CaseRow>
    caseReviews: Table<CaseReviewRow>
    reviewsByCase: GroupIndex<number, CaseReviewRow>
  }
  interface IdSequences {
    case: true
    case_item: true
    case_review: true
  }
}

export const caseTables = declareTables({
  rows: ['cases', 'case_reviews'],
  open(state, team) {
    const cases = new Table(state.cases, team.changes)
    const caseReviews = new Table(state.case_reviews, team.changes)
    return { cases, casesByClient: cases.groupBy((row) => row.client), caseReviews, reviewsByCase: caseReviews.groupBy((review) => review.case) }
  },
  dropClient(team, client) {
    for (const row of [...team.casesByClient.get(client)]) {
      for (const review of [...team.reviewsByCase.get(row.id)]) team.caseReviews.delete(review.id)
      team.cases.delete(row.id)
    }
    return []
  },
})
