// Build step "bundle": the CLI (src/main.ts -> dist/main.js) and the package's in-process API
// (src/index.ts -> dist/index.js, what `import { startMock } from 'ivs-mock'` loads), with every npm
// package they import, as ESM for Node 20. What both use lives once, in shared chunks beside them
// (dist/chunk-<hash>.js), so start-up loads a few files instead of transforming hundreds through tsx.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { build, stop, type BuildOptions, type Plugin } from 'esbuild'
import { projectRoot } from '../paths.ts'

const distDir = `${projectRoot}dist`
const bundleFile = `${distDir}/main.js`
const worldSchemaSource = `${projectRoot}src/store/world-format.schema.json`
/** Shared chunks sit beside the entries: src/paths.ts finds the project root one level up from any of them. */
const CHUNK = /^chunk-[A-Z0-9]+\.js(\.map)?$/

/** A package file's link to its own source map, at its end. */
const SOURCE_MAP_LINK = /\n\/\/# sourceMappingURL=(?!data:)(\S+)\s*$/

/**
 * esbuild follows a package's own source map into the bundle's. Where that map names files the
 * package does not publish (signal-exit's names its TypeScript sources), the bundle's map would
 * name missing files, and what reads it says so (vitest: "Sourcemap for dist/chunk-....js points
 * to missing source files"). Such a package's code is mapped to its published JavaScript instead,
 * so every file the bundle's maps name is there in a clone.
 */
const publishedSourcesOnly: Plugin = {
  name: 'published-sources-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, ({ path }) => {
      const contents = readFileSync(path, 'utf8')
      const link = SOURCE_MAP_LINK.exec(contents)
      if (!link) return undefined
      const mapFile = resolve(dirname(path), link[1] as string)
      const map = existsSync(mapFile) ? (JSON.parse(readFileSync(mapFile, 'utf8')) as { sources?: string[]; sourceRoot?: string }) : undefined
      const missing = map?.sources?.some((source) => !existsSync(resolve(dirname(mapFile), map.sourceRoot ?? '', source))) ?? true
      return missing ? { contents: contents.slice(0, link.index), loader: 'js' } : undefined
    })
  },
}

/** How code is bundled for Node; the benchmark bundles its bare server the same way. */
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
    // Without whitespace the bundle is a third smaller: V8 parses it and Node reads its maps that
    // much sooner at every start. Names stay as written (stack traces map back to src/ anyway).
    minifyWhitespace: true,
    minifySyntax: true,
    // Loaded only by pact verify, from node_modules: its native core cannot be bundled, and serve
    // (and the Docker image, which ships no node_modules) never needs it.
    external: ['@pact-foundation/pact'],
    plugins: [publishedSourcesOnly],
    logLevel: 'silent',
    write: false,
  }
}

export async function bundle(): Promise<string> {
  // The bundle is dated when this step began, so a source saved while it ran still counts as newer.
  const began = new Date()
  const { entryPoints: _single, outfile: _outfile, ...shared } = bundleOptions(`${projectRoot}src/main.ts`, bundleFile)
  // esbuild's service process would otherwise live on beside a server that bin/ivs-mock.js rebuilt for.
  const result = await build({
    ...shared,
    // The compaction worker of --data runs in a thread of its own, from a file of its own.
    entryPoints: { main: `${projectRoot}src/main.ts`, index: `${projectRoot}src/index.ts`, 'compaction-worker': `${projectRoot}src/store/compaction-worker.ts` },
    outdir: distDir,
    splitting: true,
    chunkNames: 'chunk-[hash]',
  }).finally(() => stop())
  mkdirSync(distDir, { recursive: true })
  // Written aside and renamed, so a mock starting meanwhile reads a whole old or new file. Chunks
  // and maps go first and dist/main.js last: bin/ivs-mock.js judges freshness by dist/main.js.
  const order = (path: string) => (path === bundleFile ? 2 : path.endsWith('.map') || CHUNK.test(basename(path)) ? 0 : 1)
  // The schema of a data file, beside the chunks that read it with the first data file (src/store/world-check.ts).
  const worldSchema = { path: `${distDir}/${basename(worldSchemaSource)}`, contents: Buffer.from(JSON.stringify(JSON.parse(readFileSync(worldSchemaSource, 'utf8')))) }
  const files = [...result.outputFiles, worldSchema].sort((a, b) => order(a.path) - order(b.path))
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`
    writeFileSync(temporary, file.contents)
    utimesSync(temporary, began, began)
    renameSync(temporary, file.path)
  }
  // Chunks of earlier builds that nothing imports any more.
  const written = new Set(files.map((file) => basename(file.path)))
  for (const name of readdirSync(distDir)) if (CHUNK.test(name) && !written.has(name)) rmSync(`${distDir}/${name}`, { force: true })
  const size = files.filter((file) => file.path.endsWith('.js')).reduce((sum, file) => sum + file.contents.length, 0)
  return `dist/main.js, dist/index.js, dist/compaction-worker.js and ${files.filter((file) => CHUNK.test(basename(file.path)) && file.path.endsWith('.js')).length} shared chunks, ${(size / 1_000_000).toFixed(1)} MB`
}
