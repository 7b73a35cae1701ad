// The list kernel: pagination (paginate, listObject), sort_by/order_by, search and expand,
// called directly as the plain functions they are.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COLLAPSED_IDS, expandOf, listRelation, NO_EXPAND } from '../../src/kernel/expand.ts'
import { listObject, paginate } from '../../src/kernel/pagination.ts'
import { foldText, matchesSearch, searchWords } from '../../src/kernel/search.ts'
import { sortRows, type SortAccessors } from '../../src/kernel/sort.ts'
import { queryShapeOf, readQuery } from '../../src/contracts/request.ts'
import { checkQuery } from '../../src/kernel/validate.ts'
import { contracts } from '../support/contracts.ts'

const BASE = 'http://localhost/api/v2/clients'

describe('paginate', () => {
  const items = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id }))
  const present = (item: { id: number }) => ({ object: 'thing', id: item.id })

  it('gives the first page with totals and a next link', () => {
    expect(paginate(items, { page: 1, limit: 3 }, `${BASE}?limit=3`, present)).toEqual({
      object: 'paginated_list',
      data: [1, 2, 3].map((id) => ({ object: 'thing', id })),
      total: 7,
      count: 3,
      limit: 3,
      current_page: 1,
      total_pages: 3,
      links: { next: `${BASE}?limit=3&page=2`, previous: null },
    })
  })

  it('gives a middle page with both links', () => {
    expect(paginate(items, { page: 2, limit: 3 }, `${BASE}?limit=3&page=2`, present)).toMatchObject({
      data: [4, 5, 6].map((id) => ({ object: 'thing', id })),
      count: 3,
      current_page: 2,
      links: { next: `${BASE}?limit=3&page=3`, previous: `${BASE}?limit=3&page=1` },
    })
  })

  it('gives a short last page without a next link', () => {
    expect(paginate(items, { page: 3, limit: 3 }, `${BASE}?limit=3&page=3`, present)).toEqual({
      object: 'paginated_list',
      data: [{ object: 'thing', id: 7 }],
      total: 7,
      count: 1,
      limit: 3,
      current_page: 3,
      total_pages: 3,
      links: { next: null, previous: `${BASE}?limit=3&page=2` },
    })
  })

  it('counts an exactly full last page as the last', () => {
    const six = items.slice(0, 6)
    expect(paginate(six, { page: 2, limit: 3 }, `${BASE}?limit=3&page=2`, present)).toMatchObject({
      total: 6,
      count: 3,
      total_pages: 2,
      links: { next: null, previous: `${BASE}?limit=3&page=1` },
    })
  })

  it('answers a page past the end with empty data, keeping the totals', () => {
    expect(paginate(items, { page: 5, limit: 3 }, `${BASE}?limit=3&page=5`, present)).toEqual({
      object: 'paginated_list',
      data: [],
      total: 7,
      count: 0,
      limit: 3,
      current_page: 5,
      total_pages: 3,
      links: { next: null, previous: `${BASE}?limit=3&page=4` },
    })
  })

  it('has links null when everything fits on one page', () => {
    expect(paginate(items, { page: 1, limit: 25 }, BASE, present)).toEqual({
      object: 'paginated_list',
      data: items.map(present),
      total: 7,
      count: 7,
      limit: 25,
      current_page: 1,
      total_pages: 1,
      links: null,
    })
  })

  it('has one page, empty, and links null for an empty list', () => {
    expect(paginate([], { page: 1, limit: 25 }, BASE, present)).toEqual({
      object: 'paginated_list',
      data: [],
      total: 0,
      count: 0,
      limit: 25,
      current_page: 1,
      total_pages: 1,
      links: null,
    })
  })

  it('has links null on a page past the end of a single-page list', () => {
    expect(paginate(items, { page: 2, limit: 25 }, `${BASE}?page=2`, present)).toMatchObject({ data: [], count: 0, total_pages: 1, links: null })
  })

  it('keeps every query parameter of the request in the links, changing only page', () => {
    const url = `${BASE}?search=ada+lovelace&expand=client&expand=record&sort_by=name.last_name&order_by=desc&page=2&limit=2&status=approved`
    const list = paginate(items, { page: 2, limit: 2 }, url, present)
    const links = list.links as { next: string; previous: string }
    const params = (link: string) => [...new URL(link).searchParams.entries()]
    const expected = (page: string) => [
      ['search', 'ada lovelace'],
      ['expand', 'client'],
      ['expand', 'record'],
      ['sort_by', 'name.last_name'],
      ['order_by', 'desc'],
      ['page', page],
      ['limit', '2'],
      ['status', 'approved'],
    ]
    expect(params(links.next)).toEqual(expected('3'))
    expect(params(links.previous)).toEqual(expected('1'))
    expect(new URL(links.next).origin + new URL(links.next).pathname).toBe(BASE)
  })

  it('adds page to links of a request that did not name one', () => {
    const list = paginate(items, { page: 1, limit: 2 }, `${BASE}?expand=client`, present)
    expect(list.links).toEqual({ next: `${BASE}?expand=client&page=2`, previous: null })
  })

  it('keeps one page parameter when the request repeated it', () => {
    const list = paginate(items, { page: 2, limit: 2 }, `${BASE}?page=1&page=2&limit=2`, present)
    expect(list.links).toEqual({ next: `${BASE}?page=3&limit=2`, previous: `${BASE}?page=1&limit=2` })
  })

  it('presents only the items of the page', () => {
    const presented: number[] = []
    paginate(items, { page: 2, limit: 3 }, BASE, (item) => presented.push(item.id))
    expect(presented).toEqual([4, 5, 6])
  })
})

