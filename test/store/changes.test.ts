// What a write unit's commit writes (src/store/changes.ts): rows inserted whole, deletes in order,
// and nothing for a row inserted and deleted again before the commit.
import { describe, expect, it } from 'vitest'
import { ChangeSink, deleted, drain, inserted, inUnit, register, touched } from '../../src/store/changes.ts'

describe('drain', () => {
  it('writes neither the insert nor the delete of a row deleted again before the commit; one inserted once more is written', () => {
    const sink = new ChangeSink(() => ({}))
    const rows: object[] = []
    register(sink, rows, '1/clients')
    const before = { id: 9 }
    expect(inUnit(sink, (unit) => (inserted(rows, before), drain(unit)))).toEqual([['i', '1/clients', before]])
    const kept = { id: 1 }
    const gone = { id: 2 }
    const back = { id: 3 }
    const changes = inUnit(sink, (unit) => {
      inserted(rows, kept)
      inserted(rows, gone)
      inserted(rows, back)
      deleted(rows, gone)
      deleted(rows, back)
      deleted(rows, before)
      inserted(rows, back)
      touched(rows, gone)
      return drain(unit)
    })
    expect(changes).toEqual([
      ['i', '1/clients', kept],
      ['d', '1/clients', 9],
      ['i', '1/clients', back],
    ])
  })
})
