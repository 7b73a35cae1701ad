// npm run fuzz: the long version of test/app/fuzz.test.ts, against the mock in this process
// (app.request, no sockets). It goes round every operation, a few runs at a time with a seed of its
// own per operation and round, until it has sent --requests requests or --minutes have passed, then
// prints what each operation answered. On a failure it prints the shrunk counterexample and the
// command that replays it, and exits 1.
//
//   npm run fuzz -- [--requests 100000] [--minutes 30] [--seed=S] [--operation ID[,ID...]]
//   npm run fuzz -- --operation ID --seed=S --path P      (replays one failed run)
import { parseArgs } from 'node:util'
import { contracts } from '../contracts.ts'
import { checkOperation, FUZZED_OPERATIONS, FuzzFailure, FuzzStats, operationSeed } from './property.ts'
import { buildTemplate, disposeTemplate } from './world.ts'

/** Runs per operation before going on to the next one. */
const RUNS_PER_TURN = 5

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    minutes: { type: 'string', default: '30' },
    seed: { type: 'string' },
    operation: { type: 'string' },
    path: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})

if (values.help) {
  console.log(`npm run fuzz -- [--requests N] [--minutes M] [--seed=S] [--operation ID[,ID...]] [--path P]
  --requests N   stop after N requests (default 100000)
  --minutes M    stop after M minutes whatever the count (default 30)
  --seed=S       the seed (default: a new one, printed); with --operation and --path, the run's own seed
  --operation    only these operations (operationIds, comma-separated)
  --path P       replay the failed run a failure printed (needs --operation and --seed)`)
  process.exit(0)
}

function integer(name: string, text: string | undefined): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) {
    console.error(`--${name} must be an integer, not ${text}`)
    process.exit(2)
  }
  return value
}

const operations = values.operation === undefined ? FUZZED_OPERATIONS : values.operation.split(',').map((id) => contracts.operations.get(id.trim()))
if (operations.some((op) => op === undefined)) {
  console.error(`--operation: unknown operationId in ${values.operation}`)
  process.exit(2)
}
const ops = operations as typeof FUZZED_OPERATIONS
const budget = integer('requests', values.requests)
const deadline = Date.now() + integer('minutes', values.minutes) * 60_000
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : integer('seed', values.seed)
const stats = new FuzzStats()

/** A progress bar on a terminal; a plain line every 5% (or every 30 s) elsewhere, such as CI. */
class Progress {
  private readonly tty = process.stdout.isTTY === true && !process.env.CI
  private lastLine = 0
  private lastPercent = -1
  private readonly started = Date.now()

  update(force = false): void {
    const done = Math.min(stats.requests, budget)
    const percent = Math.floor((done / budget) * 100)
    const elapsed = (Date.now() - this.started) / 1000
    const rate = stats.requests / Math.max(elapsed, 0.001)
    const text = `${done.toLocaleString('en')}/${budget.toLocaleString('en')} requests, ${stats.checks.toLocaleString('en')} world checks, ${Math.round(rate)}/s, ${formatTime(elapsed)} elapsed`
    if (this.tty) {
      if (!force && Date.now() - this.lastLine < 200) return
      const width = 30
      const filled = Math.round((done / budget) * width)
      process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${text}`)
    } else {
      if (!force && percent < this.lastPercent + 5 && Date.now() - this.lastLine < 30_000) return
      this.lastPercent = percent
      console.log(`fuzz: ${percent}% ${text}`)
    }
    this.lastLine = Date.now()
  }

  end(): void {
    this.update(true)
    if (this.tty) process.stdout.write('\n')
  }
}

function formatTime(seconds: number): string {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`
}

function summary(): void {
  console.log(`\n${stats.requests.toLocaleString('en')} requests to ${stats.byOperation.size} operations, ${stats.checks.toLocaleString('en')} world checks.`)
  const rows = [...stats.byOperation].sort(([a], [b]) => a.localeCompare(b))
  for (const [id, entry] of rows) {
    const statuses = [...entry.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')
    console.log(`  ${id.padEnd(40)} ${String(entry.sent).padStart(6)} sent, ${String(entry.invalid).padStart(5)} invalid   ${statuses}`)
  }
  const never = stats.neverSucceeded()
  if (never.length > 0) console.log(`Never answered a success: ${never.join(', ')}`)
}

async function main(): Promise<number> {
  console.log(`Fuzzing ${ops.length} operation(s), seed ${seed}: up to ${budget.toLocaleString('en')} requests or ${values.minutes} minutes.`)
  const template = await buildTemplate()
  const progress = new Progress()
  const ticker = setInterval(() => progress.update(), 250)
  try {
    if (values.path !== undefined) {
      const [op] = ops
      if (ops.length !== 1 || !op || values.seed === undefined) throw new Error('--path replays one run: give --operation (one) and --seed too')
      await checkOperation(op, { template, stats, seed, numRuns: 1, path: values.path })
      progress.end()
      console.log(`The run at seed ${seed}, path ${values.path} of ${op.id} passes.`)
      return 0
    }
    for (let round = 0; stats.requests < budget && Date.now() < deadline; round++) {
      for (const op of ops) {
        if (stats.requests >= budget || Date.now() >= deadline) break
        await checkOperation(op, { template, stats, seed: operationSeed(seed, op.id, round), numRuns: RUNS_PER_TURN, interruptAfterTimeLimit: Math.max(1, deadline - Date.now()) })
      }
    }
    progress.end()
    if (stats.requests < budget) console.log(`Stopped after ${values.minutes} minutes, before ${budget.toLocaleString('en')} requests.`)
    summary()
    console.log(`No failure. Seed ${seed}.`)
    return 0
  } catch (error) {
    progress.end()
    if (!(error instanceof FuzzFailure)) throw error
    summary()
    console.log(`\nFAILED (seed ${seed}):\n${error.message}`)
    return 1
  } finally {
    clearInterval(ticker)
    disposeTemplate(template)
  }
}

process.exit(await main())
