// The kernel's table indexes that follow rows whose keys change, against a brute-force answer over
// seeded runs of inserts, changes and deletes: what holds each key (GroupByEach: record documents
// and form answers by attachment) and rows kept in a sort order (OrderedRows: credits and forms by
// created_at, a row changed where its value did not move).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChangeCount } from '../../src/kernel/answer-cache.ts'
import { Table } from '../../src/store/table.ts'

interface Row {
  readonly id: number
  readonly keys: readonly number[]
  readonly at: number
}

type Step =
  | { op: 'insert'; keys: number[]; at: number }
  | { op: 'gain'; pick: number; key: number }
  | { op: 'replace'; pick: number; keys: number[] }
  | { op: 'move'; pick: number; at: number }
  | { op: 'touch'; pick: number }
  | { op: 'delete'; pick: number }
  | { op: 'read'; key: number }

const key = fc.integer({ min: 1, max: 8 })
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), keys: fc.array(key, { maxLength: 3 }), at: fc.integer({ min: 0, max: 20 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('gain' as const), pick: fc.nat(), key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), pick: fc.nat(), keys: fc.array(key, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('move' as const), pick: fc.nat(), at: fc.integer({ min: 0, max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('touch' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('read' as const), key }) },
)

/** Plays the steps on a table and its indexes, every change through Table.update, and checks both indexes after each step. */
function play(steps: Step[]) {
  const rows: Row[] = []
  const table = new Table(rows, new ChangeCount())
  const holders = table.groupByEach((row: Row) => row.keys)
  const ordered = table.orderedBy((a: Row, b: Row) => a.at - b.at || a.id - b.id)
  let nextId = 1
  const live = () => table.all()
  const picked = (pick: number) => live()[pick % Math.max(1, live().length)]
  // Each index is built at its first read: the steps before it are found by the build, those after by the table's calls.
  const check = (keys: readonly number[]) => {
    for (const each of keys) expect(holders.get(each).map((row) => row.id).sort((a, b) => a - b)).toEqual(live().filter((row) => row.keys.includes(each)).map((row) => row.id))
    expect(ordered.rows().map((row) => row.id)).toEqual([...live()].sort((a, b) => a.at - b.at || a.id - b.id).map((row) => row.id))
  }
  for (const each of steps) {
    if (each.op === 'insert') table.insert({ id: nextId++, keys: [...new Set(each.keys)], at: each.at })
    else if (each.op === 'read') check([each.key])
    else {
      const row = picked(each.pick)
      if (!row) continue
      if (each.op === 'delete') table.delete(row.id)
      else {
        table.update(row, (draft) => {
          if (each.op === 'gain' && !draft.keys.includes(each.key)) draft.keys.push(each.key)
          if (each.op === 'replace') draft.keys = [...new Set(each.keys)]
          if (each.op === 'move') draft.at = each.at
        })
      }
    }
  }
  check([1, 2, 3, 4, 5, 6, 7, 8])
}

describe('the indexes of a table whose rows change', () => {
  it('find the rows that hold each key, and keep the rows in order, as a scan and a sort would, over seeded runs', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => play(steps)),
      { seed: 3_301, numRuns: 300 },
    )
  })

  it('find a key a row gained after the index was built, and pass over one it let go of', () => {
    play([
      { op: 'insert', keys: [1], at: 5 },
      { op: 'insert', keys: [2], at: 3 },
      { op: 'read', key: 1 },
      { op: 'gain', pick: 1, key: 1 },
      { op: 'read', key: 1 },
      { op: 'replace', pick: 0, keys: [3] },
      { op: 'read', key: 1 },
      { op: 'move', pick: 0, at: 1 },
      { op: 'read', key: 3 },
    ])
  })
})

