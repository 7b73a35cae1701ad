import { describe, expect, it } from 'vitest'
import type { ApiClient, RequestOptions } from '../../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../../support/mock.ts'
import { fixture } from '../../support/contracts.ts'
import type { Role } from '../../../src/kernel/roles.ts'
import { assign, createClient, createOrganisation } from '../../support/requests.ts'
import { singlePage } from '../../support/wire.ts'

const MINUTE = 60_000
/** Links and relation URLs are absolute; in-process requests are answered as http://localhost. */
const BASE = 'http://localhost/api/v2'

type NewTeam = ReturnType<TestMock['newTeam']>
type Query = NonNullable<RequestOptions['query']>

/** A fresh mock with one fresh team (a user of every role). */
function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  return { mock, ...team }
}

/** The wire organisation named Lee Holdings Ltd as created at NOW with no optional fields, with overrides. */
function orgJson(id: number, overrides: Record<string, unknown> = {}) {
  return {
    object: 'organisation',
    id,
    status: null,
    name: 'Lee Holdings Ltd',
    company_number: null,
    jurisdiction: null,
    reference: null,
    incorporated_at: null,
    address: null,
    assignees: null,
    clients: null,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...overrides,
  }
}

const LEE = { name: 'Lee Holdings Ltd' }

const FULL_ADDRESS = {
  unit: 'Suite 4',
  house_name: 'Orchard House',
  house_number: '14',
  street_name: 'Mill Lane',
  second_street: 'Off the High Street',
  district: 'Headington',
  city: 'Oxford',
  province: 'Oxfordshire',
  postcode: 'OX3 9DU',
  country: 'GB',
}

const EMPTY_ADDRESS = {
  object: 'address',
  unit: null,
  house_name: null,
  house_number: null,
  street_name: null,
  second_street: null,
  district: null,
  city: null,
  province: null,
  postcode: null,
  country: null,
}

/** docs/specification-notes.md "Organisations": the allowed jurisdiction codes. */
const SPEC_JURISDICTIONS = `ae_az us_al us_ak al us_az us_ar aw au bs bh bd bb by be bz bm bo br bg us_ca kh ca us_co us_ct hr cw cy us_de dk
  us_dc do ae_du fi us_fl fr gf us_ga de gi gr gl gp gg us_hi hk is us_id in us_in us_ia ir ie im il jm jp je us_ks us_ky lv li us_la lu us_me
  my mt mq us_md us_ma mu yt mx us_mi us_mn us_ms us_mo md us_mt me mm us_ne nl us_nv ca_nb us_nh us_nj us_nm us_ny nz ca_nl us_nc us_nd no
  ca_ns us_oh us_ok us_or pk pa us_pa pl ca_pe pr ca_qc us_ri ro rw re bl mf pm sg sk si za us_sc us_sd es se ch tj tz us_tn us_tx th to tn ug
  ua gb us_ut vu us_vt vn us_va us_wa us_wv us_wi us_wy`.split(/\s+/)

async function create(api: ApiClient, body: Record<string, unknown> = LEE): Promise<any> {
  return createOrganisation(api, body)
}

/** The ids of one page of a list, after checking the status. */
async function ids(api: ApiClient, path: string, query: Query = {}): Promise<number[]> {
  const res = await api.get(path, query)
  expect(res.status, res.text).toBe(200)
  return res.body.data.map((row: { id: number }) => row.id)
}

const orgIds = (api: ApiClient, query: Query = {}) => ids(api, '/organisations', query)

/** The team_member object of a fresh team's user of that role. */
function memberJson(team: NewTeam, role: Role) {
  const user = team.users[role]
  return { object: 'team_member', id: user.id, name: user.name, email: user.email, role }
}

/** Archives an organisation through the control API (the API has no archive operation: docs/specification-notes.md "Organisations"). */
async function archive(mock: TestMock, id: number) {
  const res = await mock.control.post(`/organisations/${id}/archive`)
  expect(res.status, res.text).toBe(204)
}

/** Puts a client in organisations through the API. */
async function join(api: ApiClient, clientId: number, organisations: number[]) {
  const res = await api.post(`/clients/${clientId}/organisations`, organisations)
  expect(res.status, res.text).toBe(201)
}

