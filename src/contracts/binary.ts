// A binary answer (the downloads of records, forms and client files): handlers return one, and
// the operation gate sends its bytes with its media type instead of JSON.
export interface Binary {
  kind: 'binary'
  type: string
  /** The bytes, or a stream of them read as they are sent (a client file can be 100 MB). */
  bytes: Uint8Array | ReadableStream<Uint8Array>
  /** The length in bytes (Content-Length), when known. */
  size?: number
  /** Offered as the download's file name (Content-Disposition). */
  filename?: string
}