describe('a table of rows by id', () => {
  it('finds each row by its id as a Map would, over seeded runs of inserts and deletes with ids in runs, in gaps, before the first and far past the last', () => {
    // Ids near the last one inserted (a run, with gaps), and anywhere (before the first, far past the last, an id the run later reaches).
    const op = fc.oneof(
      { weight: 20, arbitrary: fc.record({ op: fc.constant('insert' as const), step: fc.integer({ min: 1, max: 3 }) }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('insert' as const), step: fc.integer({ min: 4, max: 40 }) }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant('insert anywhere' as const), id: fc.integer({ min: -5, max: 400 }) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: -5, max: 400 }) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('read' as const), id: fc.integer({ min: -5, max: 400 }) }) },
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.array(op, { minLength: 40, maxLength: 150 }), (start, ops) => {
        // The first row starts the run.
        const table = new Table<{ id: number }>([], new ChangeCount())
        const model = new Map<number, { id: number }>([[start, table.insert({ id: start })]])
        let last = start
        for (const each of ops) {
          if (each.op === 'read') {
            expect(table.get(each.id)).toBe(model.get(each.id))
            continue
          }
          if (each.op === 'delete') {
            expect(table.delete(each.id)).toBe(model.get(each.id))
            model.delete(each.id)
            continue
          }
          const id = each.op === 'insert' ? (last += each.step) : each.id
          const row = { id }
          if (model.has(id)) expect(() => table.insert(row)).toThrow(`table: a row with id ${id} exists already`)
          else {
            table.insert(row)
            model.set(id, row)
          }
        }
        for (let id = -5; id <= last + 25; id++) expect(table.get(id)).toBe(model.get(id))
        expect(table.size).toBe(model.size)
      }),
      { seed: 43, numRuns: 400 },
    )
  })

  it('refuses a row whose id it holds, whether its rows came with it or were inserted, and takes an id back once its row is deleted', () => {
    const table = new Table([{ id: 7 }, { id: 3 }], new ChangeCount())
    expect(() => table.insert({ id: 3 })).toThrow('table: a row with id 3 exists already')
    expect(() => table.insert({ id: 7 })).toThrow('table: a row with id 7 exists already')
    table.insert({ id: 9 })
    table.insert({ id: 5 })
    expect(() => table.insert({ id: 9 })).toThrow('table: a row with id 9 exists already')
    expect(() => table.insert({ id: 5 })).toThrow('table: a row with id 5 exists already')
    table.delete(9)
    table.insert({ id: 9 })
    expect(table.all().map((row) => row.id)).toEqual([7, 3, 5, 9])
    expect(table.get(9)).toEqual({ id: 9 })
  })
})

describe('a table of rows by id, with ids that are no whole number', () => {
  it('finds them as a Map would, beside a run of whole ones', () => {
    const table = new Table<{ id: number }>([], new ChangeCount())
    for (const id of [10, 11, 12, 11.5, Number.MAX_SAFE_INTEGER + 2, -1]) table.insert({ id })
    for (const id of [10, 11, 12, 11.5, Number.MAX_SAFE_INTEGER + 2, -1]) expect(table.get(id)).toEqual({ id })
    expect(table.get(12.5)).toBeUndefined()
    table.delete(11.5)
    expect(table.get(11.5)).toBeUndefined()
    expect(table.all().map((row) => row.id)).toEqual([10, 11, 12, Number.MAX_SAFE_INTEGER + 2, -1])
  })
})

describe('the one way to change a row', () => {
  it("moves its team's count on with every insert, update and delete, never with a read, and refuses a row that is not the table's", () => {
    const changes = new ChangeCount()
    const table = new Table<{ readonly id: number; readonly name: string }>([{ id: 1, name: 'a' }], changes)
    table.get(1)
    table.all()
    table.filter(() => true)
    expect(changes.value).toBe(0)
    table.insert({ id: 2, name: 'b' })
    const updated = table.update(table.get(2)!, { name: 'c' })
    expect([updated, table.get(2)]).toEqual([{ id: 2, name: 'c' }, { id: 2, name: 'c' }])
    table.update(table.get(1)!, (draft) => {
      draft.name = 'd'
    })
    table.delete(2)
    table.delete(3)
    expect(changes.value).toBe(4)
    expect(() => table.update({ id: 1, name: 'a copy' }, { name: 'e' })).toThrow("table: row 1 is not this table's")
    expect(table.get(1)).toEqual({ id: 1, name: 'd' })
  })

  it("places a table's rows again when a row of a table it follows changes", () => {
    const parents = new Table<{ readonly id: number; readonly archived: boolean }>([{ id: 1, archived: false }], new ChangeCount())
    const children = new Table<{ readonly id: number; readonly parent: number }>([{ id: 10, parent: 1 }, { id: 11, parent: 1 }], new ChangeCount())
    const byParent = children.groupBy((child) => child.parent)
    const byParentState = children.partitionBy((child) => parents.get(child.parent)?.archived ?? false, (a, b) => a.id < b.id)
    children.follows(parents, (parent) => byParent.get(parent.id))
    expect(byParentState.get(true)).toEqual([])
    parents.update(parents.get(1)!, { archived: true })
    expect(byParentState.get(true).map((child) => child.id)).toEqual([10, 11])
    expect(byParentState.get(false)).toEqual([])
  })
})
