// Every citation in the code, the tests, the scenarios, the contracts, the bench and the examples
// names a file and a heading that exist in the repository, so a maintainer who clones it can
// follow each one. A citation is a Markdown file's path, then its heading in double quotes:
// docs/specification-notes.md "Roles" (in JSON, the quotes escaped; in a comment, the heading may
// start the next line). The project's notes that live outside the repository are never named,
// and the specification is cited through docs/specification-notes.md, never by its own section
// names or rule numbers as if it were a file of the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../../src/paths.ts'
import { anchorsOf, headingsOf } from '../support/markdown.ts'

const FOLDERS = ['src', 'test', 'scenarios', 'contracts', 'bench', 'examples']
const TEXT = new Set(['.ts', '.js', '.mjs', '.cjs', '.json', '.yaml', '.yml', '.md', '.html', '.css', '.txt'])
/** Spelled in pieces, so this file names none of them. */
const OUTSIDE_NOTES = ['FACTS' + '.md', 'DESIGN' + '.md', '../' + 'shared']
/** A path ending in .md, then (on the same line, or the next one after a comment's // * or #) a heading in double quotes. */
const CITATION = /(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.md)(?:[ \t]|\n[ \t]*(?:\/\/|\*|#)?[ \t]*)\\?"([^"\\\n]+)\\?"/g
/** A Markdown link to a file of the repository, with or without an anchor. */
const LINK = /\]\(([^)\s]+)\)/g
/** The specification cited as if it were a file here: by a section after a comma or in quotes, by a rule number, or bare in brackets. */
const PRETEND = /\b[Ss]pec(?:, [A-Z]|\s+rules?\s+\d| "[A-Z])|\([Ss]pec\)/g

function textFiles(folder: string): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      // Built files (src/contracts/generated.ts ...) say what their sources say.
      if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name.endsWith('generated.ts')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (TEXT.has(extname(entry.name))) files.push(path)
    }
  }
  walk(join(projectRoot, folder))
  return files
}

const files = FOLDERS.flatMap(textFiles).map((path) => ({ path: relative(projectRoot, path), text: readFileSync(path, 'utf8') }))

/** The 1-based line of an offset in a text. */
function lineOf(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++
  return line
}

const documents = new Map<string, { headings: Set<string>; anchors: Set<string> } | null>()
/** A Markdown file's headings and anchors by its absolute path, or null when there is no such file. */
function documentAt(path: string) {
  if (!documents.has(path)) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined
    documents.set(path, text === undefined ? null : { headings: new Set(headingsOf(text)), anchors: anchorsOf(text) })
  }
  return documents.get(path) ?? null
}

describe('citations', () => {
  it('reads the files it checks', () => {
    expect(files.length).toBeGreaterThan(500)
    expect(files.some((file) => file.path === join('src', 'kernel', 'roles.ts'))).toBe(true)
  })

  it('never names a note that is not in the repository', () => {
    const found = files.flatMap((file) =>
      OUTSIDE_NOTES.flatMap((name) => [...file.text.matchAll(new RegExp(name.replace(/[.]/g, '\\.'), 'g'))].map((match) => `${file.path}:${lineOf(file.text, match.index)}: ${name}`)),
    )
    expect(found).toEqual([])
  })

  it('cites the specification through docs/specification-notes.md, never as if it were in the repository', () => {
    const found = files.flatMap((file) => [...file.text.matchAll(PRETEND)].map((match) => `${file.path}:${lineOf(file.text, match.index)}: ${match[0]}`))
    expect(found).toEqual([])
  })

  it('names, in every citation, a file and a heading that exist', () => {
    const broken: string[] = []
    let cited = 0
    for (const file of files) {
      for (const match of file.text.matchAll(CITATION)) {
        const [, path = '', heading = ''] = match
        cited++
        const document = documentAt(resolve(projectRoot, path))
        if (document === null || !document.headings.has(heading)) {
          broken.push(`${file.path}:${lineOf(file.text, match.index)}: ${path} "${heading}"${document === null ? ' (no such file)' : ''}`)
        }
      }
    }
    expect(broken).toEqual([])
    // The check sees the citations: the code cites the specification notes hundreds of times.
    expect(cited).toBeGreaterThan(400)
  })

  it('links, in its Markdown files, only to files and headings that exist', () => {
    const broken: string[] = []
    for (const file of files.filter((candidate) => candidate.path.endsWith('.md'))) {
      for (const match of file.text.matchAll(LINK)) {
        const target = match[1] as string
        if (/^[a-z]+:/.test(target)) continue
        const [name = '', anchor] = target.split('#')
        const path = name === '' ? join(projectRoot, file.path) : resolve(projectRoot, dirname(file.path), name)
        const document = path.endsWith('.md') ? documentAt(path) : existsSync(path) ? { headings: new Set<string>(), anchors: new Set<string>() } : null
        if (document === null || (anchor !== undefined && !document.anchors.has(anchor))) broken.push(`${file.path}:${lineOf(file.text, match.index)}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })
})
