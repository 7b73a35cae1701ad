import { describe, expect, it } from 'vitest'
import { createTestMock, NOW } from '../support/mock.ts'


describe('GET /status', () => {
  it('answers 204 without a body for a valid token', async () => {
    const res = await createTestMock().api().get('/status')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
  })

  it('answers 401 without a token', async () => {
    const res = await createTestMock().api().as(undefined).get('/status')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })
})

describe('GET /me', () => {
  it('is the user the token belongs to', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api('read-only').get('/me')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      object: 'user',
      id: users['read-only'].id,
      name: users['read-only'].name,
      email: users['read-only'].email,
      is_verified: true,
      is_disabled: false,
      created_at: NOW,
      updated_at: NOW,
    })
  })
})

describe('PATCH /me', () => {
  it('changes the name at once and stamps updated_at', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    mock.clock.advance(60_000)
    const res = await api().patch('/me', { name: 'robert GALE' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: users.owner.id, name: 'robert GALE', updated_at: '2026-07-01T12:01:00Z' })
    expect((await api().get('/me')).body.name).toBe('robert GALE')
  })

  it('keeps showing the current email until the change is confirmed', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api().patch('/me', { email: 'new.address@example.com' })
    expect(res.status).toBe(200)
    expect(res.body.email).toBe(users.owner.email)
    expect(mock.store.user(users.owner.id)?.pending_email).toBe('new.address@example.com')
  })

  it('refuses an email that belongs to another user', async () => {
    const mock = createTestMock()
    const { api, users } = mock.newTeam()
    const res = await api().patch('/me', { email: users.member.email })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ email: ['The email has already been taken.'] })
  })

  it('needs at least one property', async () => {
    const res = await createTestMock().api().patch('/me', {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('validates each field', async () => {
    const res = await createTestMock().api().patch('/me', { name: '', email: 'not-an-email' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      name: ['The name field is required.'],
      email: ['The email field must be a valid email address.'],
    })
  })
})

describe('GET /me/teams', () => {
  it('lists every team of a user in two teams, without identifier', async () => {
    const res = await createTestMock().api('ivs_shared_globex').get('/me/teams')
    expect(res.status).toBe(200)
    expect(res.body.data.map((team: { name: string }) => team.name)).toEqual(['Acme Recruitment', 'Globex Legal LLP'])
    expect(res.body.data[0]).not.toHaveProperty('identifier')
    expect(res.body).toMatchObject({ object: 'paginated_list', total: 2, count: 2, limit: 25, current_page: 1, total_pages: 1, links: null })
  })
})
