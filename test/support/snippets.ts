// The code blocks of the README and the guides in docs/, and how the snippet test runs them
// (test/docs/snippets.test.ts). A block is run as a reader would paste it: shell blocks by bash,
// JavaScript blocks by node, in a folder set up like a project that installed the package.
//
// An HTML comment right before a block says how to take it (invisible on GitHub and npm):
//   <!-- snippet: skip: needs Docker -->     not run, with the reason (the exception)
//   <!-- snippet: file: receiver.mjs -->    written to that file, for a later block to run
//   <!-- snippet: continues -->             runs after the blocks it continues, in one shell
//   <!-- snippet: background: listening --> started and left running until the guide ends, once
//                                            its output shows the text after the colon
// Directives combine with ";": <!-- snippet: continues; background: ready -->.
import { readFileSync } from 'node:fs'
import { marked, type Token, type Tokens } from 'marked'

/** Languages whose blocks run. Any other (json, yaml, text, ts ...) is data or output and is not run. */
export const RUNNABLE = { shell: ['sh', 'bash', 'shell'], javascript: ['js', 'mjs', 'javascript'] } as const

export type Kind = 'shell' | 'javascript'

export interface Snippet {
  /** The document, relative to the project root. */
  doc: string
  /** The line of its opening fence. */
  line: number
  lang: string
  kind: Kind | 'data'
  code: string
  skip?: string
  file?: string
  continues: boolean
  /** Text its output shows once it is ready, for a block left running. */
  background?: string
}

const DIRECTIVE = /^<!--\s*snippet:\s*(.*?)\s*-->$/s

function kindOf(lang: string): Snippet['kind'] {
  for (const [kind, langs] of Object.entries(RUNNABLE)) if ((langs as readonly string[]).includes(lang)) return kind as Kind
  return 'data'
}

/** Reads `<!-- snippet: ... -->`; throws on a directive it does not know, so a typo cannot silently skip a block. */
function directives(comment: string, where: string): Partial<Pick<Snippet, 'skip' | 'file' | 'background'>> & { continues?: true } {
  const body = DIRECTIVE.exec(comment.trim())?.[1]
  if (body === undefined) return {}
  const found: ReturnType<typeof directives> = {}
  for (const part of body.split(';').map((item) => item.trim()).filter(Boolean)) {
    const colon = part.indexOf(':')
    const [name, value] = colon < 0 ? [part, ''] : [part.slice(0, colon).trim(), part.slice(colon + 1).trim()]
    if (name === 'continues' && value === '') found.continues = true
    else if ((name === 'skip' || name === 'file' || name === 'background') && value !== '') found[name] = value
    else throw new Error(`${where}: unknown snippet directive "${part}" (skip: <reason>, file: <name>, continues, background: <ready text>)`)
  }
  return found
}

/** Every fenced code block of a Markdown document, with the directive of the comment right before it. */
export function snippetsOf(doc: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = []
  let offset = 0
  let pending: ReturnType<typeof directives> = {}
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      // A block in a list item is indented in the document, not in its token: its line is the item's.
      const found = markdown.indexOf(token.raw, offset)
      const at = found < 0 ? offset : found
      const line = markdown.slice(0, at).split('\n').length
      if (token.type === 'list') {
        for (const item of (token as Tokens.List).items) walk(item.tokens)
      } else if (token.type === 'html') {
        pending = directives(token.raw, `${doc}:${line}`)
      } else if (token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented') {
        const code = token as Tokens.Code
        const lang = (code.lang ?? '').split(/\s/)[0] ?? ''
        snippets.push({ doc, line, lang, kind: kindOf(lang), code: code.text, continues: pending.continues === true, ...pending })
        pending = {}
      } else if (token.type !== 'space') {
        pending = {}
      }
      if (found >= 0) offset = found + token.raw.length
    }
  }
  walk(marked.lexer(markdown))
  return snippets
}

export const readSnippets = (root: string, doc: string): Snippet[] => snippetsOf(doc, readFileSync(`${root}${doc}`, 'utf8'))

/**
 * The blocks that run, as chains: a block and the blocks that continue it, run one after the other
 * in one shell (their variables carry over). A `file:` block is written before its chain runs.
 */
export function chainsOf(snippets: Snippet[]): Snippet[][] {
  const chains: Snippet[][] = []
  for (const snippet of snippets) {
    if (snippet.kind === 'data' || snippet.skip !== undefined) continue
    const last = chains.at(-1)
    if (snippet.continues) {
      if (!last) throw new Error(`${snippet.doc}:${snippet.line}: continues, but no block before it runs`)
      last.push(snippet)
    } else {
      chains.push([snippet])
    }
  }
  return chains
}