describe('listObject (docs/specification-notes.md "Wire details")', () => {
  const present = (item: { id: number }) => ({ object: 'thing', id: item.id })

  it('holds what is given, up to its limit, with the url of the collection', () => {
    expect(listObject([{ id: 1 }, { id: 2 }], 100, `${BASE}/12/assignees`, present)).toEqual({
      object: 'list',
      data: [present({ id: 1 }), present({ id: 2 })],
      total: 2,
      count: 2,
      limit: 100,
      has_more: false,
      url: `${BASE}/12/assignees`,
    })
  })

  it('shows the first page of a longer list and says there is more', () => {
    const items = Array.from({ length: 30 }, (_, index) => ({ id: index + 1 }))
    const list = listObject(items, 25, BASE, present)
    expect(list).toMatchObject({ total: 30, count: 25, limit: 25, has_more: true })
    expect(list.data.map((item) => item.id)).toEqual(items.slice(0, 25).map((item) => item.id))
  })
})

describe('listRelation (docs/specification-notes.md "Wire details")', () => {
  const items = Array.from({ length: 30 }, (_, index) => ({ id: index + 1 }))
  const present = (item: { id: number }) => ({ object: 'thing', id: item.id })
  const page = { limit: 10, url: `${BASE}/1/things` }

  it('is null when empty, expanded or not', () => {
    expect(listRelation([], false, page, (item: { id: number }) => item.id, present)).toBeNull()
    expect(listRelation([], true, page, (item: { id: number }) => item.id, present)).toBeNull()
  })

  it('collapses to at most 25 ids', () => {
    expect(COLLAPSED_IDS).toBe(25)
    expect(listRelation(items, false, page, (item) => item.id, present)).toEqual(items.slice(0, 25).map((item) => item.id))
    expect(listRelation(items.slice(0, 3), false, page, (item) => item.id, present)).toEqual([1, 2, 3])
  })

  it('expands to a list object of the first page', () => {
    expect(listRelation(items, true, page, (item) => item.id, present)).toEqual(listObject(items, 10, page.url, present))
  })
})

interface Row {
  id: number
  name: string | null
  score?: number | null
}

const accessors: SortAccessors<Row> = { name: (row) => row.name, score: (row) => row.score ?? null }
const ids = (rows: Row[]) => rows.map((row) => row.id)
const rowsNamed = (...names: Array<string | null>): Row[] => names.map((name, index) => ({ id: index + 1, name }))

