// Seeded randomness for everything the mock generates at run time (uuids, secrets), so a run
// with the same seed and the same requests produces the same values.
//
// The values are faker's (v10) for the seed, drawn without loading faker: faker's seeded generator
// is a Mersenne Twister (pure-rand's, one 32-bit number at a time), and its uuid, hexadecimal and
// integer helpers are the few lines below. Faker and its locale data cost a tenth of the start-up;
// the seed's generator (src/seed/) still uses faker and loads it when it first runs.
// test/kernel/random.test.ts checks every helper against faker, draw for draw.
import { mersenne } from 'pure-rand/generator/mersenne'

export interface Random {
  uuid(): string
  /** Lowercase hexadecimal string of the given length. */
  hex(length: number): string
  /** Integer in [min, max]. */
  int(min: number, max: number): number
}

/** Faker's hexadecimal alphabet, lowered: a draw picks among 22 characters (faker's upper case included, then lowered). */
const HEX_CHARACTERS = '0123456789abcdefabcdef'
const HEX_DIGITS = '0123456789abcdef'
/** Version 4: 'x' is any hexadecimal digit, 'y' one of 8 to b (faker fills every x first, then y). */
const UUID_PATTERN = 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'

export function createRandom(seed: number): Random {
  const twister = mersenne(seed)
  const nextU32 = () => twister.next() >>> 0
  /** A float in [0, 1) from 53 random bits, as faker's randomizer draws it. */
  const next = () => ((nextU32() >>> 5) * 67_108_864 + (nextU32() >>> 6)) / 9_007_199_254_740_992
  // As faker's: a range of one value draws nothing; an empty range is an error.
  const int = (min: number, max: number) => {
    const [low, high] = [Math.ceil(min), Math.floor(max)]
    if (low === high) return low
    if (high < low) throw new Error(`Max ${max} should be greater than min ${min}.`)
    return Math.floor(next() * (high - low + 1) + low)
  }
  // Characters into an array, joined: the seed draws a few hundred thousand of each, and a join
  // makes one flat string (added up one character at a time, a token is kept as 40 pieces).
  return {
    uuid: () => {
      const characters = Array.from(UUID_PATTERN)
      characters.forEach((character, index) => {
        if (character === 'x') characters[index] = HEX_DIGITS[int(0, 15)] as string
      })
      characters[UUID_PATTERN.indexOf('y')] = HEX_DIGITS[int(8, 11)] as string
      return characters.join('')
    },
    hex: (length) => {
      const characters = new Array<string>(length)
      for (let index = 0; index < length; index++) characters[index] = HEX_CHARACTERS[int(0, HEX_CHARACTERS.length - 1)] as string
      return characters.join('')
    },
    int,
  }
}
