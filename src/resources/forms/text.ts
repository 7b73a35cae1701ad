// Rich text as plain text: a form's instructions (the spec types them as a string, the template's
// are a rich-text document) and the rich-text fields of the PDF.
import type { RichTextBlockJson, RichTextJson } from '../../contracts/generated.ts'
import type { Frozen } from '../../kernel/frozen.ts'

function inlineText(block: Extract<Frozen<RichTextBlockJson>, { type: 'paragraph' }>): string {
  return (block.content ?? []).map((node) => (node.type === 'text' ? node.text : '\n')).join('')
}

/** Lines of a block: a paragraph's text, a list's items as "- item" or "1. item" (what follows an item's first line, nested lists too, indented under it). */
function blockLines(block: Frozen<RichTextBlockJson>): string[] {
  if (block.type === 'paragraph') return inlineText(block).split('\n')
  const { start } = (block.attrs ?? {}) as { start?: unknown }
  const startAt = typeof start === 'number' ? start : 1
  return block.content.flatMap((item, index) => {
    const marker = block.type === 'orderedList' ? `${startAt + index}. ` : '- '
    const [first = '', ...rest] = item.content.flatMap(blockLines)
    return [`${marker}${first}`, ...rest.map((line) => `${' '.repeat(marker.length)}${line}`)]
  })
}

/** Paragraphs and lists separated by a blank line; null for an empty document. */
export function plainText(doc: Frozen<RichTextJson> | null): string | null {
  if (doc === null) return null
  const text = doc.content
    .map((block) => blockLines(block).join('\n'))
    .filter((block) => block.trim() !== '')
    .join('\n\n')
  return text === '' ? null : text
}
