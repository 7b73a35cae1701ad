// Draws blocks (layout.ts) as an A4 PDF with pdf-lib and its standard fonts (Helvetica), so there
// is no font file to ship. The document's dates come from the caller (the mock's clock), so the
// same blocks and dates always give the same bytes.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import type { Block } from './layout.ts'

export interface PdfMeta {
  title: string
  author: string
  subject: string
  /** Creation and modification date of the document. */
  date: Date
}

const PAGE = { width: 595.28, height: 841.89 }
const MARGIN = 56
const LABEL_WIDTH = 120
const FOOTER_SIZE = 8
const GREY = rgb(0.4, 0.4, 0.4)

interface Style {
  size: number
  bold: boolean
  /** Space above the block. */
  before: number
  grey?: boolean
}

const STYLES: Record<Block['kind'], Style> = {
  title: { size: 20, bold: true, before: 0 },
  subtitle: { size: 10, bold: false, before: 6, grey: true },
  heading: { size: 13, bold: true, before: 18 },
  step: { size: 11, bold: true, before: 12 },
  field: { size: 10, bold: false, before: 1 },
  note: { size: 10, bold: false, before: 4, grey: true },
  question: { size: 10, bold: true, before: 8 },
  text: { size: 10, bold: false, before: 1 },
}

const lineHeight = (size: number) => size * 1.3

/**
 * The standard fonts encode WinAnsi only: a character outside it is written without its accents
 * when that fits (Ł -> L is not possible, ā -> a is), else as '?'. Line breaks are kept.
 */
function encodable(font: PDFFont): (text: string) => string {
  const supported = new Set(font.getCharacterSet())
  const one = (char: string): string => {
    const code = char.codePointAt(0) as number
    // Line breaks stay, for wrap to break the text at.
    if (supported.has(code) || char === '\n' || char === '\r') return char
    const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    return base !== '' && [...base].every((part) => supported.has(part.codePointAt(0) as number)) ? base : '?'
  }
  return (text) => Array.from(text.replace(/\t/g, ' '), one).join('')
}

/** Breaks text into lines no wider than width; a word too long for a line is cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width
  const lines: string[] = []
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = ''
    for (const word of paragraph.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`
      if (fits(candidate)) {
        line = candidate
        continue
      }
      if (line !== '') lines.push(line)
      let rest = word
      while (rest !== '' && !fits(rest)) {
        let cut = rest.length - 1
        while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1
        lines.push(rest.slice(0, cut))
        rest = rest.slice(cut)
      }
      line = rest
    }
    lines.push(line)
  }
  return lines
}

export async function renderPdf(blocks: Block[], meta: PdfMeta, footer: string): Promise<Uint8Array> {
  // updateMetadata: false keeps pdf-lib from stamping the real time; the dates are set below.
  const pdf = await PDFDocument.create({ updateMetadata: false })
  pdf.setTitle(meta.title)
  pdf.setAuthor(meta.author)
  pdf.setSubject(meta.subject)
  pdf.setCreator('ivs-mock')
  pdf.setProducer('ivs-mock with pdf-lib')
  pdf.setCreationDate(meta.date)
  pdf.setModificationDate(meta.date)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const clean = encodable(regular)
  const textWidth = PAGE.width - 2 * MARGIN

  // Each block as drawn lines, then in groups that a page break should not split: a heading, a
  // step or a question with what follows it, up to the next one (a heading stays with its first
  // step or question).
  const drawn = blocks.map((block) => {
    const style = STYLES[block.kind]
    const lines =
      block.kind === 'field'
        ? wrap(clean(block.value), regular, style.size, textWidth - LABEL_WIDTH)
        : wrap(clean(block.text), style.bold ? bold : regular, style.size, textWidth)
    return { block, style, lines, height: style.before + lines.length * lineHeight(style.size) }
  })
  const groups: Array<typeof drawn> = []
  for (const item of drawn) {
    const last = groups.at(-1)
    const opens = item.block.kind === 'heading' || item.block.kind === 'step' || item.block.kind === 'question'
    const joins = last !== undefined && (!opens || (item.block.kind !== 'heading' && last.length === 1 && last[0]?.block.kind === 'heading'))
    if (joins) last.push(item)
    else groups.push([item])
  }

  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height])
  const top = PAGE.height - MARGIN
  const bottom = MARGIN + 2 * FOOTER_SIZE
  let y = top
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height])
    y = top
  }
  /** Room for a line of this height, on a new page when this one is full. */
  const advance = (height: number) => {
    if (y - height < bottom) newPage()
    y -= height
  }

  for (const group of groups) {
    const height = group.reduce((sum, item) => sum + item.height, 0)
    // A group that does not fit starts a new page, unless it would not fit on a whole page either.
    if (y < top && y - height < bottom && height <= top - bottom) newPage()
    for (const { block, style, lines } of group) {
      const color = style.grey ? GREY : rgb(0, 0, 0)
      if (y < top) y -= style.before
      lines.forEach((line, index) => {
        advance(lineHeight(style.size))
        if (block.kind === 'field') {
          if (index === 0) page.drawText(clean(block.label), { x: MARGIN, y, size: style.size, font: bold, color })
          page.drawText(line, { x: MARGIN + LABEL_WIDTH, y, size: style.size, font: regular, color })
        } else {
          page.drawText(line, { x: MARGIN, y, size: style.size, font: style.bold ? bold : regular, color })
        }
      })
    }
  }

  const pages = pdf.getPages()
  pages.forEach((each, index) => {
    const text = clean(`${footer} Page ${index + 1} of ${pages.length}.`)
    each.drawText(text, { x: MARGIN, y: MARGIN, size: FOOTER_SIZE, font: regular, color: GREY })
  })
  return pdf.save()
}
