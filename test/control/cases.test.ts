// PUT /_mock/cases/{id}/assignees: the real API only lists a case's assignees (docs/specification-notes.md "Cases"), so the
// control API sets them. Replaces the set, keeps the assignee ids of users named again.
import { describe, expect, it } from 'vitest'
import type { CaseRow } from '../../src/resources/cases/rows.ts'
import { createTestMock, NOW, at, type TestMock } from '../support/mock.ts'

type NewTeam = ReturnType<TestMock['newTeam']>

const MINUTE = 60_000

function giveCase(mock: TestMock, team: NewTeam, client: number): CaseRow {
  return team.team.cases.insert({
    id: mock.store.nextId('case'),
    client,
    name: 'Onboarding',
    reference: null,
    status: 'action_required',
    status_changed_at: NOW,
    items: [],
    assignees: [],
    created_by: team.users.owner.id,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
  })
}

async function world() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const res = await team.api().post('/clients', { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann@example.com' })
  expect(res.status, res.text).toBe(201)
  const row = giveCase(mock, team, res.body.id)
  return { mock, team, row }
}

const memberJson = (team: NewTeam, role: 'owner' | 'member' | 'assigned-only' | 'read-only') => {
  const user = team.users[role]
  return { object: 'team_member', id: user.id, name: user.name, email: user.email, role }
}

describe('PUT /_mock/cases/{id}/assignees', () => {
  it('sets the assignees without a token and answers them all as a list over GET /cases/{id}/assignees', async () => {
    const { mock, team, row } = await world()
    const mark = mock.events.length
    const users = [team.users.member.id, team.users['assigned-only'].id]
    const res = await mock.control.put(`/cases/${row.id}/assignees`, { team_members: users })
    expect(res.status, res.text).toBe(200)
    const ids = row.assignees.map((assignee) => assignee.id)
    expect(res.body).toEqual({
      object: 'list',
      data: [
        { object: 'assignee', id: ids[0], type: 'team_member', team_member: memberJson(team, 'member') },
        { object: 'assignee', id: ids[1], type: 'team_member', team_member: memberJson(team, 'assigned-only') },
      ],
      total: 2,
      count: 2,
      limit: 25,
      has_more: false,
      url: `http://localhost/api/v2/cases/${row.id}/assignees`,
    })
    expect(row.assignees).toEqual([
      { id: ids[0], user: users[0], created_at: NOW },
      { id: ids[1], user: users[1], created_at: NOW },
    ])
    // Nothing else about the case changes, and nothing is published.
    expect(row.updated_at).toBe(NOW)
    expect(mock.events).toHaveLength(mark)
  })

  it('replaces the set: users named again keep their assignee id, the others go, a repeated user is assigned once', async () => {
    const { mock, team, row } = await world()
    await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [team.users.member.id, team.users['assigned-only'].id] })
    const kept = row.assignees[1]
    mock.clock.advance(5 * MINUTE)
    const res = await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [team.users.owner.id, team.users['assigned-only'].id, team.users.owner.id] })
    expect(res.status, res.text).toBe(200)
    // As the API's PUT on assignees: those kept first, then the new ones.
    expect(row.assignees).toEqual([kept, { id: expect.any(Number), user: team.users.owner.id, created_at: at(5) }])
    expect(res.body.data.map((assignee: { id: number }) => assignee.id)).toEqual(row.assignees.map((assignee) => assignee.id))
    expect(res.body.total).toBe(2)
  })

  it('[] removes every assignee', async () => {
    const { mock, team, row } = await world()
    await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [team.users.member.id] })
    const res = await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [] })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({ object: 'list', data: [], total: 0, count: 0, limit: 25, has_more: false, url: `http://localhost/api/v2/cases/${row.id}/assignees` })
    expect(row.assignees).toEqual([])
  })

  it('finds a case of any team (ids are unique across teams)', async () => {
    const { mock, row } = await world()
    const other = mock.newTeam()
    const client = (await other.api().post('/clients', { name: { first_name: 'Bo', last_name: 'Hart' }, email: 'bo@example.com' })).body.id
    const theirs = giveCase(mock, other, client)
    const res = await mock.control.put(`/cases/${theirs.id}/assignees`, { team_members: [other.users.member.id] })
    expect(res.status, res.text).toBe(200)
    expect(theirs.assignees.map((assignee) => assignee.user)).toEqual([other.users.member.id])
    expect(row.assignees).toEqual([])
  })

  it('answers 404 for an unknown case', async () => {
    const { mock, team } = await world()
    const res = await mock.control.put('/cases/987654321/assignees', { team_members: [team.users.member.id] })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: 'Case not found' })
  })

  it('answers 422 for a user who is not a current member of the case team, and changes nothing', async () => {
    const { mock, team, row } = await world()
    await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [team.users.member.id] })
    const before = structuredClone(row.assignees)
    const outsider = mock.newTeam().users.owner.id
    const left = team.users['read-only'].id
    ;(team.team.membership(left) as { role: unknown }).role = null
    const res = await mock.control.put(`/cases/${row.id}/assignees`, { team_members: [team.users.owner.id, outsider, 987654, left] })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      'team_members.1': ['The selected team member is invalid.'],
      'team_members.2': ['The selected team member is invalid.'],
      'team_members.3': ['The selected team member is invalid.'],
    })
    expect(row.assignees).toEqual(before)
  })

  it('answers 422 for a body that is not {team_members: [user ids]}', async () => {
    const { mock, row } = await world()
    const bodies: Array<[unknown, Record<string, string[]>]> = [
      [{}, { team_members: ['The team members field is required.'] }],
      [{ team_members: 'everyone' }, { team_members: ['The team members field must be an array.'] }],
      [{ team_members: ['x'] }, { 'team_members.0': ['The team members field must be an integer.'] }],
      [{ team_members: Array.from({ length: 26 }, (_, i) => i + 1) }, { team_members: ['The team members field must not have more than 25 items.'] }],
      [{ team_members: [], extra: 1 }, { extra: ['The extra field is not allowed.'] }],
    ]
    for (const [body, errors] of bodies) {
      const res = await mock.control.put(`/cases/${row.id}/assignees`, body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(res.body, JSON.stringify(body)).toEqual(errors)
    }
    expect(row.assignees).toEqual([])
  })
})