describe('sortRows', () => {
  it('compares strings case-insensitively', () => {
    const rows = rowsNamed('bob', 'Alice', 'carol', 'Dave', 'alan')
    expect(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }).map((row) => row.name)).toEqual(['alan', 'Alice', 'bob', 'carol', 'Dave'])
  })

  it('ignores accents when ordering', () => {
    const rows = rowsNamed('Zoe', 'Émile', 'Dora', 'Fred')
    expect(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }).map((row) => row.name)).toEqual(['Dora', 'Émile', 'Fred', 'Zoe'])
  })

  it('puts nulls first in ascending order and last in descending order', () => {
    const rows = rowsNamed('b', null, 'a', null)
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }))).toEqual([2, 4, 3, 1])
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'desc' }))).toEqual([1, 3, 4, 2])
  })

  it('breaks ties by id (the reverse in descending order)', () => {
    const rows: Row[] = [
      { id: 9, name: 'Smith' },
      { id: 3, name: 'smith' },
      { id: 5, name: 'Adams' },
      { id: 1, name: 'SMITH' },
    ]
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }))).toEqual([5, 1, 3, 9])
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'desc' }))).toEqual([9, 3, 1, 5])
  })

  it('treats names differing only by accent as a tie', () => {
    const rows: Row[] = [
      { id: 2, name: 'Zoë' },
      { id: 1, name: 'Zoe' },
    ]
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }))).toEqual([1, 2])
  })

  it('orders digits inside strings numerically', () => {
    const rows = rowsNamed('Client 10', 'Client 2', 'Client 1', 'client 20')
    expect(sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' }).map((row) => row.name)).toEqual([
      'Client 1',
      'Client 2',
      'Client 10',
      'client 20',
    ])
  })

  it('orders numbers as numbers', () => {
    const rows: Row[] = [
      { id: 1, name: null, score: 10 },
      { id: 2, name: null, score: 9 },
      { id: 3, name: null, score: 100 },
      { id: 4, name: null, score: null },
    ]
    expect(ids(sortRows(rows, accessors, { sort_by: 'score', order_by: 'asc' }))).toEqual([4, 2, 1, 3])
  })

  it('orders wire timestamps chronologically', () => {
    const rows = rowsNamed('2026-07-01T12:00:00Z', '2025-12-31T23:59:59Z', '2026-01-01T00:00:00Z')
    expect(ids(sortRows(rows, accessors, { sort_by: 'name', order_by: 'desc' }))).toEqual([1, 3, 2])
  })

  it('sorts by id without an accessor for it', () => {
    const rows: Row[] = [3, 1, 2].map((id) => ({ id, name: null }))
    expect(ids(sortRows(rows, {}, { sort_by: 'id', order_by: 'asc' }))).toEqual([1, 2, 3])
    expect(ids(sortRows(rows, {}, { sort_by: 'id', order_by: 'desc' }))).toEqual([3, 2, 1])
  })

  it('is ascending without an order_by', () => {
    expect(ids(sortRows(rowsNamed('b', 'a'), accessors, { sort_by: 'name' }))).toEqual([2, 1])
  })

  it('returns a copy, leaving the stored rows in their order', () => {
    const rows = rowsNamed('b', 'a')
    const sorted = sortRows(rows, accessors, { sort_by: 'name', order_by: 'asc' })
    expect(sorted).not.toBe(rows)
    expect(ids(rows)).toEqual([1, 2])
  })

  it('orders any rows as one comparison of (value, id) pairs would, both ways (seeded)', () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })
    const compare = (a: Row, b: Row, key: 'name' | 'score'): number => {
      const [x, y] = [a[key] ?? null, b[key] ?? null]
      if (x !== y) {
        if (x === null) return -1
        if (y === null) return 1
        const order = typeof x === 'number' ? x - (y as number) : collator.compare(x, y as string)
        if (order !== 0) return order
      }
      return a.id - b.id
    }
    const names = ['Smith', 'smith', 'Smitham', 'Zoë', 'Zoe', 'Client 2', 'Client 10', 'ádám', 'Adam']
    const timestamps = ['2026-01-02T03:04:05Z', '2026-01-02T03:04:06Z', '2025-12-31T23:59:59Z', '2026-11-27T00:00:00Z', '2026-1-02T03:04:05Z']
    const row = fc.record({ name: fc.option(fc.constantFrom(...names, ...timestamps), { nil: null }), score: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }) })
    // Ids past 2^32 take the comparison sort; the others the packed keys' numeric sort.
    const rows = fc
      .constantFrom(1_000, 2 ** 33)
      .chain((largest) => fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: largest }), row), { selector: ([id]) => id, maxLength: 60 }))
      .map((pairs) => pairs.map(([id, fields]): Row => ({ id, ...fields })))
    // Rows given in order already (as a table in creation order gives them) take a shorter path,
    // and rows in id order (as a table or an index gives them) another.
    const arrangements = fc.constantFrom('as drawn' as const, 'in order' as const, 'by id' as const)
    fc.assert(
      fc.property(rows, fc.constantFrom('name' as const, 'score' as const), fc.constantFrom('asc' as const, 'desc' as const), arrangements, (list, key, order, given) => {
        const ascending = [...list].sort((a, b) => compare(a, b, key))
        const input = given === 'in order' ? ascending : given === 'by id' ? [...list].sort((a, b) => a.id - b.id) : list
        const expected = order === 'asc' ? ascending : [...ascending].reverse()
        expect(ids(sortRows(input, accessors, { sort_by: key, order_by: order }))).toEqual(ids(expected))
      }),
      { seed: 19, numRuns: 300 },
    )
  })

  it('throws for a sort_by it has no accessor for (a coding mistake, not a 422)', () => {
    expect(() => sortRows(rowsNamed('a'), accessors, { sort_by: 'email' })).toThrow('sort: no accessor for email')
  })
})

