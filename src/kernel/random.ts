// Seeded randomness for everything the mock generates at run time (uuids, secrets), so a run
// with the same seed and the same requests produces the same values.
import { Faker, en } from '@faker-js/faker'

export interface Random {
  uuid(): string
  /** Lowercase hexadecimal string of the given length. */
  hex(length: number): string
  /** Integer in [min, max]. */
  int(min: number, max: number): number
}

export function createRandom(seed: number): Random {
  const faker = new Faker({ locale: [en], seed })
  return {
    uuid: () => faker.string.uuid(),
    hex: (length) => faker.string.hexadecimal({ length, casing: 'lower', prefix: '' }),
    int: (min, max) => faker.number.int({ min, max }),
  }
}
