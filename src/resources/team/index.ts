export { presentMember, presentTeam } from './present.ts'
export { listMembers, memberOf, type Member } from './service.ts'
