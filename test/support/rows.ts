// Rows put straight into a team's state, for data whose endpoints are not served yet
// (organisations, records). Replace with API calls once those endpoints exist.
import type { OrganisationRow } from '../../src/resources/organisations/rows.ts'
import type { TeamState } from '../../src/store/world.ts'
import { TEST_NOW, type TestMock } from './mock.ts'

const NOW = TEST_NOW.toISOString().replace(/\.\d+Z$/, 'Z')

export function organisationRow(mock: TestMock, name: string, clients: number[]): OrganisationRow {
  return {
    id: mock.store.nextId('organisation'),
    status: null,
    name,
    company_number: null,
    jurisdiction: null,
    reference: null,
    incorporated_at: null,
    clients,
    assignees: [],
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
  }
}

/** Gives a client a record. */
export function giveRecord(mock: TestMock, team: TeamState, clientId: number): void {
  team.records.push({ id: mock.store.nextId('record'), client: clientId, created_by: null, created_at: NOW, updated_at: NOW })
}
