// Every operation of contracts/ (the API, the control API, OAuth) fuzzed from its contract: valid
// and invalid queries and bodies, path ids of the caller's team, of another team and of nobody,
// every role. No answer is a 5xx or outside its contract, every refusal is the documented one, and
// the world still hangs together afterwards (test/support/fuzz/). Seeded and bounded: a fixed seed
// and RUNS runs per operation; npm run fuzz is the long version, and replays a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkOperation, FUZZED_OPERATIONS, FuzzStats, operationSeed } from '../support/fuzz/property.ts'
import { buildTemplate, disposeTemplate, type FuzzTemplate } from '../support/fuzz/world.ts'

const SEED = 20260701
const RUNS = 2

describe('fuzzing every operation from its contract', () => {
  let template: FuzzTemplate
  const stats = new FuzzStats()
  beforeAll(async () => {
    template = await buildTemplate()
  })
  // The template's uploads folder is its own, in the temp dir.
  afterAll(() => {
    if (template) disposeTemplate(template)
  })

  it.each(FUZZED_OPERATIONS.map((op) => [op.id, op] as const))('%s', async (id, op) => {
    await checkOperation(op, { template, stats, seed: operationSeed(SEED, id), numRuns: RUNS })
  })

  // The generated input gets past validation, not only into it: nearly every operation answered
  // a success in these few runs (npm run fuzz prints, per operation, what it answered).
  it('reached every operation, and nearly every one answered a success', () => {
    expect([...stats.byOperation.keys()].sort()).toEqual(FUZZED_OPERATIONS.map((op) => op.id).sort())
    expect(stats.neverSucceeded().length, `never a success: ${stats.neverSucceeded().join(', ')}`).toBeLessThanOrEqual(FUZZED_OPERATIONS.length * 0.05)
  })
})