describe('POST /organisations', () => {
  it('creates an organisation with every field and answers 201 with the whole organisation', async () => {
    const { mock, api } = setup()
    const res = await api().post('/organisations', {
      name: 'Lee Holdings Ltd',
      status: 'approved',
      company_number: '01234567',
      jurisdiction: 'gb',
      reference: 'ORG-0042',
      incorporated_at: '2015-03-14',
      address: FULL_ADDRESS,
    })
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(Number.isInteger(id)).toBe(true)
    expect(res.body).toEqual(
      orgJson(id, {
        status: 'approved',
        company_number: '01234567',
        jurisdiction: 'gb',
        reference: 'ORG-0042',
        incorporated_at: '2015-03-14',
        address: { object: 'address', ...FULL_ADDRESS },
      }),
    )
    expect((await api().get(`/organisations/${id}`)).body).toEqual(res.body)
    expect(mock.store.data.sequences.organisation).toBe(id)
    expect(mock.events).toEqual([])
  })

  it('defaults every optional field to null, assignees and clients included', async () => {
    const { api } = setup()
    const res = await api().post('/organisations', LEE)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id))
  })

  it('accepts explicit nulls for the optional fields', async () => {
    const { api } = setup()
    const res = await api().post('/organisations', {
      name: 'Lee Holdings Ltd',
      status: null,
      company_number: null,
      jurisdiction: null,
      reference: null,
      incorporated_at: null,
      address: null,
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id))
  })

  it.each(['pending', 'approved', 'rejected'])('accepts the status %s', async (status) => {
    const { api } = setup()
    const res = await api().post('/organisations', { ...LEE, status })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id, { status }))
  })

  it('stamps created_at and updated_at with the clock', async () => {
    const { mock, api } = setup()
    mock.clock.advance(5 * MINUTE)
    const res = await api().post('/organisations', LEE)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id, { created_at: at(5), updated_at: at(5) }))
  })

  it('never deduplicates: the same organisation twice is two organisations (rule 7 of docs/specification-notes.md "Rules of the service")', async () => {
    const { api } = setup()
    const first = await create(api(), { ...LEE, company_number: '01234567', jurisdiction: 'gb' })
    const second = await create(api(), { ...LEE, company_number: '01234567', jurisdiction: 'gb' })
    expect(second.id).not.toBe(first.id)
    expect(second).toEqual(orgJson(second.id, { company_number: '01234567', jurisdiction: 'gb' }))
    expect(await orgIds(api())).toEqual([first.id, second.id])
  })

  it('trims strings and stores blank optional fields as null, as Laravel does before validating', async () => {
    const { api } = setup()
    const res = await api().post('/organisations', { name: '  Lee Holdings Ltd\t', reference: '  ORG-1 ', company_number: '   ' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id, { reference: 'ORG-1' }))
  })

  it('stores an address without postcode for a country that does not need one, fields left out null', async () => {
    const { api } = setup()
    const res = await api().post('/organisations', { ...LEE, address: { street_name: 'Main Street', city: 'Galway', country: 'IE' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id, { address: { ...EMPTY_ADDRESS, street_name: 'Main Street', city: 'Galway', country: 'IE' } }))
  })

  it("accepts every jurisdiction of the spec's list", async () => {
    const { api } = setup()
    expect(SPEC_JURISDICTIONS).toHaveLength(139)
    for (const jurisdiction of SPEC_JURISDICTIONS) {
      const res = await api().post('/organisations', { ...LEE, company_number: '01234567', jurisdiction })
      expect(res.status, jurisdiction).toBe(201)
      expect(res.body.jurisdiction, jurisdiction).toBe(jurisdiction)
    }
  })

  it('accepts a jurisdiction without a company number', async () => {
    const { api } = setup()
    const res = await api().post('/organisations', { ...LEE, jurisdiction: 'us_de' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id, { jurisdiction: 'us_de' }))
  })

  it.each(['owner', 'member', 'assumed'] as const)('lets the %s create an organisation, assigned to nobody', async (role) => {
    const { api } = setup()
    const res = await api(role).post('/organisations', LEE)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(orgJson(res.body.id))
  })

  it('assigns an assigned-only member to the organisation they create, so they go on seeing it', async () => {
    const team = setup()
    const res = await team.api('assigned-only').post('/organisations', LEE)
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(res.body).toEqual(orgJson(id, { assignees: [team.users['assigned-only'].id] }))
    expect((await team.api('assigned-only').get(`/organisations/${id}`)).body).toEqual(res.body)
    expect(await orgIds(team.api('assigned-only'))).toEqual([id])
    const assignees = await team.api().get(`/organisations/${id}/assignees`)
    expect(assignees.body.data.map((row: { team_member: { id: number } }) => row.team_member)).toEqual([memberJson(team, 'assigned-only')])
  })

  it('forbids a read-only member to create an organisation (docs/specification-notes.md "Roles") and creates nothing', async () => {
    const { mock, api, team } = setup()
    const res = await api('read-only').post('/organisations', LEE)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    const invalidBody = await api('read-only').post('/organisations', {})
    expect(invalidBody.status).toBe(403)
    expect(invalidBody.body).toEqual({ message: 'This action is unauthorized.' })
    expect(team.organisations.all()).toEqual([])
    expect(mock.events).toEqual([])
  })

  it('answers 401 without a token and creates nothing', async () => {
    const { api, team } = setup()
    const res = await api().as(undefined).post('/organisations', LEE)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
    expect(team.organisations.all()).toEqual([])
  })

  describe('validation', () => {
    async function rejects(body: unknown, errors: Record<string, unknown>) {
      const { mock, api, team } = setup()
      const res = await api().post('/organisations', body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expect(team.organisations.all()).toEqual([])
      expect(mock.events).toEqual([])
    }

    it.each([
      ['missing', {}],
      ['null', { name: null }],
      ['empty', { name: '' }],
      ['blank', { name: '  \t ' }],
    ])('requires a name (%s)', (_, body) => rejects(body, { name: ['The name field is required.'] }))

    it('limits name, company_number and reference to 255 characters (docs/specification-notes.md "Limits")', () =>
      rejects(
        { name: 'n'.repeat(256), company_number: 'c'.repeat(256), jurisdiction: 'gb', reference: 'r'.repeat(256) },
        {
          name: ['The name field must not be greater than 255 characters.'],
          company_number: ['The company number field must not be greater than 255 characters.'],
          reference: ['The reference field must not be greater than 255 characters.'],
        },
      ))

    it('accepts name, company_number and reference of exactly 255 characters', async () => {
      const { api } = setup()
      const res = await api().post('/organisations', { name: 'n'.repeat(255), company_number: 'c'.repeat(255), jurisdiction: 'gb', reference: 'r'.repeat(255) })
      expect(res.status).toBe(201)
      expect(res.body).toEqual(
        orgJson(res.body.id, { name: 'n'.repeat(255), company_number: 'c'.repeat(255), jurisdiction: 'gb', reference: 'r'.repeat(255) }),
      )
    })

    it.each([
      ['missing', {}],
      ['null', { jurisdiction: null }],
      ['empty', { jurisdiction: '' }],
    ])('requires jurisdiction when company_number is given (jurisdiction %s; docs/specification-notes.md "Organisations")', (_, extra) =>
      rejects({ ...LEE, company_number: '01234567', ...extra }, { jurisdiction: ['The jurisdiction field is required when company number is present.'] }))

    it.each([null, '', '  '])('does not require jurisdiction when company_number is %j', async (company_number) => {
      const { api } = setup()
      const res = await api().post('/organisations', { ...LEE, company_number })
      expect(res.status).toBe(201)
      expect(res.body).toEqual(orgJson(res.body.id))
    })

    it.each(['uk', 'GB', 'Gb', 'us', 'us_zz', 'gbr', 'england'])("rejects the jurisdiction %j, which is not in the spec's list", (jurisdiction) =>
      rejects({ ...LEE, company_number: '01234567', jurisdiction }, { jurisdiction: ['The selected jurisdiction is invalid.'] }))

    it.each(['bogus', 'Approved', 'archived'])('rejects the status %j', (status) => rejects({ ...LEE, status }, { status: ['The selected status is invalid.'] }))

    it.each(['2015-13-01', '2015-02-30', '14/03/2015', '2015-03-14T00:00:00Z'])('rejects an incorporated_at that is not a Y-m-d date: %j', (incorporated_at) =>
      rejects({ ...LEE, incorporated_at }, { incorporated_at: ['The incorporated at field must match the format Y-m-d.'] }))

    it('rejects wrong JSON types field by field', () =>
      rejects(
        { name: 5, status: 1, company_number: 7, jurisdiction: 44, reference: ['ORG'], incorporated_at: 20150314, address: 'Oxford' },
        {
          name: ['The name field must be a string.'],
          status: ['The selected status is invalid.'],
          company_number: ['The company number field must be a string.'],
          jurisdiction: ['The selected jurisdiction is invalid.'],
          reference: ['The reference field must be a string.'],
          incorporated_at: ['The incorporated at field must be a string.'],
          address: ['The address field must be an object.'],
        },
      ))

    it.each(['GB', 'US', 'DE'])('requires address.postcode when the address country is %s, as for client addresses', async (country) => {
      for (const postcode of [{}, { postcode: null }, { postcode: '' }]) {
        await rejects(
          { ...LEE, address: { street_name: 'Main Street', city: 'Springfield', country, ...postcode } },
          { 'address.postcode': [`The postcode field is required when country is ${country}.`] },
        )
      }
    })

    it('validates the address fields like a client address', () =>
      rejects(
        { ...LEE, address: { unit: 2, city: 'c'.repeat(256), postcode: ['OX3'], country: 'UK' } },
        {
          'address.unit': ['The unit field must be a string.'],
          'address.city': ['The city field must not be greater than 255 characters.'],
          'address.postcode': ['The postcode field must be a string.'],
          'address.country': ['The selected country is invalid.'],
        },
      ))

    it('rejects an empty address object', () => rejects({ ...LEE, address: {} }, { address: ['The address field must not be empty.'] }))

    it('reports every failing field at once', () =>
      rejects(
        { name: '', company_number: '01234567', status: 'bogus', address: { country: 'GB' } },
        {
          name: ['The name field is required.'],
          status: ['The selected status is invalid.'],
          jurisdiction: ['The jurisdiction field is required when company number is present.'],
          'address.postcode': ['The postcode field is required when country is GB.'],
        },
      ))

    it.each([
      ['an array', []],
      ['a string', 'Lee Holdings Ltd'],
      ['a number', 42],
      ['null', null],
    ])('rejects a body that is %s', (_, body) => rejects(body, { errors: ['The request body must be a JSON object.'] }))

    it('rejects malformed JSON', async () => {
      const { api, team } = setup()
      const res = await api().request('POST', '/organisations', { raw: '{"name": "Lee', headers: { 'Content-Type': 'application/json' } })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ errors: ['The request body must be valid JSON.'] })
      expect(team.organisations.all()).toEqual([])
    })
  })
})

