export { presentCase, presentCaseItem, presentCaseReview } from './present.ts'
export type { CaseItemRow, CaseReviewRow, CaseRow } from './rows.ts'
export { addItems, createCase, getCase, requireCases, reviewCase, setCaseAssignees, updateCase } from './service.ts'
export { caseTables } from './tables.ts'
