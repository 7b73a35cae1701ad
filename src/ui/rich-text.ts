// A form's rich-text field (the form builder's TipTap document) as HTML: paragraphs, hard breaks,
// bullet and ordered lists (nested too), and the marks bold, italic, underline, strike and link.
// Text is escaped like every value; a link keeps only an http(s) or mailto address.
import type { RichTextBlockJson, RichTextInlineJson, RichTextJson } from '../contracts/generated.ts'
import { attr, h, type Html } from './page.ts'
import type { Frozen } from '../kernel/frozen.ts'

const SAFE_LINK = /^(https?:|mailto:)/i

function inline(node: Frozen<RichTextInlineJson>): Html {
  if (node.type === 'hardBreak') return h`<br>`
  return (node.marks ?? []).reduce<Html>((inner, mark) => {
    switch (mark.type) {
      case 'bold':
        return h`<strong>${inner}</strong>`
      case 'italic':
        return h`<em>${inner}</em>`
      case 'underline':
        return h`<u>${inner}</u>`
      case 'strike':
        return h`<s>${inner}</s>`
      case 'link': {
        const { href } = (mark.attrs ?? {}) as { href?: unknown }
        return typeof href === 'string' && SAFE_LINK.test(href) ? h`<a href="${href}" rel="noopener noreferrer">${inner}</a>` : inner
      }
    }
  }, h`${node.text}`)
}

function block(node: Frozen<RichTextBlockJson>): Html {
  if (node.type === 'paragraph') return h`<p>${(node.content ?? []).map(inline)}</p>`
  const items = node.content.map((item) => h`<li>${item.content.map(block)}</li>`)
  if (node.type === 'bulletList') return h`<ul>${items}</ul>`
  const { start } = (node.attrs ?? {}) as { start?: unknown }
  return h`<ol${attr('start', typeof start === 'number' ? start : undefined)}>${items}</ol>`
}

export function richText(doc: Frozen<RichTextJson>): Html {
  return h`<div class="rich-text">${doc.content.map(block)}</div>`
}
