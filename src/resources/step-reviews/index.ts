export { presentStepReview } from './present.ts'
export { findRecordStep, reviewStatusOf, reviewStep } from './service.ts'
export type { ReviewStatus, StepReviewRow } from './rows.ts'
export { stepReviewTables } from './tables.ts'
