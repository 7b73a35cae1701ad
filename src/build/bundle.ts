// Build step "bundle": src/main.ts and every npm package it imports, as one ESM file for Node 20
// (dist/main.js), so start-up loads one file instead of transforming hundreds through tsx.
import { mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs'
import { build, stop, type BuildOptions } from 'esbuild'
import { projectRoot } from '../paths.ts'

const distDir = `${projectRoot}dist`
const bundleFile = `${distDir}/main.js`

/** How an entry point is bundled; the benchmark bundles its bare server the same way. */
export function bundleOptions(entryPoint: string, outfile: string): BuildOptions & { write: false } {
  return {
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // CommonJS packages in the bundle (commander, ajv) call require() for Node's built-ins, which
    // an ES module only has through createRequire.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    // An external map keeps the bundle small to load; node --enable-source-maps maps stack traces
    // back to src/ with it.
    sourcemap: 'linked',
    sourcesContent: false,
    // Loaded only by pact verify, from node_modules: its native core cannot be bundled, and serve
    // (and the Docker image, which ships no node_modules) never needs it.
    external: ['@pact-foundation/pact'],
    logLevel: 'silent',
    write: false,
  }
}

export async function bundle(): Promise<string> {
  // The bundle is dated when this step began, so a source saved while it ran still counts as newer.
  const began = new Date()
  // esbuild's service process would otherwise live on beside a server that bin/ivs-mock.js rebuilt for.
  const result = await build(bundleOptions(`${projectRoot}src/main.ts`, bundleFile)).finally(() => stop())
  mkdirSync(distDir, { recursive: true })
  // Written aside and renamed, so a mock starting meanwhile reads a whole old or new file. The map
  // goes first: bin/ivs-mock.js judges freshness by dist/main.js.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === bundleFile) - Number(b.path === bundleFile))
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    utimesSync(temporary, began, began)
    renameSync(temporary, file.path)
  }
  const size = files.find((file) => file.path === bundleFile)?.contents.length ?? 0
  return `dist/main.js ${(size / 1_000_000).toFixed(1)} MB`
}
