// Rows put straight into a team's state, for data whose endpoints are not served yet (records).
// Replace with API calls once those endpoints exist.
import type { Team } from '../../src/store/world.ts'
import { NOW, type TestMock } from './mock.ts'


/** Gives a client a record. */
export function giveRecord(mock: TestMock, team: Team, clientId: number): void {
  team.records.insert({ id: mock.store.nextId('record'), client: clientId, created_by: null, created_at: NOW, updated_at: NOW })
}
