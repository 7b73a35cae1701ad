// The multipart reader on its own, with a small size limit: a file streams to disk, nothing else is
// kept, and a body over the limit is refused with the web server's 413 as soon as it crosses it,
// leaving nothing behind.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HtmlError } from '../../src/kernel/errors.ts'
import { discardFiles, MULTIPART_OVERHEAD_BYTES, receiveMultipart } from '../../src/kernel/multipart.ts'

const BOUNDARY = 'test-boundary-7d9'
const encode = (text: string) => new TextEncoder().encode(text)

const filePart = (field: string, filename: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n${content}\r\n`
const fieldPart = (field: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`
const closing = `--${BOUNDARY}--\r\n`

/** A request whose body is read chunk by chunk from a generator; pulled counts the chunks read. */
function streamed(chunks: () => Generator<Uint8Array>, headers: Record<string, string> = {}) {
  const state = { pulled: 0 }
  const source = chunks()
  // No queue ahead of the reader: a chunk is made only when it is read.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = source.next()
        if (next.done) controller.close()
        else {
          state.pulled++
          controller.enqueue(next.value)
        }
      },
    },
    { highWaterMark: 0 },
  )
  const request = new Request('http://localhost/upload', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body,
    duplex: 'half',
  })
  return { request, state }
}

/** The folders the tests' uploads went to, removed after each test. */
const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function target(maxBytes = 1024) {
  const dir = mkdtempSync(join(tmpdir(), 'multipart-test-'))
  folders.push(dir)
  return { dir, maxBytes }
}

const ATTACHMENT = new Set(['attachment'])

describe('receiveMultipart', () => {
  it('saves the first file of a wanted field to disk with its name and declared type, and keeps plain fields', async () => {
    const to = target()
    const { request } = streamed(function* () {
      yield encode(fieldPart('note', 'hello'))
      yield encode(filePart('attachment', 'contract.pdf', '%PDF-1.4 first'))
      yield encode(filePart('attachment', 'second.pdf', '%PDF-1.4 second'))
      yield encode(filePart('other', 'other.pdf', '%PDF-1.4 other'))
      yield encode(closing)
    })
    const body = await receiveMultipart(request, ATTACHMENT, to)
    expect([...body.fields]).toEqual([['note', 'hello']])
    const file = body.files.get('attachment')
    expect(file).toEqual({ filename: 'contract.pdf', mimeType: 'application/pdf', path: expect.stringContaining(to.dir), size: 14 })
    expect(readFileSync(file?.path as string, 'utf8')).toBe('%PDF-1.4 first')
    // Only the one file is kept; the others were read through and dropped.
    expect(readdirSync(to.dir)).toHaveLength(1)
    discardFiles(body)
    expect(readdirSync(to.dir)).toEqual([])
  })

  it('accepts a file of exactly the limit', async () => {
    const to = target(1024)
    const { request } = streamed(function* () {
      yield encode(filePart('attachment', 'full.txt', 'x'.repeat(1024)))
      yield encode(closing)
    })
    const body = await receiveMultipart(request, ATTACHMENT, to)
    expect(body.files.get('attachment')?.size).toBe(1024)
    discardFiles(body)
  })

  it('refuses a file over the limit with the 413 page as soon as it crosses it, reads no further and keeps nothing', async () => {
    const to = target(1024)
    const { request, state } = streamed(function* () {
      yield encode(filePart('attachment', 'big.pdf', '').slice(0, -2))
      for (let index = 0; index < 1000; index++) yield encode('y'.repeat(100))
      yield encode(`\r\n${closing}`)
    })
    const refused = await receiveMultipart(request, ATTACHMENT, to).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(HtmlError)
    expect((refused as HtmlError).status).toBe(413)
    expect((refused as HtmlError).page).toContain('<title>413 Request Entity Too Large</title>')
    // 1024 bytes of file take the header chunk and 11 chunks of 100 bytes: not the 1000 chunks sent.
    expect(state.pulled).toBe(12)
    expect(readdirSync(to.dir)).toEqual([])
  })

  it('refuses a body over the limit and its overhead even when its file is not wanted', async () => {
    const to = target(1024)
    const chunk = encode('z'.repeat(64 * 1024))
    const { request, state } = streamed(function* () {
      yield encode(filePart('other', 'big.bin', '').slice(0, -2))
      for (let index = 0; index < 100; index++) yield chunk
    })
    const refused = await receiveMultipart(request, ATTACHMENT, to).catch((error: unknown) => error)
    expect((refused as HtmlError).status).toBe(413)
    expect(state.pulled).toBe(Math.ceil((1024 + MULTIPART_OVERHEAD_BYTES) / chunk.length) + 1)
    expect(readdirSync(to.dir)).toEqual([])
  })

  it('refuses at once, reading nothing, when the Content-Length is already over the limit and its overhead', async () => {
    const to = target(1024)
    const { request, state } = streamed(
      function* () {
        yield encode(filePart('attachment', 'a.pdf', '%PDF'))
      },
      { 'content-length': String(1024 + MULTIPART_OVERHEAD_BYTES + 1) },
    )
    const refused = await receiveMultipart(request, ATTACHMENT, to).catch((error: unknown) => error)
    expect((refused as HtmlError).status).toBe(413)
    expect(state.pulled).toBe(0)
  })

  it('drops a file cut short by a body that breaks off, keeping nothing', async () => {
    const to = target()
    const { request } = streamed(function* () {
      yield encode(filePart('attachment', 'cut.pdf', '%PDF-1.4 cut').slice(0, -2))
    })
    const body = await receiveMultipart(request, ATTACHMENT, to)
    expect(body.files.size).toBe(0)
    expect(readdirSync(to.dir)).toEqual([])
  })

  it('takes a file part without a file name as no file, as a form sends one when nothing was chosen', async () => {
    const to = target()
    const { request } = streamed(function* () {
      yield encode(filePart('attachment', '', ''))
      yield encode(closing)
    })
    const body = await receiveMultipart(request, ATTACHMENT, to)
    expect(body.files.size).toBe(0)
    expect(readdirSync(to.dir)).toEqual([])
  })

  it('reads nothing from a body that is not multipart, or has no boundary', async () => {
    const to = target()
    for (const contentType of ['application/json', 'multipart/form-data']) {
      const request = new Request('http://localhost/upload', { method: 'POST', headers: { 'content-type': contentType }, body: '{"attachment": 1}' })
      const body = await receiveMultipart(request, ATTACHMENT, to)
      expect(body).toEqual({ files: new Map(), fields: new Map() })
    }
  })
})
