// Seeded randomness for everything the mock generates at run time (uuids, secrets), so a run
// with the same seed and the same requests produces the same values.
//
// The values are faker's (v10) for the seed, drawn without loading faker: faker's seeded generator
// is a Mersenne Twister (mersenne.ts draws the same words), and its uuid, hexadecimal and integer
// helpers are the few lines below. Faker and its locale data cost a tenth of the start-up;
// the seed's generator (src/seed/) still uses faker and loads it when it first runs.
// test/kernel/random.test.ts checks every helper against faker, draw for draw.
import { MersenneTwister } from './mersenne.ts'

export interface Random {
  uuid(): string
  /** Lowercase hexadecimal string of the given length. */
  hex(length: number): string
  /** Integer in [min, max]. */
  int(min: number, max: number): number
}

/** Faker's hexadecimal alphabet, lowered: a draw picks among 22 characters (faker's upper case included, then lowered). */
const HEX_CHARACTERS = codes('0123456789abcdefabcdef')
const HEX_DIGITS = codes('0123456789abcdef')
/** Version 4: 'x' is any hexadecimal digit, 'y' one of 8 to b (faker fills every x first, then y). */
const UUID_PATTERN = codes('xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx')
const ANY_DIGIT = 'x'.charCodeAt(0)
const VARIANT_AT = UUID_PATTERN.indexOf('y'.charCodeAt(0))

function codes(text: string): number[] {
  return Array.from(text, (character) => character.charCodeAt(0))
}

export function createRandom(seed: number): Random {
  const twister = new MersenneTwister(seed)
  // As faker's: a range of one value draws nothing; an empty range is an error.
  const int = (min: number, max: number) => {
    const low = Math.ceil(min)
    const high = Math.floor(max)
    if (low === high) return low
    if (high < low) throw new Error(`Max ${max} should be greater than min ${min}.`)
    return Math.floor(twister.float() * (high - low + 1) + low)
  }
  // Character codes made into one string at once: the seed draws a few hundred thousand of each,
  // and the string is flat (added up one character at a time, a token is kept as 40 pieces).
  return {
    uuid: () => {
      const characters = UUID_PATTERN.slice()
      for (let at = 0; at < characters.length; at++) if (characters[at] === ANY_DIGIT) characters[at] = HEX_DIGITS[int(0, 15)]!
      characters[VARIANT_AT] = HEX_DIGITS[int(8, 11)]!
      return String.fromCharCode(...characters)
    },
    hex: (length) => {
      const characters = new Array<number>(length)
      for (let at = 0; at < length; at++) characters[at] = HEX_CHARACTERS[int(0, HEX_CHARACTERS.length - 1)]!
      return String.fromCharCode(...characters)
    },
    int,
  }
}
