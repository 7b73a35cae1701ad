import type { StepReviewStatusJson } from '../../contracts/generated.ts'

export type ReviewStatus = StepReviewStatusJson

export interface StepReviewRow {
  readonly id: number
  readonly record: number
  readonly step: number
  readonly reviewed_by: number
  readonly status: ReviewStatus
  readonly from_status: ReviewStatus
  readonly message: string | null
  readonly created_at: string
  readonly updated_at: string
}
