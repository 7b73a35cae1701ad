export { presentCorrection } from './present.ts'
export { proposeCorrection, type ProposedName } from './service.ts'
