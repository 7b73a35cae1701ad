// The default seed's world as the build made it (dist/world.json). Reading it needs neither the
// generator nor faker's locales, so a start with the default seed loads neither (src/mock.ts).
import { existsSync, readFileSync } from 'node:fs'
import { prebuiltWorldPath } from '../paths.ts'
import type { WorldData } from '../store/world.ts'
import type { WorldFixture } from './fixture.ts'

/** Whether the world of this seed was built ahead (the fixture's own seed, once npm run build has run). */
export function hasPrebuiltWorld(fixture: WorldFixture, seed: number | undefined): boolean {
  return (seed === undefined || seed === fixture.seed) && existsSync(prebuiltWorldPath)
}

export function readPrebuiltWorld(): WorldData {
  return JSON.parse(readFileSync(prebuiltWorldPath, 'utf8')) as WorldData
}
