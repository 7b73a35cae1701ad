export { presentStepReview } from './present.ts'
export { findRecordStep, reviewStatusOf, reviewStep } from './service.ts'
