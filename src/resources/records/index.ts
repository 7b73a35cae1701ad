import type { TeamState } from '../../store/world.ts'

export function clientHasRecords(team: TeamState, clientId: number): boolean {
  return team.records.some((record) => record.client === clientId)
}

export function removeRecordsOfClient(team: TeamState, clientId: number): void {
  team.records = team.records.filter((record) => record.client !== clientId)
}