describe('GET /organisations/{id}', () => {
  it('answers 200 with the organisation, to every role that may see it', async () => {
    const { api } = setup()
    const organisation = await create(api(), { ...LEE, reference: 'ORG-1' })
    for (const role of ['owner', 'member', 'read-only', 'assumed'] as const) {
      const res = await api(role).get(`/organisations/${organisation.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(orgJson(organisation.id, { reference: 'ORG-1' }))
    }
  })

  it('forbids an assigned-only member an organisation they are not assigned to, and shows them one they are', async () => {
    const team = setup()
    const organisation = await create(team.api())
    const forbidden = await team.api('assigned-only').get(`/organisations/${organisation.id}`)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ message: 'This action is unauthorized.' })
    const unknown = await team.api('assigned-only').get('/organisations/987654321')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Organisation not found' })
    await assign(team.api(), `/organisations/${organisation.id}/assignees`, [team.users['assigned-only'].id])
    const res = await team.api('assigned-only').get(`/organisations/${organisation.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(orgJson(organisation.id, { assignees: [team.users['assigned-only'].id] }))
  })

  it('rejects an expand outside assignees and clients', async () => {
    const { api } = setup()
    const organisation = await create(api())
    for (const expand of ['bogus', 'assignees,bogus', 'client', 'address']) {
      const res = await api().get(`/organisations/${organisation.id}`, { expand })
      expect(res.status, expand).toBe(422)
      expect(res.body).toEqual({ expand: ['The expand parameter must be one of: assignees, clients'] })
    }
  })
})

describe('relations: assignees and clients (docs/specification-notes.md "Wire details")', () => {
  it('collapsed, shows the assignee user ids and client ids, the newest-created client first', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const older = await createClient(api, 'Old', 'Er')
    mock.clock.advance(MINUTE)
    const newer = await createClient(api, 'New', 'Er')
    const organisation = await create(api)
    await join(api, older.id, [organisation.id])
    await join(api, newer.id, [organisation.id])
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id, team.users['read-only'].id])
    const res = await api.get(`/organisations/${organisation.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      orgJson(organisation.id, { assignees: [team.users.member.id, team.users['read-only'].id], clients: [newer.id, older.id], created_at: at(1), updated_at: at(1) }),
    )
  })

  it('expanded, they are list objects of team members and clients with the URL of their collection', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const older = await createClient(api, 'Old', 'Er')
    mock.clock.advance(MINUTE)
    const newer = await createClient(api, 'New', 'Er')
    const organisation = await create(api)
    await join(api, older.id, [organisation.id])
    await join(api, newer.id, [organisation.id])
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id, team.users['read-only'].id])
    const clients = [(await api.get(`/clients/${newer.id}`)).body, (await api.get(`/clients/${older.id}`)).body]
    const assigneesList = {
      object: 'list',
      data: [memberJson(team, 'member'), memberJson(team, 'read-only')],
      total: 2,
      count: 2,
      limit: 25,
      has_more: false,
      url: `${BASE}/organisations/${organisation.id}/assignees`,
    }
    const clientsList = { object: 'list', data: clients, total: 2, count: 2, limit: 25, has_more: false, url: `${BASE}/organisations/${organisation.id}/clients` }
    const collapsed = { assignees: [team.users.member.id, team.users['read-only'].id], clients: [newer.id, older.id], created_at: at(1), updated_at: at(1) }
    const cases: Array<[Query, Record<string, unknown>]> = [
      [{ expand: 'assignees' }, { ...collapsed, assignees: assigneesList }],
      [{ expand: 'clients' }, { ...collapsed, clients: clientsList }],
      [{ expand: 'assignees,clients' }, { ...collapsed, assignees: assigneesList, clients: clientsList }],
      [{ expand: 'clients, assignees' }, { ...collapsed, assignees: assigneesList, clients: clientsList }],
      [{ expand: ['clients', 'assignees'] }, { ...collapsed, assignees: assigneesList, clients: clientsList }],
      [{ 'expand[]': ['assignees', 'clients'] }, { ...collapsed, assignees: assigneesList, clients: clientsList }],
    ]
    for (const [query, expected] of cases) {
      const res = await api.get(`/organisations/${organisation.id}`, query)
      expect(res.status, JSON.stringify(query)).toBe(200)
      expect(res.body, JSON.stringify(query)).toEqual(orgJson(organisation.id, expected))
      const list = await api.get('/organisations', query)
      expect(list.status).toBe(200)
      expect(list.body.data, JSON.stringify(query)).toEqual([orgJson(organisation.id, expected)])
    }
  })

  it('are null when empty, expanded or not', async () => {
    const { api } = setup()
    const organisation = await create(api())
    for (const query of [{}, { expand: 'assignees' }, { expand: 'clients' }, { expand: 'assignees,clients' }] as Query[]) {
      const res = await api().get(`/organisations/${organisation.id}`, query)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(orgJson(organisation.id))
      const list = await api().get('/organisations', query)
      expect(list.body.data).toEqual([orgJson(organisation.id)])
    }
  })

  it('become null again when the last client and assignee leave', async () => {
    const team = setup()
    const api = team.api()
    const client = await createClient(api)
    const organisation = await create(api)
    await join(api, client.id, [organisation.id])
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id])
    expect((await api.get(`/organisations/${organisation.id}`)).body).toEqual(orgJson(organisation.id, { assignees: [team.users.member.id], clients: [client.id] }))
    expect((await api.delete(`/clients/${client.id}/organisations/${organisation.id}`)).status).toBe(204)
    expect((await api.delete(`/organisations/${organisation.id}/assignees`)).status).toBe(204)
    for (const query of [{}, { expand: 'assignees,clients' }] as Query[]) {
      expect((await api.get(`/organisations/${organisation.id}`, query)).body).toEqual(orgJson(organisation.id))
    }
  })

  it('collapsed, show at most 25 client ids; expanded, the first 25 clients with has_more (30 clients)', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const organisation = await create(api)
    const created: number[] = []
    for (let index = 0; index < 30; index++) {
      mock.clock.advance(MINUTE)
      const client = await createClient(api, `Client${String(index).padStart(2, '0')}`, 'Many')
      created.push(client.id)
      await join(api, client.id, [organisation.id])
    }
    const newestFirst = [...created].reverse()
    const collapsed = await api.get(`/organisations/${organisation.id}`)
    expect(collapsed.status).toBe(200)
    expect(collapsed.body).toEqual(orgJson(organisation.id, { clients: newestFirst.slice(0, 25) }))
    const shown = await Promise.all(newestFirst.slice(0, 25).map(async (id) => (await api.get(`/clients/${id}`)).body))
    const expanded = await api.get(`/organisations/${organisation.id}`, { expand: 'clients' })
    expect(expanded.status).toBe(200)
    expect(expanded.body).toEqual(
      orgJson(organisation.id, {
        clients: { object: 'list', data: shown, total: 30, count: 25, limit: 25, has_more: true, url: `${BASE}/organisations/${organisation.id}/clients` },
      }),
    )
    const list = await api.get('/organisations', { expand: 'clients' })
    expect(list.body.data).toEqual([expanded.body])
    // The rest is in the collection the url names.
    const rest = await api.get(`/organisations/${organisation.id}/clients`, { page: 2 })
    expect(rest.body.data.map((client: { id: number }) => client.id)).toEqual(newestFirst.slice(25))
  })

  it('collapsed, show at most 25 assignee ids; expanded, the first 25 team members with has_more (30 assignees)', async () => {
    const mock = createTestMock()
    const team = mock.newTeam({ generate: { members: 30 } })
    const api = team.api()
    const organisation = await create(api)
    const users = team.team.members.filter((member) => member.role === 'member' && member.user !== team.users.member.id).map((member) => member.user)
    expect(users).toHaveLength(30)
    await assign(api, `/organisations/${organisation.id}/assignees`, users)
    const collapsed = await api.get(`/organisations/${organisation.id}`)
    expect(collapsed.status).toBe(200)
    expect(collapsed.body).toEqual(orgJson(organisation.id, { assignees: users.slice(0, 25) }))
    const members = users.slice(0, 25).map((id) => {
      const user = mock.store.user(id)
      return { object: 'team_member', id, name: user?.name, email: user?.email, role: 'member' }
    })
    const expanded = await api.get(`/organisations/${organisation.id}`, { expand: 'assignees' })
    expect(expanded.body).toEqual(
      orgJson(organisation.id, {
        assignees: { object: 'list', data: members, total: 30, count: 25, limit: 25, has_more: true, url: `${BASE}/organisations/${organisation.id}/assignees` },
      }),
    )
  })

  it('shows an assigned-only member only the clients assigned to them, collapsed and expanded', async () => {
    const team = setup()
    const api = team.api()
    const mine = await createClient(api, 'Mine', 'Client')
    const theirs = await createClient(api, 'Their', 'Client')
    const organisation = await create(api)
    await join(api, mine.id, [organisation.id])
    await join(api, theirs.id, [organisation.id])
    const assignedOnly = team.users['assigned-only'].id
    await assign(api, `/organisations/${organisation.id}/assignees`, [assignedOnly])
    await assign(api, `/clients/${mine.id}/assignees`, [assignedOnly])
    const restricted = team.api('assigned-only')
    const collapsed = await restricted.get(`/organisations/${organisation.id}`)
    expect(collapsed.body).toEqual(orgJson(organisation.id, { assignees: [assignedOnly], clients: [mine.id] }))
    const expanded = await restricted.get(`/organisations/${organisation.id}`, { expand: 'clients' })
    const mineShown = (await restricted.get(`/clients/${mine.id}`)).body
    expect(expanded.body).toEqual(
      orgJson(organisation.id, {
        assignees: [assignedOnly],
        clients: { object: 'list', data: [mineShown], total: 1, count: 1, limit: 25, has_more: false, url: `${BASE}/organisations/${organisation.id}/clients` },
      }),
    )
    // The owner sees both.
    expect((await api.get(`/organisations/${organisation.id}`)).body.clients).toEqual([theirs.id, mine.id])
  })
})

describe('GET /organisations', () => {
  it('is an empty single page for a team without organisations', async () => {
    const { api } = setup()
    const res = await api().get('/organisations')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  it('lists the organisations exactly as GET /organisations/{id} shows them', async () => {
    const { api } = setup()
    const created = [
      await create(api(), { name: 'Zeta Ltd', status: 'approved', company_number: '01234567', jurisdiction: 'gb' }),
      await create(api('member'), { name: 'Alpha Ltd', address: FULL_ADDRESS, incorporated_at: '2001-01-01' }),
      await create(api('assumed'), { name: 'Mid Ltd', reference: 'ORG-9' }),
    ]
    const res = await api('read-only').get('/organisations')
    expect(res.status).toBe(200)
    const shown = await Promise.all(created.map(async (organisation) => (await api('read-only').get(`/organisations/${organisation.id}`)).body))
    expect(shown).toEqual(created)
    expect(res.body).toEqual({ object: 'paginated_list', data: shown, total: 3, count: 3, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  it('answers 401 without a token', async () => {
    const { api } = setup()
    const res = await api().as(undefined).get('/organisations')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
  })

  describe('search', () => {
    async function world() {
      const { api } = setup()
      const societe = await create(api(), { name: 'Société Générale Holdings', company_number: 'SC123456', jurisdiction: 'gb', reference: 'ORG-0001' })
      const globex = await create(api(), { name: 'Globex Widgets Ltd', company_number: '08123456', jurisdiction: 'gb', reference: 'Acct-77' })
      const initrode = await create(api(), { name: 'Initrode Lettings' })
      const oresund = await create(api(), { name: 'Øresund Shipping AB', reference: 'NORD-ltd' })
      return { api: api(), societe: societe.id, globex: globex.id, initrode: initrode.id, oresund: oresund.id }
    }

    it('matches the name in part and in any case', async () => {
      const w = await world()
      expect(await orgIds(w.api, { search: 'GLOBEX' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: 'widg' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: 'lettings' })).toEqual([w.initrode])
      expect(await orgIds(w.api, { search: 'ing' })).toEqual([w.societe, w.initrode, w.oresund])
    })

    it('folds accents both ways', async () => {
      const w = await world()
      expect(await orgIds(w.api, { search: 'societe generale' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: 'GÉNÉRALE' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: 'Sôciété' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: 'oresund' })).toEqual([w.oresund])
      expect(await orgIds(w.api, { search: 'ØRESUND' })).toEqual([w.oresund])
    })

    it('matches the company number and the reference', async () => {
      const w = await world()
      expect(await orgIds(w.api, { search: 'sc1234' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: '0812' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: '123456' })).toEqual([w.societe, w.globex])
      expect(await orgIds(w.api, { search: 'org-0001' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: 'acct' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: 'LTD' })).toEqual([w.globex, w.oresund])
    })

    it('needs every word to match, each in any of the searched fields', async () => {
      const w = await world()
      expect(await orgIds(w.api, { search: 'widgets ltd' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: '  LTD   widgets ' })).toEqual([w.globex])
      expect(await orgIds(w.api, { search: 'holdings sc123456 org-0001' })).toEqual([w.societe])
      expect(await orgIds(w.api, { search: 'shipping nord' })).toEqual([w.oresund])
      expect(await orgIds(w.api, { search: 'globex lettings' })).toEqual([])
      expect(await orgIds(w.api, { search: 'nobody' })).toEqual([])
    })

    it('pages the matches only, keeping the search in the links', async () => {
      const w = await world()
      const res = await w.api.get('/organisations', { search: 'ltd', limit: 1 })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        object: 'paginated_list',
        data: [(await w.api.get(`/organisations/${w.globex}`)).body],
        total: 2,
        count: 1,
        limit: 1,
        current_page: 1,
        total_pages: 2,
        links: { next: `${BASE}/organisations?search=ltd&limit=1&page=2`, previous: null },
      })
    })
  })

  describe('filters', () => {
    it('assignee: a user id, true for any assignee, false for none', async () => {
      const mock = createTestMock()
      const team = mock.newTeam()
      const other = mock.newTeam()
      const api = team.api()
      const one = await create(api, { name: 'One Assignee' })
      const two = await create(api, { name: 'Two Assignees' })
      const none = await create(api, { name: 'No Assignee' })
      await assign(api, `/organisations/${one.id}/assignees`, [team.users.member.id])
      await assign(api, `/organisations/${two.id}/assignees`, [team.users.member.id, team.users['read-only'].id])
      expect(await orgIds(api, { assignee: team.users.member.id })).toEqual([one.id, two.id])
      expect(await orgIds(api, { assignee: team.users['read-only'].id })).toEqual([two.id])
      expect(await orgIds(api, { assignee: team.users.owner.id })).toEqual([])
      expect(await orgIds(api, { assignee: other.users.member.id })).toEqual([])
      expect(await orgIds(api, { assignee: 987_654 })).toEqual([])
      expect(await orgIds(api, { assignee: 'true' })).toEqual([one.id, two.id])
      expect(await orgIds(api, { assignee: 'false' })).toEqual([none.id])
      expect(await orgIds(api)).toEqual([one.id, two.id, none.id])
    })

    it('visibility: active, archived, both by default', async () => {
      const { mock, api } = setup()
      const active = await create(api(), { name: 'Active One' })
      const archived = await create(api(), { name: 'Archived One' })
      const another = await create(api(), { name: 'Active Two' })
      mock.clock.advance(MINUTE)
      await archive(mock, archived.id)
      expect(await orgIds(api(), { visibility: 'active' })).toEqual([active.id, another.id])
      expect(await orgIds(api(), { visibility: 'archived' })).toEqual([archived.id])
      expect(await orgIds(api())).toEqual([active.id, archived.id, another.id])
      const res = await api().get('/organisations', { visibility: 'archived' })
      expect(res.body.data).toEqual([orgJson(archived.id, { name: 'Archived One', updated_at: at(1), archived_at: at(1) })])
    })

    it('combines search, assignee and visibility: an organisation must pass every one', async () => {
      const { mock, ...team } = setup()
      const api = team.api()
      const a = await create(api, { name: 'Lee Holdings', reference: 'R-1' })
      const b = await create(api, { name: 'Lee Trading' })
      const c = await create(api, { name: 'Ray Holdings' })
      await assign(api, `/organisations/${a.id}/assignees`, [team.users.member.id])
      await assign(api, `/organisations/${c.id}/assignees`, [team.users.member.id])
      await archive(mock, c.id)
      expect(await orgIds(api, { search: 'holdings', assignee: team.users.member.id })).toEqual([a.id, c.id])
      expect(await orgIds(api, { search: 'holdings', assignee: team.users.member.id, visibility: 'active' })).toEqual([a.id])
      expect(await orgIds(api, { search: 'lee', assignee: 'false' })).toEqual([b.id])
      expect(await orgIds(api, { search: 'holdings', visibility: 'archived' })).toEqual([c.id])
      expect(await orgIds(api, { search: 'r-1', assignee: 'true', visibility: 'archived' })).toEqual([])
    })

    it('shows an assigned-only member only the organisations assigned to them, filters applied on top', async () => {
      const team = setup()
      const api = team.api()
      const mine = await create(api, { name: 'Mine Holdings' })
      await create(api, { name: 'Their Holdings' })
      const alsoMine = await create(api, { name: 'Also Mine Trading' })
      for (const organisation of [mine, alsoMine]) await assign(api, `/organisations/${organisation.id}/assignees`, [team.users['assigned-only'].id])
      const restricted = team.api('assigned-only')
      expect(await orgIds(restricted)).toEqual([mine.id, alsoMine.id])
      expect(await orgIds(restricted, { search: 'holdings' })).toEqual([mine.id])
      expect(await orgIds(restricted, { assignee: 'false' })).toEqual([])
      const res = await restricted.get('/organisations')
      expect(res.body).toMatchObject({ total: 2, count: 2, total_pages: 1, links: null })
    })

    it("never shows another team's organisations", async () => {
      const mock = createTestMock()
      const a = mock.newTeam()
      const b = mock.newTeam()
      const mineA = await create(a.api(), { name: 'Isolated Alpha', reference: 'SHARED' })
      const mineB = await create(b.api(), { name: 'Isolated Beta', reference: 'SHARED' })
      for (const role of ['owner', 'member', 'read-only', 'assumed'] as const) {
        expect(await orgIds(a.api(role))).toEqual([mineA.id])
        expect(await orgIds(b.api(role), { search: 'shared' })).toEqual([mineB.id])
      }
      const acme = await mock.api('ivs_acme_owner').get('/organisations', { search: 'isolated', limit: 100 })
      expect(acme.body.total).toBe(0)
    })
  })

  describe('sorting', () => {
    /**
     * Four organisations whose every sort key gives a different order (compared
     * case-insensitively, nulls first ascending):
     *   id  name             reference  created_at  updated_at  archived_at
     *   o1  Charlie Trading  ref-a      12:00       12:07       null
     *   o2  alpha Holdings   null       12:01       12:01       null
     *   o3  Bravo & Co       REF-B      12:02       12:09       12:09
     *   o4  delta Group      Ref-C      12:03       12:05       12:05
     */
    async function world() {
      const { mock, api } = setup()
      const o1 = await create(api(), { name: 'Charlie Trading', reference: 'ref-a' })
      mock.clock.advance(MINUTE)
      const o2 = await create(api(), { name: 'alpha Holdings' })
      mock.clock.advance(MINUTE)
      const o3 = await create(api(), { name: 'Bravo & Co', reference: 'REF-B' })
      mock.clock.advance(MINUTE)
      const o4 = await create(api(), { name: 'delta Group', reference: 'Ref-C' })
      mock.clock.set(new Date(at(5)))
      await archive(mock, o4.id)
      mock.clock.set(new Date(at(7)))
      expect((await api().patch(`/organisations/${o1.id}`, { name: 'Charlie Trading', status: 'approved' })).body.updated_at).toBe(at(7))
      mock.clock.set(new Date(at(9)))
      await archive(mock, o3.id)
      return { mock, api: api(), o1: o1.id, o2: o2.id, o3: o3.id, o4: o4.id }
    }

    it('is in created_at order by default, ascending, or descending with order_by=desc', async () => {
      const w = await world()
      expect(await orgIds(w.api)).toEqual([w.o1, w.o2, w.o3, w.o4])
      expect(await orgIds(w.api, { order_by: 'asc' })).toEqual([w.o1, w.o2, w.o3, w.o4])
      expect(await orgIds(w.api, { order_by: 'desc' })).toEqual([w.o4, w.o3, w.o2, w.o1])
    })

    it('orders by created_at by default, not by id', async () => {
      const w = await world()
      w.mock.clock.set(new Date('2026-06-30T08:00:00Z'))
      const earliest = await create(w.api, { name: 'Backdated Ltd' })
      expect(earliest.created_at).toBe('2026-06-30T08:00:00Z')
      expect(await orgIds(w.api)).toEqual([earliest.id, w.o1, w.o2, w.o3, w.o4])
      expect(await orgIds(w.api, { order_by: 'desc' })).toEqual([w.o4, w.o3, w.o2, w.o1, earliest.id])
    })

    it.each([
      ['name', ['o2', 'o3', 'o1', 'o4']],
      ['reference', ['o2', 'o1', 'o3', 'o4']],
      ['created_at', ['o1', 'o2', 'o3', 'o4']],
      ['updated_at', ['o2', 'o4', 'o1', 'o3']],
      ['archived_at', ['o1', 'o2', 'o4', 'o3']],
    ] as const)('sort_by=%s, ascending by default and with order_by=asc, reversed with desc', async (sortBy, order) => {
      const w = await world()
      const expected = order.map((key) => w[key])
      expect(await orgIds(w.api, { sort_by: sortBy })).toEqual(expected)
      expect(await orgIds(w.api, { sort_by: sortBy, order_by: 'asc' })).toEqual(expected)
      expect(await orgIds(w.api, { sort_by: sortBy, order_by: 'desc' })).toEqual([...expected].reverse())
    })

    it('sorts, filters, then pages', async () => {
      const w = await world()
      const res = await w.api.get('/organisations', { sort_by: 'name', order_by: 'desc', visibility: 'active', limit: 1, page: 2 })
      expect(res.status).toBe(200)
      expect(res.body.data.map((o: { id: number }) => o.id)).toEqual([w.o2])
      expect(res.body).toMatchObject({ total: 2, count: 1, limit: 1, current_page: 2, total_pages: 2 })
      expect(res.body.links).toEqual({ next: null, previous: `${BASE}/organisations?sort_by=name&order_by=desc&visibility=active&limit=1&page=1` })
    })
  })

  describe('pagination', () => {
    async function teamWith(count: number) {
      const { api } = setup()
      const created: number[] = []
      for (let index = 0; index < count; index++) created.push((await create(api(), { name: `Organisation ${String(index).padStart(2, '0')}` })).id)
      return { api: api(), created }
    }

    it('pages by 25 by default, with links to the other page', async () => {
      const { api, created } = await teamWith(27)
      const first = await api.get('/organisations')
      expect(first.status).toBe(200)
      expect(first.body.data.map((o: { id: number }) => o.id)).toEqual(created.slice(0, 25))
      expect(first.body).toMatchObject({ total: 27, count: 25, limit: 25, current_page: 1, total_pages: 2 })
      expect(first.body.links).toEqual({ next: `${BASE}/organisations?page=2`, previous: null })
      const second = await api.get('/organisations', { page: 2 })
      expect(second.body.data.map((o: { id: number }) => o.id)).toEqual(created.slice(25))
      expect(second.body).toMatchObject({ total: 27, count: 2, limit: 25, current_page: 2, total_pages: 2 })
      expect(second.body.links).toEqual({ next: null, previous: `${BASE}/organisations?page=1` })
    })

    it('walks one organisation at a time with limit=1: first, middle and last pages', async () => {
      const { api, created } = await teamWith(3)
      const pages = []
      for (const page of [1, 2, 3]) pages.push((await api.get('/organisations', { limit: 1, page })).body)
      expect(pages.map((p) => p.data.map((o: { id: number }) => o.id))).toEqual([[created[0]], [created[1]], [created[2]]])
      expect(pages.map((p) => [p.total, p.count, p.limit, p.current_page, p.total_pages])).toEqual([
        [3, 1, 1, 1, 3],
        [3, 1, 1, 2, 3],
        [3, 1, 1, 3, 3],
      ])
      expect(pages.map((p) => p.links)).toEqual([
        { next: `${BASE}/organisations?limit=1&page=2`, previous: null },
        { next: `${BASE}/organisations?limit=1&page=3`, previous: `${BASE}/organisations?limit=1&page=1` },
        { next: null, previous: `${BASE}/organisations?limit=1&page=2` },
      ])
    })

    it('has links null when everything fits on one page', async () => {
      const { api, created } = await teamWith(3)
      for (const limit of [3, 25, 100]) {
        const res = await api.get('/organisations', { limit })
        expect(res.body).toEqual({
          object: 'paginated_list',
          data: expect.any(Array),
          total: 3,
          count: 3,
          limit,
          current_page: 1,
          total_pages: 1,
          links: null,
        })
        expect(res.body.data.map((o: { id: number }) => o.id)).toEqual(created)
      }
    })

    it('answers an empty data for a page past the end', async () => {
      const { api } = await teamWith(3)
      const res = await api.get('/organisations', { limit: 2, page: 5 })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        object: 'paginated_list',
        data: [],
        total: 3,
        count: 0,
        limit: 2,
        current_page: 5,
        total_pages: 2,
        links: { next: null, previous: `${BASE}/organisations?limit=2&page=4` },
      })
      const single = await api.get('/organisations', { page: 2 })
      expect(single.body).toEqual({ object: 'paginated_list', data: [], total: 3, count: 0, limit: 25, current_page: 2, total_pages: 1, links: null })
    })

    it('carries every query parameter into the links, with only page changed', async () => {
      const { api } = await teamWith(5)
      const res = await api.get('/organisations', {
        search: 'organisation',
        assignee: 'false',
        visibility: 'active',
        sort_by: 'name',
        order_by: 'desc',
        expand: 'assignees,clients',
        page: 2,
        limit: 2,
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ total: 5, count: 2, current_page: 2, total_pages: 3 })
      const rest = 'search=organisation&assignee=false&visibility=active&sort_by=name&order_by=desc&expand=assignees%2Cclients'
      expect(res.body.links).toEqual({ next: `${BASE}/organisations?${rest}&page=3&limit=2`, previous: `${BASE}/organisations?${rest}&page=1&limit=2` })
    })
  })

  describe('invalid query parameters answer 422', () => {
    it.each([
      [{ limit: 101 }, { limit: ['The limit field must not be greater than 100.'] }],
      [{ limit: 0 }, { limit: ['The limit field must be at least 1.'] }],
      [{ page: 0 }, { page: ['The page field must be at least 1.'] }],
      [{ sort_by: 'status' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ sort_by: 'company_number' }, { sort_by: ['The selected sort by is invalid.'] }],
      [{ order_by: 'up' }, { order_by: ['The selected order by is invalid.'] }],
      [{ visibility: 'all' }, { visibility: ['The selected visibility is invalid.'] }],
      [{ assignee: 'me' }, { assignee: ['The assignee field must be an integer.'] }],
      [{ assignee: 0 }, { assignee: ['The assignee field must be at least 1.'] }],
      [{ expand: 'bogus' }, { expand: ['The expand parameter must be one of: assignees, clients'] }],
      [{ expand: 'clients,address' }, { expand: ['The expand parameter must be one of: assignees, clients'] }],
    ] as Array<[Query, Record<string, string[]>]>)('%j', async (query, errors) => {
      const { api } = setup()
      const res = await api().get('/organisations', query)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
    })
  })
})

describe('PATCH /organisations/{id}', () => {
  const FULL = {
    name: 'Lee Holdings Ltd',
    status: 'approved',
    company_number: '01234567',
    jurisdiction: 'gb',
    reference: 'ORG-1',
    incorporated_at: '2015-03-14',
    address: FULL_ADDRESS,
  }
  const fullJson = (id: number, overrides: Record<string, unknown> = {}) =>
    orgJson(id, { ...FULL, address: { object: 'address', ...FULL_ADDRESS }, ...overrides })

  it('changes only the fields given and stamps updated_at', async () => {
    const { mock, api } = setup()
    const organisation = await create(api(), FULL)
    mock.clock.advance(MINUTE)
    const res = await api('member').patch(`/organisations/${organisation.id}`, { name: 'Lee Group plc', reference: 'ORG-2' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(fullJson(organisation.id, { name: 'Lee Group plc', reference: 'ORG-2', updated_at: at(1) }))
    expect((await api().get(`/organisations/${organisation.id}`)).body).toEqual(res.body)
    expect(mock.events).toEqual([])
  })

  it('sets every field', async () => {
    const { mock, api } = setup()
    const organisation = await create(api())
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/organisations/${organisation.id}`, FULL)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(fullJson(organisation.id, { updated_at: at(1) }))
  })

  it('clears nullable fields given as null', async () => {
    const { mock, api } = setup()
    const organisation = await create(api(), FULL)
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/organisations/${organisation.id}`, {
      name: 'Lee Holdings Ltd',
      status: null,
      company_number: null,
      jurisdiction: null,
      reference: null,
      incorporated_at: null,
      address: null,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(orgJson(organisation.id, { updated_at: at(1) }))
  })

  it('replaces the whole address when one is given, and removes it with null (docs/specification-notes.md "Organisations")', async () => {
    const { mock, api } = setup()
    const organisation = await create(api(), FULL)
    mock.clock.advance(MINUTE)
    const replaced = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', address: { city: 'Cork', country: 'IE' } })
    expect(replaced.status).toBe(200)
    expect(replaced.body).toEqual(fullJson(organisation.id, { address: { ...EMPTY_ADDRESS, city: 'Cork', country: 'IE' }, updated_at: at(1) }))
    mock.clock.advance(MINUTE)
    const kept = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', reference: 'ORG-7' })
    expect(kept.body).toEqual(fullJson(organisation.id, { address: { ...EMPTY_ADDRESS, city: 'Cork', country: 'IE' }, reference: 'ORG-7', updated_at: at(2) }))
    mock.clock.advance(MINUTE)
    const removed = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', address: null })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual(fullJson(organisation.id, { address: null, reference: 'ORG-7', updated_at: at(3) }))
    expect((await api().get(`/organisations/${organisation.id}`)).body).toEqual(removed.body)
  })

  it('takes an address whose fields are all null as no address', async () => {
    const { mock, api } = setup()
    const organisation = await create(api(), FULL)
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', address: { country: null, city: '  ' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(fullJson(organisation.id, { address: null, updated_at: at(1) }))
    mock.clock.advance(MINUTE)
    const again = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', address: { postcode: null } })
    expect(again.body.updated_at).toBe(at(1))
  })

  it('leaves updated_at alone when nothing changes', async () => {
    const { mock, api } = setup()
    const organisation = await create(api(), FULL)
    mock.clock.advance(MINUTE)
    for (const body of [
      { name: 'Lee Holdings Ltd' },
      { name: 'Lee Holdings Ltd', status: 'approved', reference: 'ORG-1' },
      { name: ' Lee Holdings Ltd ', address: { ...FULL_ADDRESS } },
      FULL,
    ]) {
      const res = await api().patch(`/organisations/${organisation.id}`, body)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(fullJson(organisation.id))
    }
    expect(mock.events).toEqual([])
  })

  it('has no is_archived: it is ignored as an unknown field (docs/specification-notes.md "Organisations": no archive operation in the API)', async () => {
    const { mock, api } = setup()
    const organisation = await create(api())
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/organisations/${organisation.id}`, { name: 'Lee Holdings Ltd', is_archived: true })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(orgJson(organisation.id))
    expect(await orgIds(api(), { visibility: 'archived' })).toEqual([])
  })

  it('keeps its clients and assignees, showing them collapsed', async () => {
    const { mock, ...team } = setup()
    const api = team.api()
    const client = await createClient(api)
    const organisation = await create(api)
    await join(api, client.id, [organisation.id])
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users.member.id])
    mock.clock.advance(MINUTE)
    const res = await api.patch(`/organisations/${organisation.id}`, { name: 'Renamed Ltd' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(orgJson(organisation.id, { name: 'Renamed Ltd', assignees: [team.users.member.id], clients: [client.id], updated_at: at(1) }))
  })

  describe('validation', () => {
    async function rejects(body: unknown, errors: Record<string, unknown>) {
      const { mock, api } = setup()
      const organisation = await create(api(), FULL)
      mock.clock.advance(MINUTE)
      const res = await api().patch(`/organisations/${organisation.id}`, body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expect((await api().get(`/organisations/${organisation.id}`)).body).toEqual(organisation)
    }

    it.each([
      ['an empty body', {}],
      ['only other fields', { status: 'pending', reference: 'ORG-2' }],
      ['a null name', { name: null }],
      ['a blank name', { name: '   ' }],
    ])('requires name, as the spec lists it (%s)', (_, body) => rejects(body, { name: ['The name field is required.'] }))

    it('requires jurisdiction when company_number is given, even when one is stored', () =>
      rejects({ name: 'Lee Holdings Ltd', company_number: '07654321' }, { jurisdiction: ['The jurisdiction field is required when company number is present.'] }))

    it('validates the address like a client address', () =>
      rejects(
        { name: 'Lee Holdings Ltd', address: { street_name: 'Main Street', country: 'GB' } },
        { 'address.postcode': ['The postcode field is required when country is GB.'] },
      ))

    it('validates every field and changes nothing on failure', () =>
      rejects(
        { name: 'n'.repeat(256), status: 'bogus', jurisdiction: 'uk', reference: 5, incorporated_at: '2015-02-30', address: 'Oxford' },
        {
          name: ['The name field must not be greater than 255 characters.'],
          status: ['The selected status is invalid.'],
          jurisdiction: ['The selected jurisdiction is invalid.'],
          reference: ['The reference field must be a string.'],
          incorporated_at: ['The incorporated at field must match the format Y-m-d.'],
          address: ['The address field must be an object.'],
        },
      ))

    it.each([
      ['an array', []],
      ['a string', 'Lee'],
    ])('rejects a body that is %s', (_, body) => rejects(body, { errors: ['The request body must be a JSON object.'] }))
  })

  it('answers 404 for an unknown id, a non-numeric id and an organisation of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const organisation = await create(a.api())
    const unknown = await b.api().patch('/organisations/987654321', LEE)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Organisation not found' })
    const route = await b.api().patch('/organisations/abc', LEE)
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    const foreign = await b.api().patch(`/organisations/${organisation.id}`, { name: 'Taken Over' })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Organisation not found' })
    expect((await a.api().get(`/organisations/${organisation.id}`)).body).toEqual(organisation)
  })

  it('forbids a read-only member (404 first for an unknown id), and changes nothing', async () => {
    const { api } = setup()
    const organisation = await create(api())
    const res = await api('read-only').patch(`/organisations/${organisation.id}`, { name: 'Renamed' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    const invalidBody = await api('read-only').patch(`/organisations/${organisation.id}`, {})
    expect(invalidBody.status).toBe(403)
    expect(invalidBody.body).toEqual({ message: 'This action is unauthorized.' })
    const unknown = await api('read-only').patch('/organisations/987654321', { name: 'Renamed' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Organisation not found' })
    expect((await api().get(`/organisations/${organisation.id}`)).body).toEqual(organisation)
  })

  it('forbids an assigned-only member an organisation they are not assigned to, and lets them update one they are', async () => {
    const team = setup()
    const organisation = await create(team.api())
    const forbidden = await team.api('assigned-only').patch(`/organisations/${organisation.id}`, { name: 'Renamed' })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ message: 'This action is unauthorized.' })
    expect((await team.api().get(`/organisations/${organisation.id}`)).body).toEqual(organisation)
    await assign(team.api(), `/organisations/${organisation.id}/assignees`, [team.users['assigned-only'].id])
    const res = await team.api('assigned-only').patch(`/organisations/${organisation.id}`, { name: 'Renamed' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(orgJson(organisation.id, { name: 'Renamed', assignees: [team.users['assigned-only'].id] }))
  })
})

describe('GET /organisations/{id}/clients', () => {
  it('lists the clients, the newest-created first, exactly as GET /clients/{id} shows them (docs/specification-notes.md "Organisations")', async () => {
    const { mock, api } = setup()
    const first = await createClient(api(), 'First', 'Created')
    mock.clock.advance(MINUTE)
    const second = await createClient(api(), 'Second', 'Created')
    mock.clock.advance(MINUTE)
    const third = await createClient(api(), 'Third', 'Created')
    const outsider = await createClient(api(), 'Not', 'Member')
    const organisation = await create(api())
    // Joining order differs from creation order.
    await join(api(), second.id, [organisation.id])
    await join(api(), third.id, [organisation.id])
    await join(api(), first.id, [organisation.id])
    const res = await api('read-only').get(`/organisations/${organisation.id}/clients`)
    expect(res.status).toBe(200)
    const shown = await Promise.all([third, second, first].map(async (client) => (await api('read-only').get(`/clients/${client.id}`)).body))
    expect(res.body).toEqual({ object: 'paginated_list', data: shown, total: 3, count: 3, limit: 25, current_page: 1, total_pages: 1, links: null })
    expect(shown.map((client) => client.id)).not.toContain(outsider.id)
  })

  it('puts the newest-created first even when clients were created in another order than their ids', async () => {
    const { mock, api } = setup()
    const late = await createClient(api(), 'Late', 'Created')
    mock.clock.set(new Date('2026-06-30T08:00:00Z'))
    const early = await createClient(api(), 'Early', 'Created')
    const organisation = await create(api())
    await join(api(), early.id, [organisation.id])
    await join(api(), late.id, [organisation.id])
    expect(await ids(api(), `/organisations/${organisation.id}/clients`)).toEqual([late.id, early.id])
    expect((await api().get(`/organisations/${organisation.id}`)).body.clients).toEqual([late.id, early.id])
  })

  it('is an empty single page for an organisation without clients', async () => {
    const { api } = setup()
    const organisation = await create(api())
    const res = await api().get(`/organisations/${organisation.id}/clients`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'paginated_list', data: [], total: 0, count: 0, limit: 25, current_page: 1, total_pages: 1, links: null })
  })

  it('pages, with links, and answers an empty data past the end', async () => {
    const { mock, api } = setup()
    const organisation = await create(api())
    const created: number[] = []
    for (let index = 0; index < 5; index++) {
      mock.clock.advance(MINUTE)
      const client = await createClient(api(), `Client${index}`, 'Paged')
      created.push(client.id)
      await join(api(), client.id, [organisation.id])
    }
    const newestFirst = [...created].reverse()
    const url = `${BASE}/organisations/${organisation.id}/clients`
    const first = await api().get(`/organisations/${organisation.id}/clients`, { limit: 2 })
    expect(first.body.data.map((c: { id: number }) => c.id)).toEqual(newestFirst.slice(0, 2))
    expect(first.body).toMatchObject({ total: 5, count: 2, limit: 2, current_page: 1, total_pages: 3 })
    expect(first.body.links).toEqual({ next: `${url}?limit=2&page=2`, previous: null })
    const last = await api().get(`/organisations/${organisation.id}/clients`, { limit: 2, page: 3 })
    expect(last.body.data.map((c: { id: number }) => c.id)).toEqual(newestFirst.slice(4))
    expect(last.body.links).toEqual({ next: null, previous: `${url}?limit=2&page=2` })
    const past = await api().get(`/organisations/${organisation.id}/clients`, { limit: 2, page: 4 })
    expect(past.body).toEqual({
      object: 'paginated_list',
      data: [],
      total: 5,
      count: 0,
      limit: 2,
      current_page: 4,
      total_pages: 3,
      links: { next: null, previous: `${url}?limit=2&page=3` },
    })
  })

  it('shows an assigned-only member only the clients assigned to them, and 403 on an organisation not assigned to them', async () => {
    const team = setup()
    const api = team.api()
    const mine = await createClient(api, 'Mine', 'Client')
    const theirs = await createClient(api, 'Their', 'Client')
    const organisation = await create(api)
    await join(api, mine.id, [organisation.id])
    await join(api, theirs.id, [organisation.id])
    const restricted = team.api('assigned-only')
    const forbidden = await restricted.get(`/organisations/${organisation.id}/clients`)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ message: 'This action is unauthorized.' })
    await assign(api, `/organisations/${organisation.id}/assignees`, [team.users['assigned-only'].id])
    await assign(api, `/clients/${mine.id}/assignees`, [team.users['assigned-only'].id])
    const res = await restricted.get(`/organisations/${organisation.id}/clients`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(singlePage([(await restricted.get(`/clients/${mine.id}`)).body]))
    expect(await ids(api, `/organisations/${organisation.id}/clients`)).toEqual([theirs.id, mine.id])
  })

  it('answers 404 for an unknown organisation and for one of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const organisation = await create(a.api())
    for (const path of ['/organisations/987654321/clients', `/organisations/${organisation.id}/clients`]) {
      const res = await b.api().get(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: 'Organisation not found' })
    }
  })

  it('rejects bad paging parameters', async () => {
    const { api } = setup()
    const organisation = await create(api())
    const res = await api().get(`/organisations/${organisation.id}/clients`, { limit: 101, page: 0 })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ limit: ['The limit field must not be greater than 100.'], page: ['The page field must be at least 1.'] })
  })
})

