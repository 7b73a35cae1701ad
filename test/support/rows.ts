// Rows put straight into a team's state, for data whose endpoints are not served yet (records).
// Replace with API calls once those endpoints exist.
import type { Team } from '../../src/store/world.ts'
import { NOW, type TestMock } from './mock.ts'

/** Gives a client a record. */
export function giveRecord(mock: TestMock, team: Team, clientId: number): void {
  const client = team.clients.get(clientId)
  if (!client) throw new Error(`no client ${clientId}`)
  team.records.insert({
    id: mock.store.nextId('record'),
    client: clientId,
    created_by: null,
    email: client.email,
    name: { ...client.name },
    reference: client.reference,
    template: null,
    notification: false,
    message: null,
    has_reminders: false,
    is_declaration_required: false,
    steps: [],
    assignees: [],
    perform_token: 'test',
    reviewed_at: null,
    emails: [],
    created_at: NOW,
    updated_at: NOW,
    expired_at: NOW,
    archived_at: null,
    declaration_confirmed_at: null,
    finished_at: null,
  })
}
