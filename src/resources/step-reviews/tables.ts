// What this resource keeps in each team: its rows, tables and indexes, and its id sequences.
import { declareTables } from '../../store/world.ts'
import { Table, type GroupIndex } from '../../store/table.ts'
import type { StepReviewRow } from './rows.ts'

declare module '../../store/world.ts' {
  interface TeamRows {
    step_reviews: StepReviewRow[]
  }
  interface TeamTables {
    stepReviews: Table<StepReviewRow>
    reviewsByStep: GroupIndex<number, StepReviewRow>
  }
  interface IdSequences {
    step_review: true
  }
}

export const stepReviewTables = declareTables({
  rows: ['step_reviews'],
  open(state, team) {
    const stepReviews = new Table(state.step_reviews, team.changes)
    return { stepReviews, reviewsByStep: stepReviews.groupBy((review) => review.step) }
  },
  // A client's records go with their steps' reviews (records are dropped after this).
  dropClient(team, client) {
    for (const record of team.recordsByClient.get(client)) {
      for (const step of record.steps) for (const review of [...team.reviewsByStep.get(step.id)]) team.stepReviews.delete(review.id)
    }
    return []
  },
})
