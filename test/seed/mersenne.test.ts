// The seed's randomizer (src/seed/mersenne.ts) draws what @faker-js/faker's own Mersenne Twister
// draws for the same seed, so every seeded world and generated team stays the same to the byte.
import { generateMersenne53Randomizer } from '@faker-js/faker'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mersenneRandomizer } from '../../src/seed/mersenne.ts'

/** More draws than one state holds (624 words, two a draw), so each compares after a twist too. */
const DRAWS = 700

const draws = (next: () => number) => Array.from({ length: DRAWS }, next)

describe("the seed's randomizer", () => {
  it("draws faker's numbers for the same seed, seeded at creation or again, over seeded runs of seeds", () => {
    const ours = mersenneRandomizer()
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 2 ** 32 }), fc.maxSafeNat(), fc.integer({ min: -(2 ** 31), max: -1 })), (seed) => {
        const faker = generateMersenne53Randomizer(seed)
        ours.seed(seed)
        const expected = draws(() => faker.next())
        expect(draws(() => ours.next())).toEqual(expected)
        const fresh = mersenneRandomizer(seed)
        expect(draws(() => fresh.next())).toEqual(expected)
      }),
      { seed: 35, numRuns: 200 },
    )
  })

  it('refuses a seed that is not a number', () => {
    expect(() => mersenneRandomizer().seed([1, 2])).toThrow(TypeError)
  })
})
