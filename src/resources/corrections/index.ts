export { presentCorrection } from './present.ts'
export { proposeCorrection, type ProposedName } from './service.ts'
export type { CorrectionRow } from './rows.ts'
export { correctionTables } from './tables.ts'
