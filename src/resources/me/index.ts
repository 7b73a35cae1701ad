export { presentUser } from './present.ts'
