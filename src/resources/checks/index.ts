export { checkAsFileSource, presentCheck } from './present.ts'
export { findCheck, getCheck } from './service.ts'
