import type { Block } from './layout.ts'
import type { PdfMeta } from './pdf.ts'

/** The footer of every PDF the mock makes. */
export const MOCK_FOOTER = 'Made by the IVS mock: not a document of the real service.'

/** Draws blocks as a PDF (pdf.ts). pdf-lib is loaded on the first download, not at start-up (it costs about 0.2 s to load). */
export async function renderPdfLazily(blocks: Block[], meta: PdfMeta, footer: string): Promise<Uint8Array> {
  const { renderPdf } = await import('./pdf.ts')
  return renderPdf(blocks, meta, footer)
}
