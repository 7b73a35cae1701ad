// The fuzz property, one per operation: a run starts a fresh copy of the fuzz world, sends the
// operation a friendly request (valid input, from the owner, on the caller's own ids: one that
// gets past validation) and up to fifteen more of any kind (to it, or now and then to any
// operation, so that operations meet each other's state), judges each answer (requests.ts), and when anything
// changed, checks the world still hangs together (invariants.ts). npm test runs a few runs per
// operation with a fixed seed; npm run fuzz runs many (cli.ts). A failure is shrunk by fast-check
// and reported with the seed and path that replay it.
import fc from 'fast-check'
import type { OperationContract } from '../../../src/contracts/load.ts'
import { contracts } from '../contracts.ts'
import { checkWorld } from './invariants.ts'
import { describeExchange, judge, requestArbitrary, send, type Exchange, type FuzzRequest } from './requests.ts'
import { FuzzWorld, type FuzzTemplate } from './world.ts'

export interface FuzzRun {
  requests: FuzzRequest[]
  /** The page size the lists are walked with afterwards. */
  pageSize: number
  /** Chooses which resources get their own lists walked. */
  pickSeed: number
}

/** What the fuzz sent and got, per operation. */
export class FuzzStats {
  readonly byOperation = new Map<string, { sent: number; invalid: number; statuses: Map<number, number> }>()
  requests = 0
  checks = 0

  record(exchange: Exchange): void {
    this.requests++
    const entry = this.byOperation.get(exchange.request.op) ?? { sent: 0, invalid: 0, statuses: new Map<number, number>() }
    entry.sent++
    if (!exchange.queryValid || !exchange.bodyValid) entry.invalid++
    entry.statuses.set(exchange.response.status, (entry.statuses.get(exchange.response.status) ?? 0) + 1)
    this.byOperation.set(exchange.request.op, entry)
  }

  /** Operations the fuzz reached that never answered a success. */
  neverSucceeded(): string[] {
    return [...this.byOperation].filter(([, entry]) => ![...entry.statuses.keys()].some((status) => status >= 200 && status < 400)).map(([id]) => id)
  }
}

const arbitraries = new Map<string, fc.Arbitrary<FuzzRequest>>()
function requestsTo(op: OperationContract, friendly = false): fc.Arbitrary<FuzzRequest> {
  const key = `${op.id}${friendly ? ' friendly' : ''}`
  let arbitrary = arbitraries.get(key)
  if (!arbitrary) {
    arbitrary = requestArbitrary(op, friendly)
    arbitraries.set(key, arbitrary)
  }
  return arbitrary
}

/** Every operation the fuzz covers: all of contracts/ (the API, the control API, OAuth). */
export const FUZZED_OPERATIONS = [...contracts.operations.values()]

/** A request to any operation (each operation's arbitrary is made when first drawn). */
const anyRequest = fc.constantFrom(...FUZZED_OPERATIONS).chain(requestsTo)

export function runArbitrary(op: OperationContract): fc.Arbitrary<FuzzRun> {
  const more = fc.oneof({ weight: 3, arbitrary: requestsTo(op) }, { weight: 1, arbitrary: anyRequest })
  return fc.record({
    requests: fc.tuple(requestsTo(op, true), fc.array(more, { maxLength: 15 })).map(([first, rest]) => [first, ...rest]),
    pageSize: fc.integer({ min: 3, max: 12 }),
    pickSeed: fc.nat(),
  })
}

/** A failure with what was sent and answered. */
export class FuzzFailure extends Error {}

/** Up to two different indexes below count, the last one among them (where new items are). */
function picker(seed: number): (count: number) => number[] {
  return (count) => (count === 0 ? [] : [...new Set([seed % count, count - 1])])
}

export interface PropertyOptions {
  template: FuzzTemplate
  stats?: FuzzStats
}

export function fuzzProperty(op: OperationContract, options: PropertyOptions): fc.IAsyncProperty<[FuzzRun]> {
  return fc.asyncProperty(runArbitrary(op), async ({ requests, pageSize, pickSeed }) => {
    const world = new FuzzWorld(options.template)
    try {
      await run(world, requests, pageSize, pickSeed, options.stats)
    } finally {
      world.dispose()
    }
  })
}

/** Sends a run's requests, judging each answer; then, if anything changed, checks the world. */
async function run(world: FuzzWorld, requests: FuzzRequest[], pageSize: number, pickSeed: number, stats: FuzzStats | undefined): Promise<void> {
  let changed = false
  // Moving the clock a year on expires every token of the fuzz teams: from then on the API must
  // answer 401, and the world can no longer be looked at.
  let tokensExpired = false
  const sent: Exchange[] = []
  for (const request of requests) {
    const exchange = await send(world, request)
    sent.push(exchange)
    stats?.record(exchange)
    const wrong = judge(exchange, tokensExpired)
    if (wrong) throw new FuzzFailure(`${wrong}:\n${describeExchange(exchange)}`)
    if (exchange.method !== 'GET' && exchange.response.status < 400) {
      changed = true
      world.changed()
    }
    if (request.op === 'control.clock.advance' && exchange.response.status === 200) tokensExpired = new Date(exchange.response.body.now as string) >= world.template.tokensExpireAt
  }
  if (!changed || tokensExpired) return
  if (stats) stats.checks++
  try {
    await checkWorld(world, pageSize, picker(pickSeed))
  } catch (error) {
    throw new FuzzFailure(`the world is inconsistent after these requests: ${(error as Error).message}\nsent:\n${sent.map(describeExchange).join('\n')}`, { cause: error })
  }
}

/** A seed for one operation from a base seed, so each operation's runs differ and replay alone. */
export function operationSeed(base: number, op: string, round = 0): number {
  let hash = (base ^ (round * 0x9e3779b1)) >>> 0
  for (const char of op) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0
  return hash | 0
}

/** The command that replays a failed run. */
export function replayCommand(op: string, details: Pick<fc.RunDetails<unknown>, 'seed' | 'counterexamplePath'>): string {
  return `npm run fuzz -- --operation ${op} --seed=${details.seed} --path ${details.counterexamplePath ?? ''}`
}

/** Runs an operation's property; on a failure throws the shrunk counterexample, the seed and the command that replays it. */
export async function checkOperation(op: OperationContract, options: PropertyOptions & { seed: number; numRuns: number; path?: string; interruptAfterTimeLimit?: number }): Promise<fc.RunDetails<[FuzzRun]>> {
  const details = await fc.check(fuzzProperty(op, options), {
    seed: options.seed,
    numRuns: options.numRuns,
    ...(options.path !== undefined ? { path: options.path, endOnFailure: false } : {}),
    ...(options.interruptAfterTimeLimit !== undefined ? { interruptAfterTimeLimit: options.interruptAfterTimeLimit, markInterruptAsFailure: false } : {}),
  })
  if (details.failed) {
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
    throw new FuzzFailure(`${op.id}: ${fc.defaultReportMessage(details)}\n${error}\nReplay: ${replayCommand(op.id, details)}`)
  }
  return details
}
