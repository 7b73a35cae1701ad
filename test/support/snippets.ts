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
//   <!-- snippet: after-stop -->            runs once what the guide left running is stopped
//                                            (the reader's Ctrl-C: a proxy writes its reports then)
//   <!-- snippet: output -->                on a json block after a block that runs: what that
//                                            block prints (a value among those it prints), "…" in
//                                            a string standing for any text ("…" alone: any value,
//                                            such as an id), a "…" key for any others
//   <!-- snippet: excerpt: examples/x.ts -->  lines of that file, checked to be there, not run
//   <!-- snippet: prints: 51 of 99 -->      what the block's output must show
// Directives combine with ";": <!-- snippet: continues; background: ready -->; a skip's reason is
// the rest of the comment.
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
  /** Runs once the blocks left running before it are stopped. */
  afterStop: boolean
  /** Text its output shows once it is ready, for a block left running. */
  background?: string
  /** A json block: what the block that runs before it prints. */
  output: boolean
  /** The file the block's lines come from. */
  excerpt?: string
  /** Text the block's output must show. */
  prints?: string
}

const DIRECTIVE = /^<!--\s*snippet:\s*(.*?)\s*-->$/s

function kindOf(lang: string): Snippet['kind'] {
  for (const [kind, langs] of Object.entries(RUNNABLE)) if ((langs as readonly string[]).includes(lang)) return kind as Kind
  return 'data'
}

/** Reads `<!-- snippet: ... -->`; throws on a directive it does not know, so a typo cannot silently skip a block. */
function directives(comment: string, where: string): Partial<Pick<Snippet, 'skip' | 'file' | 'background' | 'excerpt' | 'prints'>> & { continues?: true; output?: true; 'after-stop'?: true } {
  const body = DIRECTIVE.exec(comment.trim())?.[1]
  if (body === undefined) return {}
  const found: ReturnType<typeof directives> = {}
  // A skip's reason is the rest of the comment, semicolons and all.
  const skip = /(?:^|;)\s*skip:\s*(.*)$/s.exec(body)
  if (skip) found.skip = skip[1]?.trim()
  for (const part of (skip ? body.slice(0, skip.index) : body).split(';').map((item) => item.trim()).filter(Boolean)) {
    const colon = part.indexOf(':')
    const [name, value] = colon < 0 ? [part, ''] : [part.slice(0, colon).trim(), part.slice(colon + 1).trim()]
    if ((name === 'continues' || name === 'output' || name === 'after-stop') && value === '') found[name] = true
    else if ((name === 'file' || name === 'background' || name === 'excerpt' || name === 'prints') && value !== '') found[name] = value
    else throw new Error(`${where}: unknown snippet directive "${part}" (skip: <reason>, file: <name>, continues, background: <ready text>, after-stop, output, excerpt: <file>, prints: <text>)`)
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
        const { 'after-stop': afterStop, ...rest } = pending
        snippets.push({ doc, line, lang, kind: kindOf(lang), code: code.text, ...rest, continues: rest.continues === true, afterStop: afterStop === true, output: rest.output === true })
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
    if (snippet.kind === 'data' || snippet.skip !== undefined || snippet.file !== undefined || snippet.excerpt !== undefined) continue
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

/** The output block that follows each block that runs, keyed by that block. */
export function outputsOf(snippets: Snippet[]): Map<Snippet, Snippet> {
  const outputs = new Map<Snippet, Snippet>()
  snippets.forEach((snippet, index) => {
    if (!snippet.output) return
    const before = snippets[index - 1]
    if (!before || before.kind === 'data' || before.skip !== undefined || before.file !== undefined) throw new Error(`${snippet.doc}:${snippet.line}: an output block must follow a block that runs`)
    outputs.set(before, snippet)
  })
  return outputs
}

/** The JSON values a block printed, one after another (curl prints them without a line between). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = []
  let start = -1
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"' && depth > 0) inString = true
    else if (char === '{' || char === '[') {
      if (depth++ === 0) start = i
    } else if ((char === '}' || char === ']') && depth > 0 && --depth === 0) {
      try {
        values.push(JSON.parse(text.slice(start, i + 1)))
      } catch {
        // Not JSON after all (a shell's braces in a message): skipped.
      }
    }
  }
  return values
}

/**
 * Where a printed value departs from the documented one, or undefined when it matches: objects by
 * the keys documented (a "…" key allows others; without it the keys must be the same), arrays item
 * by item, "…" alone any value (an id the mock hands out, which depends on what it made before), a
 * string with "…" by the parts around it, any other value by equality.
 */
export function departure(documented: unknown, printed: unknown, at = '$'): string | undefined {
  if (documented === '…') return undefined
  if (typeof documented === 'string' && documented.includes('…')) {
    if (typeof printed !== 'string') return `${at}: documented as text, printed ${JSON.stringify(printed)}`
    const parts = documented.split('…')
    let from = 0
    for (const [index, part] of parts.entries()) {
      const found = index === 0 ? (printed.startsWith(part) ? 0 : -1) : index === parts.length - 1 ? (printed.endsWith(part) && printed.length - part.length >= from ? printed.length - part.length : -1) : printed.indexOf(part, from)
      if (found < 0) return `${at}: documented ${JSON.stringify(documented)}, printed ${JSON.stringify(printed)}`
      from = found + part.length
    }
    return undefined
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(printed) || printed.length !== documented.length) return `${at}: documented ${documented.length} items, printed ${JSON.stringify(printed)?.slice(0, 200)}`
    for (const [index, item] of documented.entries()) {
      const found = departure(item, printed[index], `${at}[${index}]`)
      if (found) return found
    }
    return undefined
  }
  if (documented !== null && typeof documented === 'object') {
    if (printed === null || typeof printed !== 'object' || Array.isArray(printed)) return `${at}: documented an object, printed ${JSON.stringify(printed)?.slice(0, 200)}`
    const keys = Object.keys(documented).filter((key) => key !== '…')
    if (!('…' in documented)) {
      const extra = Object.keys(printed).filter((key) => !keys.includes(key))
      if (extra.length > 0) return `${at}: printed keys the documentation leaves out: ${extra.join(', ')} (add "…": "…" if that is meant)`
    }
    for (const key of keys) {
      if (!(key in printed)) return `${at}.${key}: documented, not printed`
      const found = departure((documented as Record<string, unknown>)[key], (printed as Record<string, unknown>)[key], `${at}.${key}`)
      if (found) return found
    }
    return undefined
  }
  return Object.is(documented, printed) ? undefined : `${at}: documented ${JSON.stringify(documented)}, printed ${JSON.stringify(printed)}`
}
