export { presentMember, presentTeam } from './present.ts'
export { listMembers, type Member } from './service.ts'
