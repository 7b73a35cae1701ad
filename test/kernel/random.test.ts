import { Faker, en } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import { createRandom } from '../../src/kernel/random.ts'

// The mock's seeded values were faker's: the same seed must keep giving the same uuids, secrets and numbers.
describe('createRandom', () => {
  it('draws what a seeded faker draws, helper for helper and in any order', () => {
    for (const seed of [0, 1, 20_260_601, 2 ** 31 - 1, 2 ** 31 + 12_345]) {
      const random = createRandom(seed)
      const faker = new Faker({ locale: [en], seed })
      // Enough draws to pass the twister's 624-number state more than once.
      for (let draw = 0; draw < 400; draw++) {
        const [min, max] = [draw % 7, draw % 7 + (draw % 3 === 0 ? 0 : 10 ** (draw % 9))]
        expect(random.uuid()).toBe(faker.string.uuid())
        expect(random.hex(draw % 81)).toBe(faker.string.hexadecimal({ length: draw % 81, casing: 'lower', prefix: '' }))
        expect(random.int(min, max)).toBe(faker.number.int({ min, max }))
        expect(random.int(0, 2 ** 31)).toBe(faker.number.int({ min: 0, max: 2 ** 31 }))
      }
    }
  })

  it('refuses an empty range as faker does', () => {
    expect(() => createRandom(1).int(0, -1)).toThrow('Max -1 should be greater than min 0.')
  })
})
