// What an upload is, decided by its bytes as the real service's validation does (PHP's fileinfo
// behind Laravel's mimes rule), not by the name or the type the client declared: magic numbers for
// PDF, PNG, JPEG, TIFF, ZIP and OLE2, the ZIP's entries for Word and Excel documents, and text as
// fileinfo sees it (no NUL or other binary control byte, in any 8-bit encoding, or UTF-16 with its
// byte order mark), so a Windows-1252 CSV is text too. The name only tells apart what the bytes
// cannot: an old Word from an old Excel file (both OLE2) and CSV from plain text. Files are read
// from disk in chunks.
import { closeSync, openSync, readSync, statSync } from 'node:fs'

const CHUNK = 64 * 1024

const MIME = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
  txt: 'text/plain',
  jpg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  zip: 'application/zip',
} as const

/** The accepted types of docs/specification-notes.md "Attachments and files", in the order its message lists them. */
export const ACCEPTED_EXTENSIONS = Object.keys(MIME)

/** The file name extension of each accepted type (a stored name's). */
export const EXTENSIONS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(MIME).map(([extension, type]) => [type, extension]))

const SIGNATURES: Array<{ bytes: number[]; type: keyof typeof MIME | 'zipArchive' | 'ole2' }> = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: 'pdf' }, // %PDF-
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: 'png' },
  { bytes: [0xff, 0xd8, 0xff], type: 'jpg' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], type: 'tiff' }, // little-endian
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], type: 'tiff' }, // big-endian
  { bytes: [0x50, 0x4b, 0x03, 0x04], type: 'zipArchive' },
  { bytes: [0x50, 0x4b, 0x05, 0x06], type: 'zipArchive' }, // an empty archive
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], type: 'ole2' },
]

/** Reads up to length bytes at position. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length)
  const read = readSync(fd, buffer, 0, length, position)
  return buffer.subarray(0, read)
}

const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase()

/**
 * The names in a ZIP's central directory, or undefined when it cannot be read plainly (no end
 * record, ZIP64, a directory over 16 MB).
 */
function zipEntryNames(fd: number, size: number): string[] | undefined {
  const tailLength = Math.min(size, 22 + 65_535)
  const tail = readAt(fd, size - tailLength, tailLength)
  let end = -1
  for (let index = tail.length - 22; index >= 0; index--) {
    if (tail.readUInt32LE(index) === 0x06054b50) {
      end = index
      break
    }
  }
  if (end === -1) return undefined
  const directorySize = tail.readUInt32LE(end + 12)
  const directoryOffset = tail.readUInt32LE(end + 16)
  if (directoryOffset === 0xffffffff || directorySize > 16 * 1024 * 1024 || directoryOffset + directorySize > size) return undefined
  const directory = readAt(fd, directoryOffset, directorySize)
  const names: string[] = []
  let at = 0
  while (at + 46 <= directory.length && directory.readUInt32LE(at) === 0x02014b50) {
    const nameLength = directory.readUInt16LE(at + 28)
    names.push(directory.toString('utf8', at + 46, at + 46 + nameLength))
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32)
  }
  return names
}

/** An Office Open XML document is a ZIP with word/ or xl/ parts; by its name when its directory cannot be read. */
function zipType(fd: number, size: number, original: string): string {
  const names = zipEntryNames(fd, size)
  if (names?.some((name) => name.startsWith('word/'))) return MIME.docx
  if (names?.some((name) => name.startsWith('xl/'))) return MIME.xlsx
  const extension = extensionOf(original)
  if (names === undefined && (extension === 'docx' || extension === 'xlsx')) return MIME[extension]
  return MIME.zip
}

/** The control bytes text may hold, as fileinfo's text table has them: BEL, BS, TAB, LF, VT, FF, CR and ESC. */
const TEXT_CONTROLS = new Set([7, 8, 9, 10, 11, 12, 13, 27])

const isBinaryByte = (byte: number) => (byte < 32 && !TEXT_CONTROLS.has(byte)) || byte === 127

/** Whether the whole file is text: UTF-16 with a byte order mark, or bytes of which none is binary. */
function isText(fd: number, size: number): boolean {
  const head = readAt(fd, 0, 2)
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)
  if (utf16) return size % 2 === 0
  for (let position = 0; position < size; position += CHUNK) {
    const chunk = readAt(fd, position, CHUNK)
    if (chunk.length === 0 || chunk.some(isBinaryByte)) return false
  }
  return true
}

/** The MIME type of an upload of an accepted kind (docs/specification-notes.md "Attachments and files"), or undefined for anything else (an empty file too). */
export function detectType(path: string, original: string): string | undefined {
  const size = statSync(path).size
  if (size === 0) return undefined
  const fd = openSync(path, 'r')
  try {
    const head = readAt(fd, 0, 16)
    const match = SIGNATURES.find(({ bytes }) => bytes.every((byte, index) => head[index] === byte))
    if (match?.type === 'zipArchive') return zipType(fd, size, original)
    if (match?.type === 'ole2') return extensionOf(original) === 'xls' ? MIME.xls : MIME.doc
    if (match) return MIME[match.type]
    if (!isText(fd, size)) return undefined
    return extensionOf(original) === 'csv' ? MIME.csv : MIME.txt
  } finally {
    closeSync(fd)
  }
}

/** Whether a file's bytes contain needle anywhere (across chunk boundaries too). */
export function fileContains(path: string, needle: string): boolean {
  const wanted = Buffer.from(needle, 'latin1')
  const fd = openSync(path, 'r')
  try {
    let carried = Buffer.alloc(0)
    for (let position = 0; ; position += CHUNK) {
      const chunk = readAt(fd, position, CHUNK)
      if (chunk.length === 0) return false
      const window = Buffer.concat([carried, chunk])
      if (window.includes(wanted)) return true
      carried = window.subarray(Math.max(0, window.length - wanted.length + 1))
    }
  } finally {
    closeSync(fd)
  }
}
