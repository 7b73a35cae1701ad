// The floor the scale goals are set against (npm run bench measures it in the same run as the scale
// team; --only-floor alone): what the rows of the scale team cost on their own, held as the plain objects every service reads and writes (and as a data file
// holds them), without an index or anything else of the mock. The team is made in process by the
// seed, each table's rows are written out as JSON, and a fresh Node process reads them back (its
// heap is then the rows' alone) and copies them once (what making that many objects costs); a few
// such processes in turn (--scale-repeats), the median copy taken. A store that keeps rows as
// objects can go no lower than these.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRandom } from '../src/kernel/random.ts'
import { loadWorldFixture } from '../src/seed/fixture.ts'
import { addTeam, seedWorld } from '../src/seed/index.ts'
import { Store } from '../src/store/world.ts'
import { TABLES } from '../src/tables.ts'
import { medianBy } from './load.ts'
import { report } from './report.ts'

export interface FloorOptions {
  clients: number
  records: number
  /** Fresh processes that each read the rows back and copy them: the copy's median is the floor's time. */
  copies: number
}

export interface Floor {
  /** The rows' heap, read back by a fresh Node. */
  heapBytes: number
  /** Making the rows' objects once (a deep copy). */
  copySeconds: number
  /** The process's CPU time over the copy's wall time (its collector's threads count too). */
  copyCpu: number
  parseSeconds: number
}

/** Run by a fresh Node (--expose-gc) over the folder of tables: their heap once parsed, the time to parse them and to copy them. */
const MEASURE = `
const { readdirSync, readFileSync } = require('node:fs')
const folder = process.argv[1]
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed }
const before = heap()
const tables = {}
let parseMs = 0
for (const file of readdirSync(folder)) {
  const text = readFileSync(folder + '/' + file, 'utf8')
  const began = performance.now()
  tables[file] = JSON.parse(text)
  parseMs += performance.now() - began
}
const heapBytes = heap() - before
const copy = (value) => {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(copy)
  const copied = {}
  for (const key in value) copied[key] = copy(value[key])
  return copied
}
const began = performance.now()
const cpu = process.cpuUsage()
const copies = copy(tables)
const copyMs = performance.now() - began
const used = process.cpuUsage(cpu)
process.stdout.write(JSON.stringify({ heapBytes, parseMs, copyMs, copyCpu: (used.user + used.system) / 1000 / copyMs, kept: Object.keys(copies).length }))
`

const megabytes = (bytes: number) => `${new Intl.NumberFormat('en-GB').format(Math.round(bytes / 1e6))} MB`
const counted = new Intl.NumberFormat('en-GB')

export function measureFloor(options: FloorOptions): Floor {
  report(`floor: the rows of a team of ${counted.format(options.clients)} clients and ${counted.format(options.records)} records as plain objects, nothing else`)
  const store = new Store(seedWorld(loadWorldFixture()), TABLES)
  const began = performance.now()
  const { team } = addTeam(store, createRandom(5), new Date('2026-06-01T00:00:00Z'), { generate: { clients: options.clients, records: options.records, credit_entries: 1000 } })
  report(`  made in process in ${((performance.now() - began) / 1000).toFixed(1)} s`)
  const folder = mkdtempSync(join(tmpdir(), 'ivs-floor-'))
  try {
    const tables: Array<[string, unknown[]]> = [
      ...Object.entries(team.state).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]) && entry[1].length > 0),
      ['jobs', store.data.jobs.filter((job) => job.team === team.id)],
    ]
    let rows = 0
    let bytes = 0
    const sizes: string[] = []
    for (const [name, table] of tables) {
      // One table at a time: the team's JSON as one text is longer than a string can be.
      const text = JSON.stringify(table)
      writeFileSync(join(folder, `${name}.json`), text)
      rows += table.length
      bytes += text.length
      sizes.push(`${name} ${megabytes(text.length)}`)
    }
    report(`  its rows: ${counted.format(rows)} in ${tables.length} tables, ${megabytes(bytes)} of JSON (${sizes.join(', ')})`)
    // One copy's time varied from 4.7 to 9.2 s between whole runs on the same machine: the floor is the median of a few.
    const copies: Floor[] = []
    for (let copy = 1; copy <= options.copies; copy++) {
      const measured = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '-e', MEASURE, folder], { encoding: 'utf8', maxBuffer: 1 << 20 })) as {
        heapBytes: number
        parseMs: number
        copyMs: number
        copyCpu: number
      }
      const floor = { heapBytes: measured.heapBytes, copySeconds: measured.copyMs / 1000, copyCpu: measured.copyCpu, parseSeconds: measured.parseMs / 1000 }
      copies.push(floor)
      report(
        `  read back by a fresh Node (${copy} of ${options.copies}): ${megabytes(floor.heapBytes)} of heap, parsed in ${floor.parseSeconds.toFixed(1)} s, copied once in ${floor.copySeconds.toFixed(1)} s at ${(floor.copyCpu * 100).toFixed(0)} % CPU (a copy: no draw, no rule, no index)`,
      )
    }
    const floor = medianBy(copies, (copy) => copy.copySeconds)
    if (copies.length > 1) report(`  the floor: the median copy, ${floor.copySeconds.toFixed(1)} s (${copies.map((each) => each.copySeconds.toFixed(1)).join(', ')} s)`)
    return floor
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
