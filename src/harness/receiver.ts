// The runner's webhook receiver: one server on 127.0.0.1 per run, one path per scenario, so a
// scenario's receive steps see only the deliveries of webhooks it pointed at {{receiver.url}}.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bodyText, jsonValueOf } from '../contracts/body.ts'

export interface Delivery {
  /** Header names in lower case. */
  headers: Record<string, string>
  raw: Buffer
  /** The parsed JSON body (undefined when it is not JSON). */
  body: unknown
  event: string | undefined
}

interface Waiter {
  event: string
  accepts: (delivery: Delivery) => boolean
  resolve: (delivery: Delivery | undefined) => void
}

export class Receiver {
  private readonly inbox = new Map<string, Delivery[]>()
  private readonly waiters = new Map<string, Waiter[]>()

  private constructor(
    private readonly server: Server,
    /** http://127.0.0.1:<port> */
    readonly origin: string,
  ) {}

  /** Listens on 127.0.0.1 at `port` (0: a free one). */
  static async start(port = 0): Promise<Receiver> {
    const server = createServer()
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', resolve)
    })
    const receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        response.writeHead(204).end()
        receiver.accept((request.url ?? '/').split('?')[0]?.slice(1) ?? '', request.headers, Buffer.concat(chunks))
      })
    })
    return receiver
  }

  private accept(key: string, rawHeaders: Record<string, string | string[] | undefined>, raw: Buffer): void {
    const headers = Object.fromEntries(Object.entries(rawHeaders).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]))
    const body = jsonValueOf(bodyText(raw))
    const event = typeof body === 'object' && body !== null && typeof (body as { event?: unknown }).event === 'string' ? (body as { event: string }).event : undefined
    const delivery: Delivery = { headers, raw, body, event }
    const waiting = this.waiters.get(key) ?? []
    const waiter = waiting.find((candidate) => candidate.event === event && candidate.accepts(delivery))
    if (waiter) {
      waiting.splice(waiting.indexOf(waiter), 1)
      waiter.resolve(delivery)
      return
    }
    const inbox = this.inbox.get(key) ?? []
    inbox.push(delivery)
    this.inbox.set(key, inbox)
  }

  /**
   * The first delivery of an event to a scenario's path that `accepts` takes, from those kept or
   * awaited for `withinMs`; deliveries it passes over stay for later steps.
   */
  next(key: string, event: string, withinMs: number, accepts: (delivery: Delivery) => boolean = () => true): Promise<Delivery | undefined> {
    const inbox = this.inbox.get(key) ?? []
    const index = inbox.findIndex((delivery) => delivery.event === event && accepts(delivery))
    if (index >= 0) return Promise.resolve(inbox.splice(index, 1)[0])
    return new Promise((resolve) => {
      const waiting = this.waiters.get(key) ?? []
      this.waiters.set(key, waiting)
      const waiter: Waiter = {
        event,
        accepts,
        resolve: (delivery) => {
          clearTimeout(timer)
          resolve(delivery)
        },
      }
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1)
        resolve(undefined)
      }, withinMs)
      waiting.push(waiter)
    })
  }

  /** Events delivered to a scenario's path and not taken by a receive step. */
  unclaimed(key: string): string[] {
    return (this.inbox.get(key) ?? []).map((delivery) => delivery.event ?? '(not JSON)')
  }

  /** Forgets a finished scenario's deliveries. */
  forget(key: string): void {
    this.inbox.delete(key)
    this.waiters.delete(key)
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
