// The randomizer every faker of the seed draws from: @faker-js/faker's own (MT19937, a float of
// 53 bits from two draws, as generateMersenne53Randomizer gives), drawing the same numbers for the
// same seed from the kernel's twister, whose state is a typed array. Faker's builds its 624 words
// with Array.from({ length: 624 }) on every seed, a tenth of what newTeam() cost: a team seeds a
// faker for itself, its libraries, forms and files and each of its US addresses.
import type { Randomizer } from '@faker-js/faker'
import { MersenneTwister } from '../kernel/mersenne.ts'

export function mersenneRandomizer(seed = 0): Randomizer {
  const twister = new MersenneTwister(seed)
  return {
    next: () => twister.float(),
    seed: (value: number | number[]) => {
      if (typeof value !== 'number') throw new TypeError("the seed's randomizer takes a number seed only")
      twister.seed(value)
    },
  }
}