describe('the seeded teams', () => {
  it.each([
    ['ivs_acme_owner', 'acme'],
    ['ivs_globex_owner', 'globex'],
    ['ivs_initech_owner', 'initech'],
  ])('%s lists all of its seeded organisations within contract, as GET /organisations/{id} shows them', async (token, key) => {
    const mock = createTestMock()
    const api = mock.api(token)
    const expected = fixture.teams.find((team) => team.key === key)?.generate.organisations
    const res = await api.get('/organisations', { limit: 100 })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: expected, count: expected, limit: 100, current_page: 1, total_pages: 1, links: null })
    const data: any[] = res.body.data
    for (const organisation of data) expect((await api.get(`/organisations/${organisation.id}`)).body).toEqual(organisation)
    const createdAt = data.map((organisation) => organisation.created_at as string)
    expect(createdAt).toEqual([...createdAt].sort())
    // Rule 9 of docs/specification-notes.md "Rules of the service": an archived organisation has no clients.
    for (const organisation of data.filter((o) => o.archived_at !== null)) expect(organisation.clients).toBeNull()
    const expanded = await api.get('/organisations', { limit: 100, expand: 'assignees,clients' })
    expect(expanded.status).toBe(200)
    expect(expanded.body.data.map((o: { id: number }) => o.id)).toEqual(data.map((o) => o.id))
  })

  it('has organisations with and without an address, and archived ones with clients null that show under visibility=archived', async () => {
    const mock = createTestMock()
    const all: any[] = []
    for (const token of ['ivs_acme_owner', 'ivs_globex_owner', 'ivs_initech_owner']) {
      const data: any[] = (await mock.api(token).get('/organisations', { limit: 100 })).body.data
      const archived = await mock.api(token).get('/organisations', { visibility: 'archived', limit: 100 })
      expect(archived.body.data).toEqual(data.filter((o) => o.archived_at !== null))
      all.push(...data)
    }
    expect(all.some((o) => o.address !== null)).toBe(true)
    expect(all.some((o) => o.address === null)).toBe(true)
    // docs/specification-notes.md "Organisations": a company number comes with its jurisdiction.
    for (const organisation of all.filter((o) => o.company_number !== null)) expect(organisation.jurisdiction, organisation.name).not.toBeNull()
    expect(all.some((o) => o.clients !== null)).toBe(true)
    const archived = all.filter((o) => o.archived_at !== null)
    expect(archived.length).toBeGreaterThan(0)
    expect(archived.map((o) => o.clients)).toEqual(archived.map(() => null))
  })

  it('shows the seeded assigned-only member only the organisations assigned to them', async () => {
    const mock = createTestMock()
    const me = (await mock.api('ivs_acme_assigned').get('/me')).body
    const all = (await mock.api('ivs_acme_owner').get('/organisations', { limit: 100 })).body.data as any[]
    const assigned = all.filter((organisation) => (organisation.assignees ?? []).includes(me.id)).map((organisation) => organisation.id)
    expect(assigned.length).toBeGreaterThan(0)
    expect(await orgIds(mock.api('ivs_acme_assigned'), { limit: 100 })).toEqual(assigned)
    const hidden = all.find((organisation) => !assigned.includes(organisation.id))
    const res = await mock.api('ivs_acme_assigned').get(`/organisations/${hidden.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    const readOnly = await mock.api('ivs_acme_readonly').patch(`/organisations/${hidden.id}`, { name: 'Renamed' })
    expect(readOnly.status).toBe(403)
    expect(readOnly.body).toEqual({ message: 'This action is unauthorized.' })
  })
})
