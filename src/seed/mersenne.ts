// The randomizer every faker of the seed draws from: @faker-js/faker's own (MT19937, a float of
// 53 bits from two draws, as generateMersenne53Randomizer gives), drawing the same numbers for the
// same seed, but keeping its state in a typed array. Faker's builds its 624 words with
// Array.from({ length: 624 }) on every seed, a tenth of what newTeam() cost: a team seeds a faker
// for itself, its libraries, forms and files and each of its US addresses.
import type { Randomizer } from '@faker-js/faker'

const WORDS = 624
const SHIFTED = 397
const UPPER = 0x80000000
const LOWER = 0x7fffffff
const MATRIX = 0x9908b0df

/** The next 624 words, in place. Stored as int32: every use of a word is a bitwise one, so it reads as faker's plain numbers do. */
function twist(states: Int32Array): void {
  for (let at = 0; at < WORDS; at++) {
    const word = (states[at]! & UPPER) | (states[(at + 1) % WORDS]! & LOWER)
    states[at] = states[(at + SHIFTED) % WORDS]! ^ (word >>> 1) ^ (-(word & 1) & MATRIX)
  }
}

export function mersenneRandomizer(seed = 0): Randomizer {
  const states = new Int32Array(WORDS)
  let index = 0
  const seedWith = (value: number | number[]) => {
    if (typeof value !== 'number') throw new TypeError('the seed\'s randomizer takes a number seed only')
    states[0] = value
    for (let at = 1; at < WORDS; at++) {
      const previous = states[at - 1]! ^ (states[at - 1]! >>> 30)
      states[at] = Math.imul(1812433253, previous) + at
    }
    twist(states)
    index = 0
  }
  const nextWord = () => {
    let word = states[index]!
    word ^= word >>> 11
    word ^= (word << 7) & 0x9d2c5680
    word ^= (word << 15) & 0xefc60000
    word ^= word >>> 18
    if (++index >= WORDS) {
      twist(states)
      index = 0
    }
    return word >>> 0
  }
  seedWith(seed)
  return {
    next: () => ((nextWord() >>> 5) * 67108864 + (nextWord() >>> 6)) * (1 / 9007199254740992),
    seed: seedWith,
  }
}
