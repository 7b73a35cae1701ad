import { loadContracts } from '../../src/contracts/ajv.ts'
import { loadWorldFixture, type WorldFixture } from '../../src/seed/fixture.ts'

export const contracts = loadContracts()
export const fixture: WorldFixture = loadWorldFixture()
