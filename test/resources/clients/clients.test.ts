import { describe, expect, it } from 'vitest'
import type { ApiClient } from '../../support/api.ts'
import { at, createTestMock, NOW, type TestMock } from '../../support/mock.ts'
import type { Role } from '../../../src/kernel/roles.ts'
import { assign, createOrganisation } from '../../support/requests.ts'
import { giveRecord } from '../../support/rows.ts'

const MINUTE = 60_000
const LATER = '2026-07-01T12:01:00Z'

type NewTeam = ReturnType<TestMock['newTeam']>

/** A fresh mock with one fresh team (a user of every role). */
function setup() {
  const mock = createTestMock()
  const team = mock.newTeam()
  return { mock, ...team }
}

const ANN = { name: { first_name: 'Ann', last_name: 'Lee' }, email: 'ann.lee@example.com' }

async function createClient(api: ApiClient, body: Record<string, unknown> = ANN): Promise<any> {
  const res = await api.post('/clients', body)
  expect(res.status).toBe(201)
  return res.body
}

/** The wire client Ann Lee as created at NOW with no optional fields, with overrides. */
function annJson(id: number, overrides: Record<string, unknown> = {}, name: Record<string, unknown> = {}) {
  return {
    object: 'client',
    id,
    status: null,
    name: {
      object: 'name',
      title: null,
      other_title: null,
      first_name: 'Ann',
      middle_name: null,
      last_name: 'Lee',
      name: 'Ann Lee',
      full_name: 'Ann Lee',
      complete_name: 'Ann Lee',
      ...name,
    },
    email: 'ann.lee@example.com',
    landline: null,
    mobile: null,
    dob: null,
    reference: null,
    national_insurance_number: null,
    is_deletable: true,
    deletion_date: null,
    created_at: NOW,
    updated_at: NOW,
    archived_at: null,
    ...overrides,
  }
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

/** Events published from a mark on (a mark is mock.events.length taken earlier). */
const eventsSince = (mock: TestMock, mark: number) => mock.events.slice(mark)

const clientEvent = (team: NewTeam, type: string, client: number, occurredAt = NOW) => ({
  type,
  teamId: team.team.id,
  occurredAt,
  subjects: { client },
})

/** docs/specification-notes.md "Clients": the allowed country codes. */
const SPEC_COUNTRIES = `AF AX AL DZ AS AD AO AI AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BA BW BV BR IO BN BG BF BI KH CA CV
  KY CF TD CL CN CX CC CO KM CG CD CK CR HR CU CW CY CZ CI DK DJ DM DO EC EG SV GQ ER EE ET FK FO FJ FI FR GF PF TF GA GM GE DE GH GI GR GL
  GD GP GU GT GG GN GW GY HT HM VA HN HK HU IS IN ID IR IQ IE IM IL IT JM JP JE JO KZ KE KI KP XK KW KG LA LV LB LS LR LY LI LT LU MO MK MG
  MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA MZ MM NA NR NP NL AN NC NZ NI NE NG NU NF MP NO OM PK PS PW PA PG PY PE PH PN PL PT
  PR QA CM RE RO RU RW BL SH KN LC MF PM WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS KR SS ES LK VC SD SR SJ SZ SE CH SY TW TJ TZ TH TL
  TG TK TO TT TN TR TM TC TV UG UA AE GB US UM UY UZ VU VE VN VG VI WF EH YE YU ZM ZW`.split(/\s+/)

describe('POST /clients', () => {
  it('creates a client with every optional field and answers 201 with the whole client', async () => {
    const { mock, api } = setup()
    const res = await api().post('/clients', {
      name: { title: 'dr', first_name: 'Ann', middle_name: 'Marie', last_name: 'Lee' },
      email: 'ann.lee@example.com',
      status: 'approved',
      landline: '020 7946 0018',
      mobile: '07700 900123',
      dob: '1985-04-12',
      reference: 'HR-0042',
      deletion_date: '2027-01-31',
    })
    expect(res.status).toBe(201)
    const id = res.body.id
    expect(Number.isInteger(id)).toBe(true)
    expect(res.body).toEqual(
      annJson(
        id,
        {
          status: 'approved',
          landline: '020 7946 0018',
          mobile: '07700 900123',
          dob: '1985-04-12',
          reference: 'HR-0042',
          deletion_date: '2027-01-31',
        },
        { title: 'dr', middle_name: 'Marie', full_name: 'Ann Marie Lee', complete_name: 'Dr Ann Marie Lee' },
      ),
    )
    expect((await api().get(`/clients/${id}`)).body).toEqual(res.body)
    expect(mock.store.data.sequences.client).toBe(id)
  })

  it('defaults every optional field to null', async () => {
    const { api } = setup()
    const res = await api().post('/clients', ANN)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(annJson(res.body.id))
  })

  it('accepts explicit nulls for the optional fields', async () => {
    const { api } = setup()
    const res = await api().post('/clients', {
      name: { title: null, other_title: null, first_name: 'Ann', middle_name: null, last_name: 'Lee' },
      email: 'ann.lee@example.com',
      landline: null,
      mobile: null,
      dob: null,
      reference: null,
      deletion_date: null,
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(annJson(res.body.id))
  })

  it('shows other_title as the title of complete_name when title is other', async () => {
    const { api } = setup()
    const res = await api().post('/clients', { ...ANN, name: { title: 'other', other_title: 'Revd', first_name: 'Ann', last_name: 'Lee' } })
    expect(res.status).toBe(201)
    expect(res.body.name).toEqual({
      object: 'name',
      title: 'other',
      other_title: 'Revd',
      first_name: 'Ann',
      middle_name: null,
      last_name: 'Lee',
      name: 'Ann Lee',
      full_name: 'Ann Lee',
      complete_name: 'Revd Ann Lee',
    })
  })

  it.each([
    ['miss', 'Miss'],
    ['ms', 'Ms'],
    ['mrs', 'Mrs'],
    ['mr', 'Mr'],
    ['dr', 'Dr'],
    ['sir', 'Sir'],
    ['master', 'Master'],
    ['mx', 'Mx'],
    ['dame', 'Dame'],
    ['lord', 'Lord'],
    ['lady', 'Lady'],
    ['prof', 'Prof'],
  ])('stores title %s as written and shows it as %s in complete_name', async (title, display) => {
    const { api } = setup()
    const res = await api().post('/clients', { ...ANN, name: { title, first_name: 'Ann', middle_name: 'Jo', last_name: 'Lee' } })
    expect(res.status).toBe(201)
    expect(res.body.name).toEqual({
      object: 'name',
      title,
      other_title: null,
      first_name: 'Ann',
      middle_name: 'Jo',
      last_name: 'Lee',
      name: 'Ann Lee',
      full_name: 'Ann Jo Lee',
      complete_name: `${display} Ann Jo Lee`,
    })
  })

  it('never deduplicates: the same person twice is two clients, and no record is issued (rules 2 and 7 of docs/specification-notes.md "Rules of the service")', async () => {
    const { mock, ...team } = setup()
    const first = await createClient(team.api(), ANN)
    const second = await createClient(team.api(), ANN)
    expect(second.id).not.toBe(first.id)
    expect(second).toEqual(annJson(second.id))
    const list = await team.api().get('/clients')
    expect(list.body.data.map((client: { id: number }) => client.id)).toEqual([first.id, second.id])
    expect(team.team.records.all()).toEqual([])
    expect(mock.events).toEqual([clientEvent(team, 'client.created', first.id), clientEvent(team, 'client.created', second.id)])
  })

  it('emits client.created for the new client, stamped with the clock', async () => {
    const { mock, ...team } = setup()
    mock.clock.advance(5 * MINUTE)
    const mark = mock.events.length
    const client = await createClient(team.api('member'))
    expect(client.created_at).toBe('2026-07-01T12:05:00Z')
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.created', client.id, '2026-07-01T12:05:00Z')])
  })

  it('lets a member create a client', async () => {
    const { api } = setup()
    const res = await api('member').post('/clients', ANN)
    expect(res.status).toBe(201)
    expect(res.body).toEqual(annJson(res.body.id))
  })

  it('ignores national_insurance_number, which is not in the create body', async () => {
    const { api } = setup()
    const res = await api().post('/clients', { ...ANN, national_insurance_number: 'QQ123456C' })
    expect(res.status).toBe(201)
    expect(res.body.national_insurance_number).toBeNull()
  })

  it('answers 401 without a token and creates nothing', async () => {
    const { mock, api, team } = setup()
    const res = await api().as(undefined).post('/clients', ANN)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'Unauthenticated.' })
    expect(team.clients.all()).toEqual([])
    expect(mock.events).toEqual([])
  })

  describe('validation', () => {
    async function rejects(body: unknown, errors: Record<string, string[]>) {
      const { mock, api, team } = setup()
      const res = await api().post('/clients', body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(errors)
      expect(team.clients.all()).toEqual([])
      expect(mock.events).toEqual([])
    }

    it('requires name and email', () =>
      rejects({}, { name: ['The name field is required.'], email: ['The email field is required.'] }))

    it('requires first_name and last_name inside name', () =>
      rejects(
        { name: { middle_name: 'Jo' }, email: 'ann@example.com' },
        { 'name.first_name': ['The first name field is required.'], 'name.last_name': ['The last name field is required.'] },
      ))

    it('rejects empty first and last names', () =>
      rejects(
        { name: { first_name: '', last_name: '' }, email: 'ann@example.com' },
        { 'name.first_name': ['The first name field is required.'], 'name.last_name': ['The last name field is required.'] },
      ))

    it('trims strings and stores blank optional fields as null, as Laravel does before validating', async () => {
      const { api } = setup()
      const res = await api().post('/clients', {
        name: { first_name: '  Ann ', middle_name: '  ', last_name: 'Lee\t' },
        email: ' ann@example.com ',
        reference: '  CL-1  ',
        mobile: '   ',
      })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        name: { first_name: 'Ann', middle_name: null, last_name: 'Lee', full_name: 'Ann Lee' },
        email: 'ann@example.com',
        reference: 'CL-1',
        mobile: null,
      })
    })

    it('rejects first and last names made only of spaces', () =>
      rejects(
        { name: { first_name: '   ', last_name: '\t ' }, email: 'ann@example.com' },
        { 'name.first_name': ['The first name field is required.'], 'name.last_name': ['The last name field is required.'] },
      ))

    it('trims Unicode spaces and zero-width spaces as Laravel does, so a no-break space is no name', () =>
      rejects(
        { name: { first_name: '\u00a0', last_name: '\u200b\u3000' }, email: 'ann@example.com' },
        { 'name.first_name': ['The first name field is required.'], 'name.last_name': ['The last name field is required.'] },
      ))

    it.each([null, ''])('refuses a status of %j: a body status is one of the three values (docs/specification-notes.md "Clients")', (status) =>
      rejects({ ...ANN, status }, { status: ['The selected status is invalid.'] }))

    it('refuses an other_title over 20 characters (docs/specification-notes.md "Clients")', () =>
      rejects(
        { ...ANN, name: { ...ANN.name, title: 'other', other_title: 'x'.repeat(21) } },
        { 'name.other_title': ['The other title field must not be greater than 20 characters.'] },
      ))

    it.each(['0@com', 'ann@localhost', '"ann lee"@example.com', 'ann@[192.0.2.1]', "o'neill+x@example.co.uk"])(
      'accepts the RFC 5321 email %j, as Laravel\'s email rule does',
      async (email) => {
        const res = await setup().api().post('/clients', { ...ANN, email })
        expect(res.status).toBe(201)
        expect(res.body.email).toBe(email)
      },
    )

    it.each(['not-an-email', 'ann@', '@example.com', 'ann lee@example.com'])('rejects the email %j', (email) =>
      rejects({ ...ANN, email }, { email: ['The email field must be a valid email address.'] }))

    it.each(['01/02/1990', '1990-1-2', '19900102', '1990-01-02T00:00:00Z'])('rejects a dob not in Y-m-d format: %j (one message)', (dob) =>
      rejects({ ...ANN, dob }, { dob: ['The dob field must match the format Y-m-d.'] }))

    it.each(['2026-02-30', '2026-13-01', '2025-02-29'])('rejects a dob that is not a real date: %j', (dob) =>
      rejects({ ...ANN, dob }, { dob: ['The dob field must match the format Y-m-d.'] }))

    it('rejects a deletion_date that is not a date (one message)', () =>
      rejects({ ...ANN, deletion_date: 'next week' }, { deletion_date: ['The deletion date field must match the format Y-m-d.'] }))

    it.each(['bogus', 'Approved', 'archived'])('rejects the status %j', (status) =>
      rejects({ ...ANN, status }, { status: ['The selected status is invalid.'] }))

    it.each(['king', 'Dr', 'mrs.'])('rejects the title %j', (title) =>
      rejects({ ...ANN, name: { ...ANN.name, title } }, { 'name.title': ['The selected title is invalid.'] }))

    it.each([
      ['missing', {}],
      ['null', { other_title: null }],
      ['empty', { other_title: '' }],
    ])('requires other_title when title is other (%s)', (_, extra) =>
      rejects(
        { ...ANN, name: { ...ANN.name, title: 'other', ...extra } },
        { 'name.other_title': ['The other title field is required when title is other.'] },
      ))

    it('limits strings to 255 characters', () =>
      rejects(
        {
          name: { title: 'other', other_title: 'o'.repeat(21), first_name: 'f'.repeat(256), middle_name: 'm'.repeat(256), last_name: 'l'.repeat(256) },
          email: `${'e'.repeat(244)}@example.com`,
          landline: '1'.repeat(256),
          mobile: '7'.repeat(256),
          reference: 'r'.repeat(256),
        },
        {
          'name.other_title': ['The other title field must not be greater than 20 characters.'],
          'name.first_name': ['The first name field must not be greater than 255 characters.'],
          'name.middle_name': ['The middle name field must not be greater than 255 characters.'],
          'name.last_name': ['The last name field must not be greater than 255 characters.'],
          email: ['The email field must not be greater than 255 characters.'],
          landline: ['The landline field must not be greater than 255 characters.'],
          mobile: ['The mobile field must not be greater than 255 characters.'],
          reference: ['The reference field must not be greater than 255 characters.'],
        },
      ))

    it('accepts strings of exactly 255 characters', async () => {
      const { api } = setup()
      const res = await api().post('/clients', {
        name: { first_name: 'f'.repeat(255), last_name: 'l'.repeat(255) },
        email: `${'e'.repeat(64)}@${'d'.repeat(60)}.example.com`,
        reference: 'r'.repeat(255),
      })
      expect(res.status).toBe(201)
      expect(res.body.name.first_name).toHaveLength(255)
      expect(res.body.reference).toHaveLength(255)
    })

    it('rejects wrong JSON types field by field', () =>
      rejects(
        { name: 'Ann Lee', email: 42, status: 1, landline: 20794600, mobile: true, dob: 19850412, reference: ['HR'], deletion_date: {} },
        {
          name: ['The name field must be an object.'],
          email: ['The email field must be a string.'],
          status: ['The selected status is invalid.'],
          landline: ['The landline field must be a string.'],
          mobile: ['The mobile field must be a string.'],
          dob: ['The dob field must be a string.'],
          reference: ['The reference field must be a string.'],
          deletion_date: ['The deletion date field must be a string.'],
        },
      ))

    it('rejects wrong JSON types inside name', () =>
      rejects(
        { name: { title: 3, other_title: 4, first_name: 5, middle_name: false, last_name: null }, email: 'ann@example.com' },
        {
          'name.title': ['The selected title is invalid.'],
          'name.other_title': ['The other title field must be a string.'],
          'name.first_name': ['The first name field must be a string.'],
          'name.middle_name': ['The middle name field must be a string.'],
          'name.last_name': ['The last name field is required.'],
        },
      ))

    it.each([
      ['an array', []],
      ['a string', 'Ann Lee'],
      ['a number', 42],
      ['null', null],
    ])('rejects a body that is %s', (_, body) => rejects(body, { errors: ['The request body must be a JSON object.'] }))

    it('rejects malformed JSON', async () => {
      const { mock, api, team } = setup()
      const res = await api().request('POST', '/clients', { raw: '{"name": {"first_name": "Ann"', headers: { 'Content-Type': 'application/json' } })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ errors: ['The request body must be valid JSON.'] })
      expect(team.clients.all()).toEqual([])
      expect(mock.events).toEqual([])
    })
  })
})

