// Seeded randomness for everything the mock generates at run time (uuids, secrets), so a run
// with the same seed and the same requests produces the same values.
//
// Uuids, hexadecimal strings and integers come from faker's seeded generator alone: a Faker with
// the locale-free `base` definitions draws the very values a Faker with `en` would for a seed.
// Faker's class is reached through @faker-js/faker/locale/base, whose only export is an instance:
// importing the package's index would bring every locale it re-exports into the bundle's start-up
// chunk (the seed's generator uses en, en_GB and en_US, and loads them when it first runs).
import type { Faker } from '@faker-js/faker'
import { faker as baseFaker } from '@faker-js/faker/locale/base'

const BaseFaker = baseFaker.constructor as typeof Faker

export interface Random {
  uuid(): string
  /** Lowercase hexadecimal string of the given length. */
  hex(length: number): string
  /** Integer in [min, max]. */
  int(min: number, max: number): number
}

export function createRandom(seed: number): Random {
  const faker = new BaseFaker({ locale: baseFaker.rawDefinitions, seed })
  return {
    uuid: () => faker.string.uuid(),
    hex: (length) => faker.string.hexadecimal({ length, casing: 'lower', prefix: '' }),
    int: (min, max) => faker.number.int({ min, max }),
  }
}
