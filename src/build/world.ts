// The seeded world of the fixture's own seed, made once at build time: a start without --seed or
// --data reads it (a few ms) instead of generating it (about 120 ms, records and cases included,
// driven through the lifecycle engine). Any other seed is generated at start as before.
import { writeFileSync } from 'node:fs'
import { prebuiltWorldPath } from '../paths.ts'
import { loadWorldFixture } from '../seed/fixture.ts'
import { seedWorld } from '../seed/index.ts'

export function writePrebuiltWorld(): string {
  const fixture = loadWorldFixture()
  const text = JSON.stringify(seedWorld(fixture))
  writeFileSync(prebuiltWorldPath, text)
  return `dist/world.json ${(text.length / 1024).toFixed(0)} KB (seed ${fixture.seed})`
}
