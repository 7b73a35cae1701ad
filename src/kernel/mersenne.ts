// MT19937, the Mersenne Twister @faker-js/faker draws from:
// the same 32-bit words for the same seed, its state kept in a typed array. The mock's run-time
// random (random.ts) and the seed's fakers (src/seed/mersenne.ts) both draw from it: they were
// faker's values, and a seed must keep giving them.

const WORDS = 624
const SHIFTED = 397
const UPPER = 0x80000000
const LOWER = 0x7fffffff
const MATRIX = 0x9908b0df

/** The next 624 words, in place. Stored as int32: every use of a word is a bitwise one, so it reads as plain numbers do. */
function twist(states: Int32Array): void {
  // In three runs, so that no index wraps: each word is made from the next and from the one 397
  // on (already made anew once that is past the end), the last from the first.
  const step = (at: number, next: number, shifted: number) => {
    const word = (states[at]! & UPPER) | (states[next]! & LOWER)
    states[at] = states[shifted]! ^ (word >>> 1) ^ (-(word & 1) & MATRIX)
  }
  let at = 0
  for (; at < WORDS - SHIFTED; at++) step(at, at + 1, at + SHIFTED)
  for (; at < WORDS - 1; at++) step(at, at + 1, at + SHIFTED - WORDS)
  step(WORDS - 1, 0, SHIFTED - 1)
}

export class MersenneTwister {
  private readonly states = new Int32Array(WORDS)
  private index = 0

  constructor(seed: number) {
    this.seed(seed)
  }

  /** Starts again from a seed (taken as a 32-bit integer, as faker's takes it). */
  seed(value: number): void {
    const states = this.states
    states[0] = value
    for (let at = 1; at < WORDS; at++) {
      const previous = states[at - 1]! ^ (states[at - 1]! >>> 30)
      states[at] = Math.imul(1812433253, previous) + at
    }
    twist(states)
    this.index = 0
  }

  /** The next word, unsigned. */
  next(): number {
    let word = this.states[this.index]!
    word ^= word >>> 11
    word ^= (word << 7) & 0x9d2c5680
    word ^= (word << 15) & 0xefc60000
    word ^= word >>> 18
    if (++this.index >= WORDS) {
      twist(this.states)
      this.index = 0
    }
    return word >>> 0
  }

  /** A float in [0, 1) from 53 random bits (two words), as faker's randomizer draws it. */
  float(): number {
    return ((this.next() >>> 5) * 67_108_864 + (this.next() >>> 6)) * (1 / 9_007_199_254_740_992)
  }
}
