// What a Markdown document offers to be linked or cited: its headings as written after the #'s,
// and the anchors GitHub and npm make of them. Read with marked, so a # inside a code block is
// no heading.
import { marked, type Tokens } from 'marked'

/** Every heading's text, in order, as written after its #'s. */
export function headingsOf(markdown: string): string[] {
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Heading => token.type === 'heading')
    .map((heading) => heading.text)
}

/** The anchors GitHub and npm give a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  for (const text of headingsOf(markdown)) {
    const slug = text
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-')
    let anchor = slug
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`
    anchors.add(anchor)
  }
  return anchors
}
