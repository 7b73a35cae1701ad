// A binary answer (the downloads of records, forms and client files): handlers return one, and
// the operation gate sends its bytes with its media type instead of JSON.
export interface Binary {
  kind: 'binary'
  type: string
  bytes: Uint8Array
  /** Offered as the download's file name (Content-Disposition). */
  filename?: string
}
