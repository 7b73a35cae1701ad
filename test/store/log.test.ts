// The change log's lines (src/store/log.ts): rows appended in bulk are cut into lines wherever a line
// is full, and read back, from bytes, as the rows they were, in order, each at its place.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Change } from '../../src/store/changes.ts'
import { appendLines, commitLines, DataFileError, linesOfFile, readLog, Replay } from '../../src/store/log.ts'
import type { WorldData } from '../../src/store/world.ts'

const damage = (line: number, why: string) => new DataFileError(`line ${line}: ${why}`)
const folder = mkdtempSync(join(tmpdir(), 'ivs-log-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The lines of a file holding these bytes, as the log reads them. */
function linesOf(bytes: string | Uint8Array) {
  const file = join(folder, 'lines')
  writeFileSync(file, bytes)
  return [...linesOfFile(file)]
}
const bytesOf = (lines: Iterable<string>) => linesOf([...lines].join(''))

/** Rows of varied lengths (and characters of more than one byte), seeded by their count. */
function rows(count: number, tag: string): Array<{ id: number; text: string }> {
  return Array.from({ length: count }, (_, index) => ({ id: index + 1, text: `${tag}·${'é'.repeat((index * 37) % 90)}` }))
}

describe('appendLines', () => {
  it('cuts rows into lines of about the given length, in the middle of a place too, and they read back in order', () => {
    const parts = [
      ['users', rows(40, 'user')],
      ['3/clients', rows(0, 'none')],
      ['3/records', rows(75, 'record')],
    ] as const
    for (const lineCharacters of [1, 150, 900, 5_000, 1_000_000]) {
      const lines = [...appendLines(7, parts, lineCharacters)]
      // A line holds rows up to the length, and more only when a single row is longer.
      for (const line of lines.slice(0, -1)) expect(line.length).toBeLessThan(lineCharacters + 250)
      expect(lines.every((line) => line.endsWith('\n'))).toBe(true)
      if (lineCharacters === 1_000_000) expect(lines).toHaveLength(1)
      if (lineCharacters === 150) expect(lines.length).toBeGreaterThan(20)
      const read = readLog(bytesOf(lines), 6, damage)
      expect(read.last).toBe(7)
      expect(read.commits).toHaveLength(1)
      const appended = new Map<string, unknown[]>()
      for (const change of read.commits[0] as Change[]) {
        expect(change[0]).toBe('a')
        const [, place, added] = change as ['a', string, unknown[]]
        appended.set(place, [...(appended.get(place) ?? []), ...added])
      }
      expect(appended).toEqual(new Map([['users', parts[0][1]], ['3/records', parts[2][1]]]))
    }
  })

  it('puts the rows at their places when replayed, after what the places held', () => {
    const world = { users: [{ id: 1 }], teams: [{ team: { id: 3 }, members: [], clients: [{ id: 9 }] }] } as unknown as WorldData
    const lines = appendLines(1, [['users', [{ id: 2 }, { id: 3 }]], ['3/clients', [{ id: 10 }]], ['4/clients', [{ id: 11 }]]], 10)
    new Replay(world).apply(readLog(bytesOf(lines), 0, damage).commits[0] as Change[])
    expect(world.users).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }])
    // A place of a team the world does not have holds nothing.
    expect(world.teams).toEqual([{ team: { id: 3 }, members: [], clients: [{ id: 9 }, { id: 10 }] }])
  })
})

describe('linesOfFile', () => {
  it('reads lines across its chunks of 16 MB, one longer than a chunk among them, each with the byte past its newline', () => {
    const texts = ['short', 'é'.repeat(9_000_000), '', 'x'.repeat(20_000_000), 'last']
    const lines = linesOf(`${texts.join('\n')}\nno newline yet`)
    expect(lines.map((line) => line.text)).toEqual(texts)
    let end = 0
    for (const [index, text] of texts.entries()) {
      end += Buffer.byteLength(text) + 1
      expect(lines[index]!.end).toBe(end)
    }
  })
})

describe('readLog', () => {
  it('counts bytes, not characters: a commit cut short after characters of more than one byte is left out at its first byte', () => {
    const first = [...commitLines(1, [['i', 'users', { id: 1, name: 'Zoë Ångström' }]])].join('')
    const second = [...commitLines(2, [['i', 'users', { id: 2, name: 'Łukasz' }]])].join('')
    const read = readLog(linesOf(first + second.slice(0, -1)), 0, damage)
    expect(read.last).toBe(1)
    expect(read.completeBytes).toBe(Buffer.byteLength(first))
    expect(read.commits).toEqual([[['i', 'users', { id: 1, name: 'Zoë Ångström' }]]])
  })

  it('names the line of a bulk append that is not one', () => {
    const lines = linesOf('{"n":1,"c":[["a","users",[{"id":1}]]]}\n{"n":1,"c":[["a","users",[1]]],"end":true}\n')
    expect(() => readLog(lines, 0, damage)).toThrow('line 2: not a change: ["a","users",[1]]')
  })
})