describe('search', () => {
  it('folds case and accents', () => {
    expect(foldText('Zoë ÉMILE Ångström')).toBe('zoe emile angstrom')
  })

  it('splits a search into folded words, ignoring extra spaces', () => {
    expect(searchWords('  Zoë   SMITH\t')).toEqual(['zoe', 'smith'])
    expect(searchWords('   ')).toEqual([])
  })

  it('matches case-insensitively', () => {
    expect(matchesSearch(searchWords('LOVELACE'), ['Ada', 'Lovelace'])).toBe(true)
    expect(matchesSearch(searchWords('ada'), ['ADA'])).toBe(true)
  })

  it('matches regardless of accents on either side', () => {
    expect(matchesSearch(searchWords('zoe'), ['Zoë'])).toBe(true)
    expect(matchesSearch(searchWords('Zoë'), ['Zoe'])).toBe(true)
    expect(matchesSearch(searchWords('francois'), ['François'])).toBe(true)
  })

  it('matches parts of words', () => {
    expect(matchesSearch(searchWords('love'), ['Lovelace'])).toBe(true)
    expect(matchesSearch(searchWords('123'), ['CL-001234'])).toBe(true)
  })

  it('needs every word, each in any field', () => {
    const fields = ['Ada', 'Lovelace', 'CL-001234']
    expect(matchesSearch(searchWords('ada cl-0012'), fields)).toBe(true)
    expect(matchesSearch(searchWords('lovelace ada'), fields)).toBe(true)
    expect(matchesSearch(searchWords('ada byron'), fields)).toBe(false)
  })

  it('does not match a word across two fields', () => {
    expect(matchesSearch(searchWords('adalovelace'), ['Ada', 'Lovelace'])).toBe(false)
  })

  it('skips null, undefined and empty fields', () => {
    expect(matchesSearch(searchWords('ada'), [null, undefined, '', 'Ada'])).toBe(true)
    expect(matchesSearch(searchWords('ada'), [null, undefined, ''])).toBe(false)
  })

  it('matches everything for a search without words', () => {
    expect(matchesSearch([], ['Ada'])).toBe(true)
    expect(matchesSearch([], [null])).toBe(true)
  })
})

describe('expandOf', () => {
  it('is the set of expanded properties', () => {
    const expand = expandOf({ expand: ['client', 'items'] })
    expect([...expand].sort()).toEqual(['client', 'items'])
    expect(expand.has('client')).toBe(true)
    expect(expand.has('assignees')).toBe(false)
  })

  it('is empty without expand (or with a value that is not a list)', () => {
    expect(expandOf({})).toBe(NO_EXPAND)
    expect(expandOf({ expand: 'client' })).toBe(NO_EXPAND)
    expect(NO_EXPAND.size).toBe(0)
  })

  it('does not depend on the order or the form of the query', () => {
    const shape = queryShapeOf(contracts.querySchema('cases.list'))
    const expandFrom = (search: string) =>
      expandOf(checkQuery(contracts.queryValidator('cases.list'), readQuery(new URL(`http://localhost/api/v2/cases${search}`).searchParams, shape)))
    const expected = ['assignees', 'client', 'items']
    expect([...expandFrom('?expand=client,items,assignees')].sort()).toEqual(expected)
    expect([...expandFrom('?expand=items&expand=assignees&expand=client')].sort()).toEqual(expected)
    expect([...expandFrom('?expand[]=assignees&expand[]=items,client')].sort()).toEqual(expected)
    expect(expandFrom('')).toBe(NO_EXPAND)
  })
})
