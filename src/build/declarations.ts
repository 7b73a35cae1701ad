// Build step "declarations": the types of the package's in-process API (dist/index.d.ts), derived
// from src/index.ts itself, so they cannot drift from it. src/index.ts declares its exports with
// their types in full (TypeScript's isolatedDeclarations rules), which lets each file's declarations
// be emitted on its own, in milliseconds, without type-checking the program; a file they import
// types from (src/contracts/generated.ts) is emitted beside them, the same way.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import ts from 'typescript'
import { projectRoot } from '../paths.ts'

const srcDir = `${projectRoot}src`
const distDir = `${projectRoot}dist`
export const DECLARATIONS_ENTRY = `${srcDir}/index.ts`

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  allowImportingTsExtensions: true,
  isolatedDeclarations: true,
}

/** Relative imports and re-exports of a declaration file: ./x.ts */
const RELATIVE_TS = /(from\s+['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g

/** Writes dist/<path>.d.ts for src/<path>.ts and, in turn, for every file it takes types from; answers the files written. */
export function writeDeclarations(entry = DECLARATIONS_ENTRY): string {
  const pending = [entry]
  const done = new Set<string>()
  while (pending.length > 0) {
    const source = pending.pop() as string
    if (done.has(source)) continue
    done.add(source)
    const output = ts.transpileDeclaration(readFileSync(source, 'utf8'), { fileName: source, compilerOptions: OPTIONS, reportDiagnostics: true })
    const problems = (output.diagnostics ?? []).map((diagnostic) => {
      const { line } = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : { line: -1 }
      return `${relative(projectRoot, source)}:${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`
    })
    if (problems.length > 0) throw new Error(`declarations: ${problems.join('; ')}`)
    // Declaration files name their neighbours as .js, which resolves to the .d.ts beside it.
    const text = output.outputText.replace(RELATIVE_TS, (_match, before: string, path: string, after: string) => {
      pending.push(resolve(dirname(source), `${path}.ts`))
      return `${before}${path}.js${after}`
    })
    const target = `${distDir}/${relative(srcDir, source).replace(/\.ts$/, '.d.ts')}`
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, text)
  }
  return [...done].map((source) => `dist/${relative(srcDir, source).replace(/\.ts$/, '.d.ts')}`).join(', ')
}
