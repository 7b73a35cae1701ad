import type { Team } from '../../store/world.ts'

export function clientHasRecords(team: Team, clientId: number): boolean {
  return team.recordsByClient.get(clientId).length > 0
}

export function removeRecordsOfClient(team: Team, clientId: number): void {
  for (const record of [...team.recordsByClient.get(clientId)]) team.records.delete(record.id)
}
