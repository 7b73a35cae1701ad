// Where the project's files are at run time. This module (src/paths.ts) and the bundle built from
// it (dist/main.js) both sit one level below the project root, so one relative URL is right for
// both, whether the sources run through tsx (tests, the build) or the bundle runs.
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../', import.meta.url))
export const contractsDir = `${projectRoot}contracts`
export const fixturesDir = `${projectRoot}fixtures`
/** The JSON Schema of scenario files (kept beside contracts/schemas, not in it: scenarios are no wire object). */
export const scenarioSchemaPath = `${contractsDir}/scenario.schema.json`
/** The scenarios `ivs-mock verify` runs by default. */
export const scenariosDir = `${projectRoot}scenarios`
/** The sample files seeded attachments point at (src/store/blobs.ts). */
export const samplesDir = `${fixturesDir}/samples`
export const packageJsonPath = `${projectRoot}package.json`
/** The seeded world of the fixture's seed, written by the build (src/build/world.ts). */
export const prebuiltWorldPath = `${projectRoot}dist/world.json`
/** The query and body validators the build compiled from contracts/ (src/build/validators.ts), one file each. */
export const prebuiltValidatorsDir = `${projectRoot}dist/validators`
/** The API reference's renderer, copied from node_modules by the build (src/build/docs.ts) and served at /docs. */
export const docsAssetsDir = `${projectRoot}dist/docs`
