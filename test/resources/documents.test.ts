// GET /documents: the team's library documents (docs/specification-notes.md "Library templates"), seeded on every team
// with sample files as their attachments; the enabled filter and expand=attachment.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROLES } from '../../src/kernel/roles.ts'
import { samplesDir } from '../../src/paths.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { createTestMock, NOW } from '../support/mock.ts'
import { singlePage } from '../support/wire.ts'

const ORIGIN = 'http://localhost/api/v2'
const STORED_PDF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/

const sizeOf = (file: string) => statSync(join(samplesDir, file)).size

/** The library every team gets, in order: [name, description, is_enabled, sample file, original name]. */
const LIBRARY: Array<[string, string, boolean, string, string]> = [
  ['Employee handbook', 'Our policies, benefits and ways of working. New starters read it before their first day.', true, 'employee-handbook.pdf', 'employee-handbook-2025.pdf'],
  ['Contract of employment', 'The standard permanent contract. The new starter signs the last page and returns it.', true, 'contract-of-employment.pdf', 'contract-of-employment.pdf'],
  ['Privacy notice', 'How we collect, use and keep personal data under UK GDPR, and the rights people have over it.', true, 'privacy-notice.pdf', 'privacy-notice.pdf'],
  ['Privacy notice (2023)', 'The previous privacy notice, replaced in 2025; kept for clients who agreed to it.', false, 'privacy-notice.pdf', 'privacy-notice-2023.pdf'],
]

function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  const documents = team.team.libraryDocuments.all()
  /** The wire document of LIBRARY[index], its attachment collapsed or expanded. */
  const expected = (index: number, expanded = false) => {
    const [name, description, isEnabled, file, original] = LIBRARY[index] as (typeof LIBRARY)[number]
    const row = documents[index]
    if (!row) throw new Error(`no library document ${index}`)
    return {
      object: 'document',
      id: row.id,
      name,
      description,
      is_enabled: isEnabled,
      attachment: expanded
        ? {
            object: 'attachment',
            id: row.attachment,
            name: expect.stringMatching(STORED_PDF),
            original,
            type: 'application/pdf',
            size: sizeOf(file),
            av_status: 'clean',
            created_at: NOW,
            updated_at: NOW,
          }
        : row.attachment,
      created_at: NOW,
      updated_at: NOW,
    }
  }
  return { mock, team, api: team.api(), expected }
}

describe('GET /documents', () => {
  it("lists a new team's library documents, oldest first, each attachment its id", async () => {
    const { api, expected } = setup()
    const res = await api.get('/documents')
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([0, 1, 2, 3].map((index) => expected(index))))
  })

  it('expands each attachment: a sample PDF, scanned clean, under a generated stored name', async () => {
    const { api, team, expected } = setup()
    const res = await api.get('/documents', { expand: 'attachment' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([0, 1, 2, 3].map((index) => expected(index, true))))
    const names = res.body.data.map((document: { attachment: { name: string } }) => document.attachment.name)
    expect(new Set(names).size).toBe(4)
    expect(res.body.data.map((document: { attachment: { id: number } }) => team.team.attachments.get(document.attachment.id)?.blob)).toEqual(
      LIBRARY.map(([, , , file]) => `sample:${file}`),
    )
  })

  it('filters by enabled: true for the enabled ones, false for the retired one', async () => {
    const { api, expected } = setup()
    const enabled = await api.get('/documents', { enabled: true })
    expect(enabled.status).toBe(200)
    expect(enabled.body).toEqual(singlePage([0, 1, 2].map((index) => expected(index))))
    const disabled = await api.get('/documents', { enabled: false, expand: 'attachment' })
    expect(disabled.status).toBe(200)
    expect(disabled.body).toEqual(singlePage([expected(3, true)]))
  })

  it('pages, with links that keep the query', async () => {
    const { api, expected } = setup()
    const res = await api.get('/documents', { limit: 3, page: 2, enabled: 'true' })
    expect(res.status).toBe(200)
    // Only three enabled documents: page 2 is past the end.
    expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 3, count: 0, limit: 3, current_page: 2, total_pages: 1, links: null })
    const second = await api.get('/documents', { limit: 3, page: 2, expand: 'attachment' })
    expect(second.body).toEqual({
      object: 'paginated_list',
      data: [expected(3, true)],
      total: 4,
      count: 1,
      limit: 3,
      current_page: 2,
      total_pages: 2,
      links: { next: null, previous: `${ORIGIN}/documents?limit=3&page=1&expand=attachment` },
    })
  })

  it.each([
    [{ enabled: 'maybe' }, { enabled: ['The enabled field must be true or false.'] }],
    [{ expand: 'file' }, { expand: ['The expand parameter must be one of: attachment'] }],
    [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
  ])('answers 422 for %j', async (query, errors) => {
    const res = await setup().api.get('/documents', query)
    expect(res.status).toBe(422)
    expect(res.body).toEqual(errors)
  })

  it('answers every role the same, only its own team the library of that team, and 401 without a token', async () => {
    const { mock, team, api } = setup()
    const owners = await api.get('/documents', { expand: 'attachment' })
    for (const role of ROLES) {
      const res = await team.api(role).get('/documents', { expand: 'attachment' })
      expect(res.status, role).toBe(200)
      expect(res.body, role).toEqual(owners.body)
    }
    const other = await mock.newTeam().api('read-only').get('/documents')
    expect(other.status).toBe(200)
    expect(other.body.data.map((document: { name: string }) => document.name)).toEqual(LIBRARY.map(([name]) => name))
    const ids = (body: { data: Array<{ id: number; attachment: number }> }) => body.data.flatMap((document) => [document.id, document.attachment])
    const mine = ids((await api.get('/documents')).body)
    expect(ids(other.body).some((id) => mine.includes(id))).toBe(false)
    const anonymous = await api.as(undefined).get('/documents')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ error: 'Unauthenticated.' })
  })

  it('lists the seeded library of a fixture team, made in its first year, before the epoch', async () => {
    const mock = createTestMock()
    const res = await mock.api().get('/documents', { expand: 'attachment' })
    expect(res.status).toBe(200)
    expect(res.body.data.map((document: { name: string; is_enabled: boolean }) => [document.name, document.is_enabled])).toEqual(LIBRARY.map(([name, , enabled]) => [name, enabled]))
    const acme = [...mock.store.allTeams()][0]
    for (const document of res.body.data) {
      expect(typeof document.description).toBe('string')
      expect(document.created_at <= document.updated_at && document.updated_at < fixture.epoch).toBe(true)
      expect(document.created_at >= (acme?.row.created_at ?? '')).toBe(true)
      expect(document.attachment.created_at).toBe(document.created_at)
    }
    expect(contracts.schemaValidator('document')(res.body.data[0])).toBe(true)
  })
})