describe('GET /clients/{id}', () => {
  it('answers 200 with the client', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api('member').get(`/clients/${client.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(annJson(client.id))
  })
})

describe('PATCH /clients/{id}', () => {
  it('changes only the given fields', async () => {
    const { mock, api } = setup()
    const client = await createClient(api(), { ...ANN, reference: 'HR-1', landline: '020 7946 0018' })
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/clients/${client.id}`, { email: 'ann@new.example', mobile: '07700 900999', dob: '1990-02-28' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      annJson(client.id, {
        email: 'ann@new.example',
        mobile: '07700 900999',
        dob: '1990-02-28',
        reference: 'HR-1',
        landline: '020 7946 0018',
        updated_at: LATER,
      }),
    )
    expect((await api().get(`/clients/${client.id}`)).body).toEqual(res.body)
  })

  it('clears nullable fields given as null', async () => {
    const { mock, api } = setup()
    const client = await createClient(api(), {
      ...ANN,
      name: { ...ANN.name, middle_name: 'Jo' },
      reference: 'HR-1',
      mobile: '07700 900123',
      deletion_date: '2027-01-01',
    })
    mock.clock.advance(MINUTE)
    const res = await api().patch(`/clients/${client.id}`, { name: { middle_name: null }, reference: null, mobile: null, deletion_date: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(annJson(client.id, { updated_at: LATER }))
  })

  it('merges name parts into the stored name and recomputes the display fields', async () => {
    const { api } = setup()
    const client = await createClient(api(), { ...ANN, name: { title: 'ms', first_name: 'Ann', last_name: 'Lee' } })
    const middle = await api().patch(`/clients/${client.id}`, { name: { middle_name: 'Marie' } })
    expect(middle.status).toBe(200)
    expect(middle.body.name).toEqual({
      object: 'name',
      title: 'ms',
      other_title: null,
      first_name: 'Ann',
      middle_name: 'Marie',
      last_name: 'Lee',
      name: 'Ann Lee',
      full_name: 'Ann Marie Lee',
      complete_name: 'Ms Ann Marie Lee',
    })
    const renamed = await api().patch(`/clients/${client.id}`, { name: { last_name: 'Cole', title: 'other', other_title: 'Revd' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toEqual({
      object: 'name',
      title: 'other',
      other_title: 'Revd',
      first_name: 'Ann',
      middle_name: 'Marie',
      last_name: 'Cole',
      name: 'Ann Cole',
      full_name: 'Ann Marie Cole',
      complete_name: 'Revd Ann Marie Cole',
    })
  })

  it('stamps updated_at and emits client.updated when something changes', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').patch(`/clients/${client.id}`, { name: { first_name: 'Anne' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(annJson(client.id, { updated_at: LATER }, { first_name: 'Anne', name: 'Anne Lee', full_name: 'Anne Lee', complete_name: 'Anne Lee' }))
    expect(res.body.created_at).toBe(NOW)
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.updated', client.id, LATER)])
  })

  it('leaves updated_at alone and emits nothing when nothing changes', async () => {
    const { mock, api } = setup()
    const client = await createClient(api(), { ...ANN, status: 'pending', reference: 'HR-1', name: { ...ANN.name, middle_name: 'Jo' } })
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    for (const body of [
      { email: 'ann.lee@example.com' },
      { status: 'pending' },
      { name: { first_name: 'Ann', middle_name: 'Jo' } },
      { name: {} },
      { reference: 'HR-1', dob: null, landline: null },
    ]) {
      const res = await api().patch(`/clients/${client.id}`, body)
      expect(res.status).toBe(200)
      expect(res.body.updated_at).toBe(NOW)
    }
    expect(eventsSince(mock, mark)).toEqual([])
    expect((await api().get(`/clients/${client.id}`)).body).toEqual(client)
  })

  it('moves the status through every value, emitting client.updated and client.status each time', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    const transitions = ['pending', 'approved', 'rejected', 'pending', 'rejected', 'approved']
    for (const [index, status] of transitions.entries()) {
      mock.clock.advance(MINUTE)
      const when = at(index + 1)
      const mark = mock.events.length
      const res = await team.api('member').patch(`/clients/${client.id}`, { status })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(annJson(client.id, { status, updated_at: when }))
      expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.updated', client.id, when), clientEvent(team, 'client.status', client.id, when)])
    }
  })

  it('never sets the status back to null: a body status is one of the three values (docs/specification-notes.md "Clients")', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api(), { ...ANN, status: 'approved' })
    const mark = mock.events.length
    const res = await team.api().patch(`/clients/${client.id}`, { status: null })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ status: ['The selected status is invalid.'] })
    expect((await team.api().get(`/clients/${client.id}`)).body.status).toBe('approved')
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('emits client.updated once and client.status once when the status changes along with other fields', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api().patch(`/clients/${client.id}`, { status: 'rejected', reference: 'HR-9' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(annJson(client.id, { status: 'rejected', reference: 'HR-9', updated_at: LATER }))
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.updated', client.id, LATER), clientEvent(team, 'client.status', client.id, LATER)])
  })

  it('emits no client.status when other fields change and the status is the same', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api(), { ...ANN, status: 'approved' })
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api().patch(`/clients/${client.id}`, { status: 'approved', mobile: '07700 900555' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(annJson(client.id, { status: 'approved', mobile: '07700 900555', updated_at: LATER }))
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.updated', client.id, LATER)])
  })

  it('needs at least one property', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const mark = mock.events.length
    const res = await api().patch(`/clients/${client.id}`, {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('validates every field and changes nothing on failure', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await api().patch(`/clients/${client.id}`, {
      name: { first_name: '', last_name: 'x'.repeat(256), title: 'other' },
      email: 'not-an-email',
      status: 'bogus',
      dob: '2026-13-01',
      deletion_date: 'tomorrow',
      mobile: 7,
    })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      'name.first_name': ['The first name field is required.'],
      'name.last_name': ['The last name field must not be greater than 255 characters.'],
      'name.other_title': ['The other title field is required when title is other.'],
      email: ['The email field must be a valid email address.'],
      status: ['The selected status is invalid.'],
      dob: ['The dob field must match the format Y-m-d.'],
      deletion_date: ['The deletion date field must match the format Y-m-d.'],
      mobile: ['The mobile field must be a string.'],
    })
    expect((await api().get(`/clients/${client.id}`)).body).toEqual(client)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('rejects null first and last names (they are required strings)', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().patch(`/clients/${client.id}`, { name: { first_name: null, last_name: null } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      'name.first_name': ['The first name field is required.'],
      'name.last_name': ['The last name field is required.'],
    })
  })

  it.each([
    ['an array', []],
    ['a string', 'approved'],
  ])('rejects a body that is %s', async (_, body) => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().patch(`/clients/${client.id}`, body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['The request body must be a JSON object.'] })
  })

  it('rejects malformed JSON', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().request('PATCH', `/clients/${client.id}`, { raw: '{"status":', headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['The request body must be valid JSON.'] })
  })

  it('answers 404 for an unknown id, a non-numeric id and a client of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    const unknown = await b.api().patch('/clients/987654321', { status: 'approved' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    const route = await b.api().patch('/clients/abc', { status: 'approved' })
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    const mark = mock.events.length
    const foreign = await b.api().patch(`/clients/${client.id}`, { status: 'approved' })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Client not found' })
    expect((await a.api().get(`/clients/${client.id}`)).body.status).toBeNull()
    expect(eventsSince(mock, mark)).toEqual([])
  })
})

