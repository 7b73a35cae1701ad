import type { TeamState } from '../../store/world.ts'

/** Names of the organisations a client belongs to (clients search looks at them). */
export function organisationNamesByClient(team: TeamState): Map<number, string[]> {
  const names = new Map<number, string[]>()
  for (const organisation of team.organisations) {
    for (const client of organisation.clients) names.set(client, [...(names.get(client) ?? []), organisation.name])
  }
  return names
}

export function removeClientFromOrganisations(team: TeamState, clientId: number): void {
  for (const organisation of team.organisations) {
    organisation.clients = organisation.clients.filter((id) => id !== clientId)
  }
}
