// Downloads and the text of the PDFs the mock makes. The text is read back from the served bytes
// themselves: pdf-lib parses the file, decodes each page's content stream, and the strings drawn
// with Tj are collected in order.
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib'
import { checkResponse } from './api.ts'
import type { TestMock } from './mock.ts'

export interface Download {
  status: number
  headers: Headers
  bytes: Uint8Array
  text: string
}

/** GET of a download path (under /api/v2) as bytes, checked against the contract like every ApiClient answer. */
export async function download(mock: TestMock, token: string | undefined, path: string): Promise<Download> {
  const res = await mock.app.request(path, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder('latin1').decode(bytes)
  let body: unknown = text
  if (res.headers.get('content-type') === 'application/json') body = JSON.parse(text)
  checkResponse('GET', path, { status: res.status, headers: res.headers, body, text })
  return { status: res.status, headers: res.headers, bytes, text }
}

/** The strings a page draws (pdf-lib writes each as a hex string shown with Tj), in order. */
function pageText(page: PDFPage): string[] {
  const contents = page.node.Contents()
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  const strings: string[] = []
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) throw new Error('expected a raw content stream')
    const operators = new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode())
    for (const match of operators.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
      strings.push(new TextDecoder('windows-1252').decode(Buffer.from(match[1] as string, 'hex')))
    }
  }
  return strings
}

/** Each page's strings, in order. */
export async function pdfText(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
  return pdf.getPages().map(pageText)
}
