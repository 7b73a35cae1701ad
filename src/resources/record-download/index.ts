export type { Block } from './layout.ts'
export type { PdfMeta } from './pdf.ts'
export { MOCK_FOOTER, renderPdfLazily } from './render.ts'
