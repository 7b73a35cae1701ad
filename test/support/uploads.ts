// Small valid files of every type POST /attachments accepts, made here byte by byte, and the
// multipart requests that upload them.
import { crc32 } from 'node:zlib'
import type { ApiClient, ApiResponse } from './api.ts'

const ascii = (text: string) => new TextEncoder().encode(text)

function concat(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  return bytes
}

/** A ZIP archive of stored (uncompressed) entries, with its central directory. */
export function zipOf(entries: Record<string, string>): Uint8Array {
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = ascii(name)
    const data = ascii(content)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const directory = concat(...centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(entries).length, 8)
  end.writeUInt16LE(Object.keys(entries).length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return concat(...locals, directory, end)
}

/** An OLE2 compound file header (old Word and Excel files), padded to its 512-byte sector. */
function ole2(): Uint8Array {
  const header = new Uint8Array(512)
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
  header.set([0x3e, 0x00, 0x03, 0x00, 0xfe, 0xff], 24)
  return header
}

const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'

/** One small file per accepted type: its name, bytes and the type the mock must find in them. */
export const ACCEPTED: ReadonlyArray<{ kind: string; name: string; bytes: Uint8Array; type: string }> = [
  { kind: 'pdf', name: 'contract.pdf', bytes: ascii('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'), type: 'application/pdf' },
  {
    kind: 'docx',
    name: 'letter.docx',
    bytes: zipOf({ '[Content_Types].xml': CONTENT_TYPES, 'word/document.xml': '<w:document/>' }),
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  { kind: 'doc', name: 'letter.doc', bytes: ole2(), type: 'application/msword' },
  {
    kind: 'xlsx',
    name: 'figures.xlsx',
    bytes: zipOf({ '[Content_Types].xml': CONTENT_TYPES, 'xl/workbook.xml': '<workbook/>' }),
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  { kind: 'xls', name: 'figures.xls', bytes: ole2(), type: 'application/vnd.ms-excel' },
  { kind: 'csv', name: 'people.csv', bytes: ascii('name,email\nZoë Ng,zoe@example.com\n'), type: 'text/csv' },
  { kind: 'txt', name: 'notes.txt', bytes: ascii('Called the client on Monday. ✓\n'), type: 'text/plain' },
  { kind: 'txt (Windows-1252)', name: 'café.txt', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]), type: 'text/plain' },
  { kind: 'txt (UTF-16)', name: 'wide.txt', bytes: new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), type: 'text/plain' },
  { kind: 'jpg', name: 'photo.jpg', bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]), type: 'image/jpeg' },
  { kind: 'png', name: 'scan.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]), type: 'image/png' },
  { kind: 'tiff (little-endian)', name: 'fax.tiff', bytes: new Uint8Array([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]), type: 'image/tiff' },
  { kind: 'tiff (big-endian)', name: 'fax.tif', bytes: new Uint8Array([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00]), type: 'image/tiff' },
  { kind: 'zip', name: 'bundle.zip', bytes: zipOf({ 'readme.txt': 'Two documents.', 'a.txt': 'A' }), type: 'application/zip' },
]

/** Files of other types, or not files of any type. */
export const REFUSED: ReadonlyArray<{ kind: string; name: string; bytes: Uint8Array }> = [
  { kind: 'a Windows program', name: 'setup.exe', bytes: concat(ascii('MZ'), new Uint8Array([0x90, 0x00, 0x03, 0x00, 0x00, 0x00])) },
  { kind: 'a GIF image', name: 'animation.gif', bytes: concat(ascii('GIF89a'), new Uint8Array([0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00])) },
  { kind: 'a program named like a PDF', name: 'invoice.pdf', bytes: concat(ascii('MZ'), new Uint8Array([0x90, 0x00])) },
  { kind: 'binary bytes named like text', name: 'data.txt', bytes: new Uint8Array([0x01, 0x02, 0x03, 0x0a]) },
  { kind: 'text with a NUL byte', name: 'nul.csv', bytes: concat(ascii('a,b'), new Uint8Array([0x00]), ascii('\n')) },
  { kind: 'an empty file', name: 'empty.txt', bytes: new Uint8Array(0) },
]

/** A multipart body with the file under the field attachment (or another field). */
export function uploadForm(name: string, bytes: Uint8Array, options: { field?: string; type?: string } = {}): FormData {
  const form = new FormData()
  form.append(options.field ?? 'attachment', new Blob([bytes], { type: options.type ?? 'application/octet-stream' }), name)
  return form
}

/** POST /attachments with one file. */
export function upload(api: ApiClient, name: string, bytes: Uint8Array, type?: string): Promise<ApiResponse> {
  return api.request('POST', '/attachments', { body: uploadForm(name, bytes, { type }) })
}

export const TYPE_ERROR = { attachment: ['The attachment field must be a file of type: pdf, docx, doc, xlsx, xls, csv, txt, jpg, png, tiff, zip.'] }

/** The standard antivirus test file. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'

/** nginx's 413 page, as the real service's web server sends it (docs/specification-notes.md "Wire details"). */
export const TOO_LARGE_PAGE =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
