export { presentStepReview } from './present.ts'
export { findRecordStep, reviewStatusOf } from './service.ts'
