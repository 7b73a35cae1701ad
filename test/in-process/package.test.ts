// The in-process API as users get it: `import { startMock } from 'ivs-mock'` loads the built
// dist/index.js with the types of dist/index.d.ts (package.json exports). The examples in
// examples/vitest and examples/msw run as their own suites against it, and the declarations
// type-check on their own, strictly, as a user's compiler would read them.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { runToExit } from '../support/process.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const VITEST = `${root}node_modules/vitest/vitest.mjs`
const RUN_LIMIT_MS = 120_000

describe('the package root', () => {
  it('exports startMock from the built files, with its declarations', () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, unknown> }
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' })
    expect(readFileSync(`${root}dist/index.d.ts`, 'utf8')).toContain('export declare function startMock(options?: StartMockOptions): Promise<Mock>;')
  })

  it('has declarations that type-check on their own, strictly', () => {
    const program = ts.createProgram([`${root}dist/index.d.ts`], {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
    })
    const ours = program.getSourceFiles().filter((file) => file.fileName.startsWith(`${root}dist/`))
    expect(ours.map((file) => file.fileName.slice(root.length)).sort()).toEqual(['dist/contracts/binary.d.ts', 'dist/contracts/generated.d.ts', 'dist/index.d.ts', 'dist/kernel/closed.d.ts'])
    const problems = ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])
    expect(problems.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, ' '))).toEqual([])
  }, RUN_LIMIT_MS)
})

describe.each(['vitest', 'msw'])('examples/%s', (example) => {
  it('passes as its own suite, with no warning', async () => {
    const run = await runToExit(VITEST, ['run', '--config', `${root}examples/${example}/vitest.config.ts`], { limitMs: RUN_LIMIT_MS })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/Tests\s+.*\d+ passed/)
    // The bundle's source maps name only files a clone has (src/build/bundle.ts), so vitest, which reads them, has nothing to warn about.
    expect(run.stdout + run.stderr).not.toContain('Sourcemap')
  }, RUN_LIMIT_MS)
})
