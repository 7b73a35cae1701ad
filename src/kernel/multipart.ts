// multipart/form-data request bodies (POST /attachments), parsed by busboy as they arrive: a file
// field streams to a file in the uploads folder, never into memory, with backpressure from the
// disk to the socket. Over the size limit the upload stops at once, its partial file is deleted
// and the request is refused with the web server's 413 page (docs/specification-notes.md "Wire details"): nothing of
// it is kept. The caller (the operation gate) owns the saved files and removes what no handler took.
import { randomUUID } from 'node:crypto'
import { createWriteStream, rmSync, statSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import type busboy from 'busboy'
import { payloadTooLarge } from './errors.ts'

/** What the whole body may carry beyond the file: boundaries, part headers and small fields. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024

export interface UploadTarget {
  /** The folder saved files go to (the blob store's uploads folder, so adopting one is a rename). */
  dir: string
  /** The largest file accepted, in bytes. */
  maxBytes: number
}

export interface ReceivedFile {
  /** The file name the client gave (never empty: a part without one is no file). */
  filename: string
  /** The media type the client declared; never trusted for the content. */
  mimeType: string
  /** Where the bytes are: a temporary file in the target folder. */
  path: string
  size: number
}

export interface MultipartBody {
  /** The first file of each wanted field. */
  files: Map<string, ReceivedFile>
  /** Plain (non-file) fields: the last value of each. */
  fields: Map<string, string>
}

const empty = (): MultipartBody => ({ files: new Map(), fields: new Map() })

/** Deletes every saved file a handler did not take (taking one moves it away). */
export function discardFiles(body: MultipartBody): void {
  for (const file of body.files.values()) rmSync(file.path, { force: true })
}

/** Resolves when a writable may take more, rejects if it fails first. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', onDrain)
      stream.off('error', settle)
      stream.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => settle()
    const onClose = () => settle(new Error('multipart: the parser closed'))
    stream.on('drain', onDrain)
    stream.on('error', settle)
    stream.on('close', onClose)
  })
}

/** A file being received: named so until the operation adopts it (a rename), so a crash leaves it recognisable. */
const partialUploadName = () => `.upload-${randomUUID()}.part`

/** Whether a file in the uploads folder is one a request was still receiving (a crash or kill -9 cut it short). */
export const isPartialUpload = (name: string): boolean => /^\.upload-[0-9a-f-]{36}\.part$/.test(name)

/**
 * Reads a multipart/form-data request, saving the first file of each of `fileFields` in the
 * target folder and dropping other files unread into memory. A body that is not multipart, or
 * that breaks off or is malformed, yields what was complete before (a file cut short is dropped):
 * to the validation that follows, a missing field. Throws the 413 when the Content-Length already
 * says the body is too large, or as soon as a file passes maxBytes or the body passes maxBytes plus
 * the multipart overhead.
 */
export async function receiveMultipart(request: Request, fileFields: ReadonlySet<string>, target: UploadTarget): Promise<MultipartBody> {
  const contentType = request.headers.get('content-type') ?? ''
  const maxBody = target.maxBytes + MULTIPART_OVERHEAD_BYTES
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBody) throw payloadTooLarge()
  if (!/^multipart\/form-data\b/i.test(contentType) || request.body === null) return empty()

  // busboy loads with the first multipart body, not at start-up.
  const { default: parse } = await import('busboy')
  let parser: busboy.Busboy
  try {
    parser = parse({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // busboy's limit trips when a file reaches it; one byte more, so that exactly maxBytes passes.
      limits: { fileSize: target.maxBytes + 1, fieldSize: MULTIPART_OVERHEAD_BYTES, parts: 1000 },
    })
  } catch {
    // No or a bad boundary: nothing can be read from it.
    return empty()
  }

  const body = empty()
  const saving: Array<Promise<void>> = []
  const writers: WriteStream[] = []
  let tooLarge = false
  let failure: Error | undefined
  parser.on('error', (error: Error) => (failure ??= error))
  parser.on('field', (name, value) => body.fields.set(name, value))
  parser.on('file', (name, stream, info) => {
    // A file part without a file name is what a form sends when no file was chosen: no file (as PHP sees it).
    if (!fileFields.has(name) || body.files.has(name) || !info.filename) {
      stream.on('error', () => undefined).resume()
      return
    }
    const path = join(target.dir, partialUploadName())
    body.files.set(name, { filename: info.filename, mimeType: info.mimeType, path, size: 0 })
    stream.once('limit', () => (tooLarge = true))
    const writer = createWriteStream(path)
    writers.push(writer)
    saving.push(pipeline(stream, writer))
  })

  let received = 0
  try {
    // Read until done or refused. The rest of a refused body is not read here: after the answer the
    // server drains a little of it and closes the connection.
    const reader = request.body.getReader()
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      const chunk = next.value
      received += chunk.byteLength
      if (received > maxBody) tooLarge = true
      if (tooLarge || failure) break
      if (!parser.write(chunk)) await drained(parser)
      if (tooLarge || failure) break
    }
    if (!tooLarge && !failure) {
      parser.end()
      await finished(parser)
    }
  } catch (error) {
    failure ??= error as Error
  }
  if (tooLarge || failure) parser.destroy()
  const saved = await Promise.allSettled(saving)
  // A write stream destroyed by a refused or broken body may still be opening its file; deleting
  // before it has closed would leave the file behind (seen under load).
  await Promise.all(writers.map((writer) => (writer.closed ? Promise.resolve() : new Promise<void>((resolve) => writer.once('close', () => resolve())))))
  const unsaved = saved.find((result): result is PromiseRejectedResult => result.status === 'rejected')
  if (tooLarge || failure || unsaved) {
    discardFiles(body)
    if (tooLarge) throw payloadTooLarge()
    // The disk failed us: a server error, not the client's.
    if (!failure) throw unsaved?.reason
    // A body that broke off or is malformed: a file in it is not all there.
    return { files: new Map(), fields: body.fields }
  }
  for (const file of body.files.values()) file.size = statSync(file.path).size
  return body
}