describe('DELETE /clients/{id}', () => {
  it('answers 204 with an empty body, then the client is gone', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    const keep = await createClient(team.api(), { ...ANN, email: 'other@example.com' })
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api().delete(`/clients/${client.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.deleted', client.id, LATER)])
    const get = await team.api().get(`/clients/${client.id}`)
    expect(get.status).toBe(404)
    expect(get.body).toEqual({ error: 'Client not found' })
    const again = await team.api().delete(`/clients/${client.id}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ error: 'Client not found' })
    const list = await team.api().get('/clients')
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([keep.id])
    expect(eventsSince(mock, mark)).toHaveLength(1)
  })

  it.each(['owner', 'assumed', 'member', 'assigned-only'] as const)('lets the %s delete a client without records', async (role) => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    await assign(team.api(), `/clients/${client.id}/assignees`, [team.users['assigned-only'].id])
    const res = await team.api(role).delete(`/clients/${client.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(team.team.clients.all()).toEqual([])
    expect(mock.events.at(-1)).toEqual(clientEvent(team, 'client.deleted', client.id))
  })

  it('forbids a read-only member to delete any client (docs/specification-notes.md "Roles")', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    const mark = mock.events.length
    const res = await team.api('read-only').delete(`/clients/${client.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    expect(team.team.clients.all()).toHaveLength(1)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it.each(['member', 'assigned-only'] as const)('forbids a %s to delete a client with records (docs/specification-notes.md "Roles")', async (role) => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    await assign(team.api(), `/clients/${client.id}/assignees`, [team.users['assigned-only'].id])
    giveRecord(mock, team.team, client.id)
    const mark = mock.events.length
    const res = await team.api(role).delete(`/clients/${client.id}`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'This action is unauthorized.' })
    expect((await team.api(role).get(`/clients/${client.id}`)).status).toBe(200)
    expect(team.team.records.all()).toHaveLength(1)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it.each(['owner', 'assumed'] as const)('lets the %s delete a client with records', async (role) => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    giveRecord(mock, team.team, client.id)
    giveRecord(mock, team.team, client.id)
    const res = await team.api(role).delete(`/clients/${client.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(team.team.clients.all()).toEqual([])
    expect(team.team.records.all()).toEqual([])
    expect(mock.events.at(-1)).toEqual(clientEvent(team, 'client.deleted', client.id))
  })

  it("shows in is_deletable whether the caller's role may delete the client", async () => {
    const { mock, ...team } = setup()
    const plain = await createClient(team.api())
    const withRecord = await createClient(team.api(), { ...ANN, email: 'other@example.com' })
    giveRecord(mock, team.team, withRecord.id)
    for (const client of [plain, withRecord]) await assign(team.api(), `/clients/${client.id}/assignees`, [team.users['assigned-only'].id])
    const expected: Record<Role, boolean[]> = {
      owner: [true, true],
      assumed: [true, true],
      member: [true, false],
      'assigned-only': [true, false],
      'read-only': [false, false],
    }
    for (const [role, [plainDeletable, recordDeletable]] of Object.entries(expected) as Array<[Role, boolean[]]>) {
      expect((await team.api(role).get(`/clients/${plain.id}`)).body.is_deletable).toBe(plainDeletable)
      expect((await team.api(role).get(`/clients/${withRecord.id}`)).body.is_deletable).toBe(recordDeletable)
      const list = await team.api(role).get('/clients')
      expect(list.body.data.map((c: { id: number; is_deletable: boolean }) => [c.id, c.is_deletable])).toEqual([
        [plain.id, plainDeletable],
        [withRecord.id, recordDeletable],
      ])
    }
  })

  it("removes the client from every organisation's clients", async () => {
    const { api } = setup()
    const client = await createClient(api())
    const other = await createClient(api(), { ...ANN, email: 'other@example.com' })
    const organisations = [
      await createOrganisation(api(), { name: 'Lee Holdings Ltd' }, [client.id, other.id]),
      await createOrganisation(api(), { name: 'Lee Holdings Ltd' }, [client.id]),
      await createOrganisation(api(), { name: 'Lee Holdings Ltd' }, [other.id]),
    ]
    const res = await api().delete(`/clients/${client.id}`)
    expect(res.status).toBe(204)
    const clientsOf = async (id: number) => (await api().get(`/organisations/${id}`)).body.clients
    expect(await Promise.all(organisations.map((o) => clientsOf(o.id)))).toEqual([[other.id], null, [other.id]])
  })

  it('answers 404 for an unknown id, a non-numeric id and a client of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    const unknown = await b.api().delete('/clients/987654321')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    const route = await b.api().delete('/clients/abc')
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    const mark = mock.events.length
    const foreign = await b.api().delete(`/clients/${client.id}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Client not found' })
    expect((await a.api().get(`/clients/${client.id}`)).status).toBe(200)
    expect(eventsSince(mock, mark)).toEqual([])
  })
})

describe('GET /clients/{id}/address', () => {
  it('is all null for a new client', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api('member').get(`/clients/${client.id}/address`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(EMPTY_ADDRESS)
  })

  it('answers 404 for an unknown id, a non-numeric id and a client of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    const unknown = await b.api().get('/clients/987654321/address')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    const route = await b.api().get('/clients/abc/address')
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    const foreign = await b.api().get(`/clients/${client.id}/address`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Client not found' })
  })
})

describe('PUT /clients/{id}/address', () => {
  const FULL = {
    unit: 'Flat 2',
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

  it('stores the whole address, stamps the client and emits client.updated', async () => {
    const { mock, ...team } = setup()
    const client = await createClient(team.api())
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await team.api('member').put(`/clients/${client.id}/address`, FULL)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'address', ...FULL })
    expect((await team.api().get(`/clients/${client.id}/address`)).body).toEqual({ object: 'address', ...FULL })
    expect((await team.api().get(`/clients/${client.id}`)).body).toEqual(annJson(client.id, { updated_at: LATER }))
    expect(eventsSince(mock, mark)).toEqual([clientEvent(team, 'client.updated', client.id, LATER)])
  })

  it('replaces everything: fields left out become null', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    await api().put(`/clients/${client.id}/address`, FULL)
    const res = await api().put(`/clients/${client.id}/address`, { house_number: '1600', street_name: 'Pennsylvania Avenue NW', city: 'Washington', province: 'DC', postcode: '20500', country: 'US' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      ...EMPTY_ADDRESS,
      house_number: '1600',
      street_name: 'Pennsylvania Avenue NW',
      city: 'Washington',
      province: 'DC',
      postcode: '20500',
      country: 'US',
    })
    const cleared = await api().put(`/clients/${client.id}/address`, { city: 'Cork', country: 'IE' })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ ...EMPTY_ADDRESS, city: 'Cork', country: 'IE' })
    expect((await api().get(`/clients/${client.id}/address`)).body).toEqual(cleared.body)
    expect(mock.events.filter((e) => e.type === 'client.updated')).toHaveLength(3)
  })

  it('leaves updated_at alone and emits nothing when the same address is put again', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    await api().put(`/clients/${client.id}/address`, FULL)
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await api().put(`/clients/${client.id}/address`, { ...FULL })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ object: 'address', ...FULL })
    expect((await api().get(`/clients/${client.id}`)).body.updated_at).toBe(NOW)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('treats an all-null address on a client without one as no change', async () => {
    const { mock, api } = setup()
    const client = await createClient(api())
    mock.clock.advance(MINUTE)
    const mark = mock.events.length
    const res = await api().put(`/clients/${client.id}/address`, { unit: null, country: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(EMPTY_ADDRESS)
    expect((await api().get(`/clients/${client.id}`)).body.updated_at).toBe(NOW)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it.each(['GB', 'US', 'CA', 'DE', 'AU'])('requires a postcode when country is %s', async (country) => {
    const { mock, api } = setup()
    const client = await createClient(api())
    const mark = mock.events.length
    for (const postcode of [{}, { postcode: null }, { postcode: '' }]) {
      const res = await api().put(`/clients/${client.id}/address`, { street_name: 'Main Street', city: 'Springfield', country, ...postcode })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ postcode: [`The postcode field is required when country is ${country}.`] })
    }
    expect((await api().get(`/clients/${client.id}/address`)).body).toEqual(EMPTY_ADDRESS)
    expect(eventsSince(mock, mark)).toEqual([])
  })

  it('accepts an address without postcode for a country that does not need one', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().put(`/clients/${client.id}/address`, { street_name: 'Main Street', city: 'Galway', country: 'IE' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...EMPTY_ADDRESS, street_name: 'Main Street', city: 'Galway', country: 'IE' })
  })

  it("accepts every country of the spec's list", async () => {
    const { api } = setup()
    const client = await createClient(api())
    expect(SPEC_COUNTRIES).toHaveLength(250)
    for (const country of SPEC_COUNTRIES) {
      const res = await api().put(`/clients/${client.id}/address`, { postcode: 'X1 1XX', country })
      expect(res.status, country).toBe(200)
      expect(res.body, country).toEqual({ ...EMPTY_ADDRESS, postcode: 'X1 1XX', country })
    }
  })

  it.each(['XX', 'UK', 'gb', 'GBR', 'BQ'])("rejects the country %j, which is not in the spec's list", async (country) => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().put(`/clients/${client.id}/address`, { postcode: 'X1 1XX', country })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ country: ['The selected country is invalid.'] })
  })

  it('needs at least one property', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().put(`/clients/${client.id}/address`, {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['At least one property is required'] })
  })

  it('rejects wrong types and over-long values field by field', async () => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().put(`/clients/${client.id}/address`, { unit: 2, house_number: 14, city: 'c'.repeat(256), postcode: ['OX3'], country: 44 })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      unit: ['The unit field must be a string.'],
      house_number: ['The house number field must be a string.'],
      city: ['The city field must not be greater than 255 characters.'],
      postcode: ['The postcode field must be a string.'],
      country: ['The selected country is invalid.'],
    })
  })

  it.each([
    ['an array', [FULL]],
    ['a string', 'Oxford'],
  ])('rejects a body that is %s', async (_, body) => {
    const { api } = setup()
    const client = await createClient(api())
    const res = await api().put(`/clients/${client.id}/address`, body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ errors: ['The request body must be a JSON object.'] })
  })

  it('answers 404 for an unknown id, a non-numeric id and a client of another team', async () => {
    const mock = createTestMock()
    const a = mock.newTeam()
    const b = mock.newTeam()
    const client = await createClient(a.api())
    const unknown = await b.api().put('/clients/987654321/address', FULL)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'Client not found' })
    const route = await b.api().put('/clients/abc/address', FULL)
    expect(route.status).toBe(404)
    expect(route.body).toEqual({ error: 'Not Found.' })
    const mark = mock.events.length
    const foreign = await b.api().put(`/clients/${client.id}/address`, FULL)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ error: 'Client not found' })
    expect((await a.api().get(`/clients/${client.id}/address`)).body).toEqual(EMPTY_ADDRESS)
    expect(eventsSince(mock, mark)).toEqual([])
  })
})
