// An answer's JSON (kernel/json-text.ts): each page item's bytes are used again while the item is
// presented the same, so the answer must stay the UTF-8 of JSON.stringify's text byte for byte
// whatever changes between requests; and, through the API, a list shows a change to a client at once, its
// is_deletable (read from the client's records) included.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonBody } from '../../src/kernel/json-text.ts'
import { createTestMock } from '../support/mock.ts'

/** The answer's JSON as bytes, whether it came as a text or as bytes. */
const bytesOf = (body: unknown, again = true) => {
  const answer = jsonBody(body, again)
  return Buffer.isBuffer(answer) ? answer : Buffer.from(answer)
}

/** What JSON.stringify writes, as UTF-8: lone surrogates are escaped, so the text encodes as it is. */
const stringified = (body: unknown) => Buffer.from(JSON.stringify(body))

class Shown {
  toJSON() {
    return 'shown'
  }
}

class Unwritten {
  readonly object = 'client'
  readonly id = 9_000_003
  toJSON() {
    return undefined
  }
}

describe('an answer as JSON', () => {
  it('is JSON.stringify of the page, over seeded runs of pages whose items change between requests', () => {
    const shownOtherwise = new Shown()
    const tricky = fc.constantFrom<unknown>(undefined, Number.NaN, -0, 0, Number.POSITIVE_INFINITY, '', '"\\\n\u2028', '\ud800', new Date(0), [undefined], {}, shownOtherwise)
    // Few keys, ids and values, so an item comes back the same, changed, reordered, shorter or longer.
    const small = fc.constantFrom<unknown>(0, 1, 'x', null, true)
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { weight: 4, arbitrary: small },
        { weight: 1, arbitrary: tricky },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
        { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 2 }) },
        { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', '1'), tie('value'), { maxKeys: 2 }) },
      ),
    })).value
    const item = fc
      .record({ id: fc.integer({ min: 1, max: 4 }), object: fc.constantFrom('client', 'record'), extra: fc.dictionary(fc.constantFrom('a', 'b', '1', 'name'), value, { maxKeys: 3 }) })
      .map(({ id, object, extra }) => ({ object, id, ...extra }))
    const page = fc.record({ data: fc.array(fc.oneof(item, value), { maxLength: 5 }), total: value, links: fc.option(fc.record({ next: fc.string() }), { nil: null }) })
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 8 }), (pages) => {
        for (const { data, total, links } of pages) {
          const body = { object: 'paginated_list', data, total, links }
          expect(bytesOf(body)).toEqual(stringified(body))
          // Each item alone, as a GET answers it (kept) and as a write does.
          for (const item of data.filter((value): value is object => typeof value === 'object' && value !== null)) {
            expect(bytesOf(item)).toEqual(stringified(item))
            expect(bytesOf(item, false)).toEqual(stringified(item))
          }
        }
      }),
      { seed: 25, numRuns: 400 },
    )
  })

  it('is bytes for a page and for an item answered again, a text for anything else', () => {
    expect(jsonBody({ object: 'client', id: 1 })).toBe('{"object":"client","id":1}')
    expect(jsonBody({ object: 'client', id: 1 }, true)).toEqual(Buffer.from('{"object":"client","id":1}'))
    expect(jsonBody({ message: 'Not found.' }, true)).toBe('{"message":"Not found."}')
    expect(jsonBody({ object: 'paginated_list', data: [{ object: 'client', id: 9_000_004, name: 'Zoë' }], total: 1 })).toEqual(
      Buffer.from('{"object":"paginated_list","data":[{"object":"client","id":9000004,"name":"Zoë"}],"total":1}'),
    )
  })

  it('writes the same item presented again the same way, and a changed one anew', () => {
    const client = { object: 'client', id: 9_000_001, name: { first_name: 'Ada', last_name: 'Byron' }, tags: ['a'] }
    const page = () => ({ object: 'paginated_list', data: [structuredClone(client)], total: 1 })
    expect(bytesOf(page())).toEqual(stringified(page()))
    expect(bytesOf(page())).toEqual(stringified(page()))
    // The same page again is the same bytes, not a copy of them.
    expect(jsonBody(page())).toBe(jsonBody(page()))
    client.name.last_name = 'Lovelace'
    expect(bytesOf(page()).toString()).toBe('{"object":"paginated_list","data":[{"object":"client","id":9000001,"name":{"first_name":"Ada","last_name":"Lovelace"},"tags":["a"]}],"total":1}')
    client.tags.push('b')
    expect(bytesOf(page())).toEqual(stringified(page()))
    // A value that writes itself otherwise (toJSON on its class) where a plain {} was.
    const plain = { object: 'paginated_list', data: [{ object: 'client', id: 9_000_002, shown: {} }], total: 1 }
    const written = { object: 'paginated_list', data: [{ object: 'client', id: 9_000_002, shown: new Shown() }], total: 1 }
    expect(bytesOf(plain)).toEqual(stringified(plain))
    expect(bytesOf(written).toString()).toBe('{"object":"paginated_list","data":[{"object":"client","id":9000002,"shown":"shown"}],"total":1}')
    // An item that writes nothing is null in the page, as in an array.
    const unwritten = { object: 'paginated_list', data: [new Unwritten()], total: 1 }
    expect(bytesOf(unwritten).toString()).toBe('{"object":"paginated_list","data":[null],"total":1}')
    expect(bytesOf(unwritten)).toEqual(stringified(unwritten))
    // Keys in another order are another text.
    const reordered = { object: 'paginated_list', data: [{ id: 9_000_001, object: 'client', tags: client.tags, name: client.name }], total: 1 }
    expect(bytesOf(reordered)).toEqual(stringified(reordered))
  })
})

describe('GET /clients answered again', () => {
  it('shows each change to a listed client at once, is_deletable (by its records and the caller) included', async () => {
    const mock = createTestMock()
    const team = mock.newTeam()
    const api = team.api()
    const created = await api.post('/clients', { name: { first_name: 'Nell', last_name: 'Gwyn' }, email: 'nell@example.com' })
    expect(created.status).toBe(201)
    const id = created.body.id
    const listed = async (role: 'owner' | 'member' = 'member') => {
      const res = await team.api(role).get('/clients')
      expect(res.status).toBe(200)
      const shown = await team.api(role).get(`/clients/${id}`)
      expect(res.body.data).toEqual([shown.body])
      return res.body.data[0]
    }
    expect(await listed()).toMatchObject({ name: { last_name: 'Gwyn', full_name: 'Nell Gwyn' }, status: null, is_deletable: true })
    expect(await listed()).toMatchObject({ name: { last_name: 'Gwyn' }, is_deletable: true })

    mock.clock.advance(60_000)
    expect((await api.patch(`/clients/${id}`, { name: { last_name: 'Stuart' }, status: 'approved' })).status).toBe(200)
    expect(await listed()).toMatchObject({ name: { last_name: 'Stuart', full_name: 'Nell Stuart' }, status: 'approved', is_deletable: true })

    // Nothing in the client's row changes when a record is made for it; its answer still does.
    const record = await api.post('/records', { client: id, steps: [{ type: 'check.identity' }], notification: false })
    expect(record.status, record.text).toBe(201)
    expect(await listed()).toMatchObject({ name: { last_name: 'Stuart' }, is_deletable: false })
    // The same client, as the owner (who may delete it) and a member in turn.
    expect(await listed('owner')).toMatchObject({ is_deletable: true })
    expect(await listed()).toMatchObject({ is_deletable: false })
  })
})
