// A webhook receiver on 127.0.0.1 for delivery tests: it records every request with its raw bytes
// and answers as the test says (a status, a body, or holding the request until released). Every
// wait is bounded and fails with what arrived so far.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach } from 'vitest'

export interface Received {
  method: string
  path: string
  headers: IncomingHttpHeaders
  raw: Buffer
  body: any
}

/** What to answer to the nth request (0-based): a status with an optional body, or 'hang' (held until release()). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang'

export interface Receiver {
  /** http://127.0.0.1:<port>/hooks */
  url: string
  received: Received[]
  /** How many requests are held (answered 'hang') right now. */
  readonly held: number
  /** Answers every held request with this status. */
  release(status?: number): void
  /** Waits until `count` requests have arrived, at most `ms`. */
  waitFor(count: number, ms?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(answer: (index: number, received: Received) => Answer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = []
  const held = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      let body: unknown
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        body = undefined
      }
      const entry: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body }
      received.push(entry)
      const reply = answer(received.length - 1, entry)
      if (reply === 'hang') {
        held.add(res)
        res.on('close', () => held.delete(res))
        return
      }
      res.writeHead(reply.status, reply.headers)
      res.end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get held() {
      return held.size
    },
    release(status = 200) {
      for (const res of held) {
        res.writeHead(status)
        res.end()
      }
      held.clear()
    },
    async waitFor(count, ms = 5_000) {
      await waitUntil(() => received.length >= count, ms, () => `${count} requests at the receiver, got ${received.length}`)
      return received
    },
    close() {
      for (const res of held) res.destroy()
      held.clear()
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** Polls `done` every few milliseconds until it holds, failing after `ms`. */
export async function waitUntil(done: () => boolean, ms = 5_000, what: () => string = () => 'the condition'): Promise<void> {
  const deadline = performance.now() + ms
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`waited ${ms} ms for ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** startReceiver() for a test file whose receivers all close after each test (call it at the file's top level). */
export function receiversClosedAfterEach(): (answer?: (index: number, received: Received) => Answer) => Promise<Receiver> {
  let receivers: Receiver[] = []
  afterEach(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()))
    receivers = []
  })
  return async (answer) => {
    const started = await startReceiver(answer)
    receivers.push(started)
    return started
  }
}
