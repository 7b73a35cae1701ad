// The validating proxy (ivs-mock proxy): sits between a client and a deployment (or the mock),
// passes every request and answer through unchanged and streamed, and judges each exchange against
// contracts/: the request against the operation it reaches (with what the service would ignore and
// what is deprecated), the answer against that operation's documented responses. Bodies are never
// held whole: at most a bounded prefix of each is kept to be judged, and decoded within that bound.
// It sends requests to its upstream only, by path: a request target naming another host or scheme
// is a 400 it answers itself. Whatever a client sends or an upstream answers, the exchange is
// recorded (with who answered it) and the proxy goes on.
import {
  createServer,
  request as httpRequest,
  Agent as HttpAgent,
  type ClientRequest,
  type ClientRequestArgs,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent, type RequestOptions as HttpsRequestOptions } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { urlToHttpOptions } from 'node:url'
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import { InputAudit } from '../contracts/ignored.ts'
import type { AjvContracts } from '../contracts/ajv.ts'
import { bodyText, readJsonBody } from '../contracts/body.ts'
import { SURFACES } from '../contracts/load.ts'
import { summarise, type Report, type Verdict } from '../contracts/verdicts.ts'
import { Conformance, type Violation } from './conformance.ts'

/** The most of a body kept to be judged, compressed or decoded; a longer one passes through unjudged (and the verdict says so). */
export const MAX_JUDGED_BODY = 1024 * 1024

/** Headers of one connection, never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** Who gave the client its answer: the upstream, or the proxy itself (it forwarded nothing, or got nothing back). */
export type AnsweredBy = 'upstream' | 'proxy'

/** One exchange as the proxy saw it, judged. */
export interface ProxiedExchange {
  method: string
  /** The path as sent, without the query string (a target the proxy refused: the target as sent). */
  path: string
  /** The query string without '?' ('' when none). */
  query: string
  operationId: string | null
  status: number
  answeredBy: AnsweredBy
  /** Wall-clock time of the request's arrival (ISO 8601). */
  at: string
  durationMs: number
  requestViolations: string[]
  responseViolations: string[]
  /** Everything found, in the journal's verdict kinds (response_violation and not_relayed included). */
  verdicts: Verdict[]
  /** What was not judged and why (a body too large, not JSON, not decodable, or cut short). */
  notes: string[]
  /** For --record: what the exchange carried. */
  recorded: RecordedExchange
}

export interface RecordedExchange {
  params: Record<string, string>
  token: string | undefined
  /** The request's JSON body (undefined when none or not kept). */
  requestBody: unknown
  /** The answer's JSON body (undefined when none or not kept). */
  responseBody: unknown
  contentType: string | undefined
}

export interface ProxyOptions {
  /** Where requests go: an origin, optionally with a base path (https://sandbox.example). */
  upstream: string
  host: string
  port: number
  /** Gets one line per exchange. */
  log: (line: string) => void
}

/** Whether an exchange breaks the contract: its request or answer, or no operation has its method and path. */
export const breaksContract = (exchange: ProxiedExchange): boolean =>
  exchange.verdicts.some((verdict) => verdict.kind === 'request_violation' || verdict.kind === 'response_violation' || verdict.kind === 'unknown_operation')

/** Why a body was not decoded for judging. */
class Undecodable extends Error {}

/** Decoding stops at MAX_JUDGED_BODY bytes: a small body may decode to gigabytes (a decompression bomb). */
const CAPPED = { maxOutputLength: MAX_JUDGED_BODY }

const DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gunzipSync(bytes, CAPPED),
  'x-gzip': (bytes) => gunzipSync(bytes, CAPPED),
  // HTTP's deflate is zlib-wrapped, but servers send raw deflate too.
  deflate: (bytes) => {
    try {
      return inflateSync(bytes, CAPPED)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error
      return inflateRawSync(bytes, CAPPED)
    }
  },
  br: (bytes) => brotliDecompressSync(bytes, CAPPED),
}

/** A body as its Content-Encoding says to undo it (codings undone last first); Undecodable says why not. */
function decode(raw: Buffer, contentEncoding: string | undefined): Buffer {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
  let bytes = raw
  for (const coding of codings.reverse()) {
    const undo = Object.hasOwn(DECODERS, coding) ? DECODERS[coding] : undefined
    if (!undo) throw new Undecodable(`its Content-Encoding ${coding.slice(0, 60)} is not one the proxy decodes`)
    try {
      bytes = undo(bytes)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Undecodable(`over ${MAX_JUDGED_BODY} bytes once decoded (${coding})`)
      throw new Undecodable(`it is not ${coding} as its Content-Encoding says (${(error as Error).message})`)
    }
  }
  return bytes
}

/** A bounded copy of a body as it streams past. */
class Tee {
  private readonly chunks: Buffer[] = []
  size = 0
  overflow = false
  /** The body's end went past. */
  ended = false

  constructor(private readonly keep: boolean) {}

  add(chunk: Buffer): void {
    this.size += chunk.length
    if (!this.keep || this.overflow) return
    if (this.size > MAX_JUDGED_BODY) {
      this.overflow = true
      this.chunks.length = 0
      return
    }
    this.chunks.push(chunk)
  }

  get kept(): boolean {
    return this.keep && !this.overflow
  }

  /** The body decoded for judging; throws Undecodable. */
  decoded(contentEncoding: string | undefined): Buffer {
    return decode(Buffer.concat(this.chunks), contentEncoding)
  }
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

const isJson = (contentType: string | undefined) => contentType === undefined || /json/i.test(contentType)

/** Header pairs without the hop-by-hop ones (and those the Connection header names). */
function endToEnd(rawHeaders: string[], connection: string | undefined): string[] {
  const dropped = new Set([...HOP_BY_HOP, ...(connection ?? '').split(',').map((name) => name.trim().toLowerCase())])
  const kept: string[] = []
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!dropped.has((rawHeaders[index] as string).toLowerCase())) kept.push(rawHeaders[index] as string, rawHeaders[index + 1] as string)
  }
  return kept
}

/** A body as the mock reads it (contracts/body.ts): its JSON, undefined when it holds none, and text that is no JSON as it is. */
function readBody(text: string): { value: unknown; notJson: boolean } {
  const body = readJsonBody(text)
  return { value: body.kind === 'json' ? body.value : body.kind === 'malformed' ? body.text : undefined, notJson: body.kind === 'malformed' }
}

const describe = (violations: Violation[]) => violations.map((violation) => `${violation.at}: ${violation.message}`)

/** A request target for a message: at most 200 characters, quoted and escaped (one line whatever it holds). */
const shown = (target: string) => JSON.stringify(target.length > 200 ? `${target.slice(0, 200)}...` : target)

/**
 * Why the proxy does not forward a request, or undefined: it sends requests to its upstream only,
 * by path (origin-form). An absolute URL, a `//host` path, `*` or CONNECT would reach anything else.
 */
function notForwarded(method: string, target: string): string | undefined {
  if (method === 'CONNECT') return `CONNECT ${shown(target)} would open a tunnel`
  if (target.startsWith('//')) return `the request target ${shown(target)} names a host`
  if (!target.startsWith('/')) return `the request target is not a path (${shown(target)})`
  return undefined
}

/** Writes that fail because the peer has closed the connection. */
const PEER_GONE = new Set(['EPIPE', 'ECONNRESET'])

/**
 * An upstream may answer before it has read the whole body (a 413 for its size) and close the
 * connection: the proxy's next write of the body fails (EPIPE, ECONNRESET), on which Node destroys
 * the socket with the answer unread. Writes that fail so are dropped instead, and the socket reads
 * on to its end: the answer is passed on, and a connection closed with no answer is still the
 * request's error.
 */
function readsPastFailedWrites(socket: Duplex | null | undefined): Duplex | null | undefined {
  if (!socket) return socket
  let peerGone = false
  const settle = (callback: (error?: Error | null) => void) => (error?: Error | null) => {
    if (error && PEER_GONE.has((error as NodeJS.ErrnoException).code ?? '')) {
      peerGone = true
      callback()
    } else callback(error)
  }
  const write = socket._write.bind(socket)
  socket._write = (chunk, encoding, callback) => (peerGone ? callback() : write(chunk, encoding, settle(callback)))
  const writev = socket._writev?.bind(socket)
  if (writev) socket._writev = (chunks, callback) => (peerGone ? callback() : writev(chunks, settle(callback)))
  return socket
}

class UpstreamAgent extends HttpAgent {
  override createConnection(options: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    return readsPastFailedWrites(super.createConnection(options, callback))
  }
}

class SecureUpstreamAgent extends HttpsAgent {
  override createConnection(options: HttpsRequestOptions, callback?: (error: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    return readsPastFailedWrites(super.createConnection(options, callback))
  }
}

/** A request as it arrived, before anything is known of its answer. */
interface Arrival {
  /** The request (none when Node could not parse it). */
  req: IncomingMessage | undefined
  method: string
  /** The request target as sent (a path and query string, unless the proxy refused it). */
  target: string
  at: string
  started: number
  requestType: string | undefined
  requestTee: Tee
  /** Set once the exchange is recorded: it is recorded once, whatever happens after. */
  recorded: boolean
}

/** How an exchange ended. */
interface Outcome {
  status: number
  answeredBy: AnsweredBy
  /** The upstream's answer, when there was one: its headers and the copy of its body. */
  answer?: { headers: IncomingHttpHeaders; tee: Tee; type: string | undefined }
  /** Why the exchange did not pass through whole (the not_relayed verdict). */
  notRelayed?: string
  /** The proxy refused the request target: it reached no operation. */
  refused?: boolean
}

export class ValidatingProxy {
  readonly exchanges: ProxiedExchange[] = []
  private readonly conformance: Conformance
  private readonly audit: InputAudit
  private readonly upstream: URL
  /** Where every request goes: the upstream's scheme, host and port; its base path comes before each request's path. */
  private readonly destination: ClientRequestArgs
  private readonly basePath: string
  private readonly agent: HttpAgent
  private server: Server | undefined
  /** Exchanges under way, recorded when they end (stop() waits for them). */
  private readonly underWay = new Set<Promise<void>>()
  /** Every open connection, those the HTTP server no longer looks after (a CONNECT's) included: stop() closes them all. */
  private readonly sockets = new Set<Duplex>()
  /** The answers each connection has still to send, in the order its requests came. */
  private readonly answering = new WeakMap<Duplex, Set<ServerResponse>>()

  constructor(
    contracts: AjvContracts,
    private readonly options: ProxyOptions,
  ) {
    this.conformance = new Conformance(contracts)
    this.audit = new InputAudit(contracts)
    this.upstream = new URL(options.upstream)
    const { protocol, hostname, port, auth } = urlToHttpOptions(this.upstream)
    this.destination = { protocol, hostname, port, auth }
    this.basePath = this.upstream.pathname.replace(/\/$/, '')
    this.agent = this.upstream.protocol === 'https:' ? new SecureUpstreamAgent({ keepAlive: true }) : new UpstreamAgent({ keepAlive: true })
  }

  /** Listens; resolves with the port it got. */
  async start(): Promise<number> {
    const server = createServer((req, res) => this.forward(req, res))
    // An Expect other than 100-continue is the upstream's to answer (Node would answer 417 itself, unrecorded).
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => this.forward(req, res))
    server.on('connect', (req: IncomingMessage, socket: Duplex) => this.refuseTunnel(req, socket))
    server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => this.unreadable(error, socket))
    server.on('connection', (socket: Duplex) => {
      this.sockets.add(socket)
      this.answering.set(socket, new Set())
      socket.once('close', () => this.sockets.delete(socket))
    })
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.options.port, this.options.host, () => resolve())
    })
    return (server.address() as AddressInfo).port
  }

  /** Stops taking requests, cuts the connections still open, and resolves once their exchanges are recorded. */
  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const socket of this.sockets) socket.destroy()
    })
    await Promise.all(this.underWay)
    this.agent.destroy()
  }

  /** The summary in the journal report's shape, over every exchange so far. */
  report(): Report {
    return summarise(
      null,
      this.exchanges.map((exchange) => ({
        method: exchange.method,
        path: exchange.query === '' ? exchange.path : `${exchange.path}?${exchange.query}`,
        operation: exchange.operationId,
        deprecated: exchange.verdicts.some((verdict) => verdict.kind === 'deprecated' && verdict.at === null),
        status: exchange.status,
        at: `${exchange.at.slice(0, 19)}Z`,
        verdicts: exchange.verdicts,
      })),
    )
  }

  private arrive(req: IncomingMessage): Arrival {
    const requestType = headerValue(req.headers, 'content-type')
    const arrival: Arrival = {
      req,
      method: (req.method ?? 'GET').toUpperCase(),
      target: req.url ?? '/',
      at: new Date().toISOString(),
      started: performance.now(),
      requestType,
      requestTee: new Tee(!/multipart\//i.test(requestType ?? '')),
      recorded: false,
    }
    req.on('data', (chunk: Buffer) => arrival.requestTee.add(chunk))
    req.on('end', () => (arrival.requestTee.ended = true))
    // A client that breaks off its body: what it sent is not judged; the exchange ends with the connection.
    req.on('error', () => undefined)
    return arrival
  }

  /** Judges and keeps an exchange, once; a failure to judge it is a note, never the proxy's end. */
  private record(arrival: Arrival, outcome: Outcome): void {
    if (arrival.recorded) return
    arrival.recorded = true
    let exchange: ProxiedExchange
    try {
      exchange = this.judge(arrival, outcome)
    } catch (error) {
      exchange = {
        ...this.unjudged(arrival, outcome),
        notes: [`not judged: ${(error as Error).message}`],
      }
    }
    this.exchanges.push(exchange)
    this.options.log(verdictLine(exchange))
  }

  /** An exchange under way until `settled` resolves; stop() waits for it. */
  private track(settled: Promise<void>): void {
    this.underWay.add(settled)
    void settled.then(() => this.underWay.delete(settled))
  }

  /** The proxy's own answer (JSON, one line), recorded as not relayed. */
  private answerItself(arrival: Arrival, res: ServerResponse, status: number, reason: string, refused = false): void {
    if (!res.headersSent && !res.destroyed) {
      const body = JSON.stringify({ message: `ivs-mock proxy: ${reason}` })
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    } else res.destroy()
    this.record(arrival, { status, answeredBy: 'proxy', notRelayed: reason, refused })
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const arrival = this.arrive(req)
    const answering = this.answering.get(req.socket)
    answering?.add(res)
    res.once('close', () => answering?.delete(res))
    const refusal = notForwarded(arrival.method, arrival.target)
    if (refusal !== undefined) {
      req.resume()
      this.answerItself(arrival, res, 400, `not forwarded: ${refusal}; this proxy sends requests only to ${this.upstream.origin}, by path (/api/v2/...)`, true)
      return
    }
    const headers = endToEnd(req.rawHeaders, headerValue(req.headers, 'connection'))
    let hostAt = -1
    for (let index = 0; index < headers.length; index += 2) if ((headers[index] as string).toLowerCase() === 'host') headers[(hostAt = index) + 1] = this.upstream.host
    // An HTTP/1.0 request may come without Host; it goes on as HTTP/1.1, which must carry one.
    if (hostAt === -1) headers.push('Host', this.upstream.host)
    const send = this.upstream.protocol === 'https:' ? httpsRequest : httpRequest
    let upstreamRequest: ClientRequest
    try {
      upstreamRequest = send({ ...this.destination, path: `${this.basePath}${arrival.target}`, method: req.method, headers, agent: this.agent })
    } catch (error) {
      // What Node will not send on (a header value it refuses): the request as it came cannot be forwarded.
      req.resume()
      this.answerItself(arrival, res, 400, `not forwarded: ${(error as Error).message}`)
      return
    }
    let settle: () => void = () => undefined
    this.track(new Promise<void>((resolve) => (settle = resolve)))
    const finish = (outcome: Outcome) => {
      this.record(arrival, outcome)
      settle()
    }
    let answer: { message: IncomingMessage; tee: Tee; type: string | undefined } | undefined
    const upstreamAnswer = () => answer && { headers: answer.message.headers, tee: answer.tee, type: answer.type }

    req.pipe(upstreamRequest)
    res.on('close', () => {
      if (res.writableFinished) return
      upstreamRequest.destroy()
      if (answer) finish({ status: answer.message.statusCode ?? 0, answeredBy: 'upstream', answer: upstreamAnswer(), notRelayed: `the client went away after ${answer.tee.size} bytes of the answer` })
      // nginx's 499: the client closed the connection before the answer.
      else finish({ status: 499, answeredBy: 'proxy', notRelayed: 'the client went away before the answer' })
    })
    const brokeOff = (error: Error) => {
      if (!answer || answer.message.complete) return
      res.destroy()
      finish({ status: answer.message.statusCode ?? 0, answeredBy: 'upstream', answer: upstreamAnswer(), notRelayed: `the answer broke off after ${answer.tee.size} bytes (${error.message})` })
    }
    upstreamRequest.on('error', (error) => {
      // A late error of a connection whose answer came whole (it answered early, then closed) is no error of the exchange.
      if (answer?.message.complete) return
      if (answer) return brokeOff(error)
      req.unpipe(upstreamRequest)
      req.resume()
      this.answerItself(arrival, res, 502, `the upstream ${this.upstream.origin} did not answer: ${error.message}`)
      settle()
    })
    upstreamRequest.on('response', (message) => {
      const type = headerValue(message.headers, 'content-type')
      answer = { message, tee: new Tee(isJson(type)), type }
      const tee = answer.tee
      message.on('error', brokeOff)
      try {
        res.writeHead(message.statusCode ?? 502, message.statusMessage, endToEnd(message.rawHeaders, headerValue(message.headers, 'connection')))
      } catch (error) {
        answer = undefined
        message.destroy()
        upstreamRequest.destroy()
        this.answerItself(arrival, res, 502, `the upstream's answer cannot be passed on: ${(error as Error).message}`)
        settle()
        return
      }
      message.on('data', (chunk: Buffer) => tee.add(chunk))
      message.pipe(res)
      message.on('end', () => {
        tee.ended = true
        // It answered before the whole body came: the rest is read and dropped, so the client, done sending, reads the answer.
        if (!arrival.requestTee.ended) {
          req.unpipe(upstreamRequest)
          upstreamRequest.destroy()
          req.resume()
        }
        finish({ status: message.statusCode ?? 0, answeredBy: 'upstream', answer: upstreamAnswer() })
      })
    })
  }

  /** CONNECT asks for a tunnel to anywhere: a 400 on the raw socket, recorded. */
  private refuseTunnel(req: IncomingMessage, socket: Duplex): void {
    socket.on('error', () => undefined)
    const arrival = this.arrive(req)
    const reason = `not forwarded: ${notForwarded('CONNECT', arrival.target) as string}; this proxy sends requests only to ${this.upstream.origin}, by path (/api/v2/...)`
    answerOnSocket(socket, rawAnswer(400, 'Bad Request', reason))
    this.record(arrival, { status: 400, answeredBy: 'proxy', notRelayed: reason, refused: true })
  }

  /** What Node's HTTP parser could not read (or a request that came too slowly): answered as Node would, and recorded. */
  private unreadable(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
    socket.on('error', () => undefined)
    // A connection reset, or closed in the middle of a request, leaves nobody to answer: the request (if it came whole) is recorded where it ended.
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE') {
      socket.destroy()
      return
    }
    const [status, text] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout'] : [400, 'Bad Request']
    const reason = `the request is not one the proxy can read (${error.code ?? error.message})`
    const line = unreadRequestLine(error)
    const arrival: Arrival = {
      req: undefined,
      method: line?.method ?? '-',
      target: line?.target ?? '-',
      at: new Date().toISOString(),
      started: performance.now(),
      requestType: undefined,
      requestTee: new Tee(false),
      recorded: false,
    }
    const answer = () => {
      answerOnSocket(socket, rawAnswer(status, text, reason))
      this.record(arrival, { status, answeredBy: 'proxy', notRelayed: reason, refused: true })
    }
    // Requests read before it (pipelined in the same write) get their answers first, in order, as HTTP/1.1 wants; then the 400 and the close.
    const before = [...(this.answering.get(socket) ?? [])]
    if (before.length === 0) return answer()
    this.track(
      new Promise<void>((resolve) => {
        let left = before.length
        for (const res of before) {
          res.once('close', () => {
            if (--left > 0) return
            answer()
            resolve()
          })
        }
      }),
    )
  }

  /** The exchange with nothing judged: what any exchange reports. */
  private unjudged(arrival: Arrival, outcome: Outcome): ProxiedExchange {
    const queryStart = outcome.refused ? -1 : arrival.target.indexOf('?')
    return {
      method: arrival.method,
      path: queryStart === -1 ? arrival.target : arrival.target.slice(0, queryStart),
      query: queryStart === -1 ? '' : arrival.target.slice(queryStart + 1),
      operationId: null,
      status: outcome.status,
      answeredBy: outcome.answeredBy,
      at: arrival.at,
      durationMs: Math.round((performance.now() - arrival.started) * 1000) / 1000,
      requestViolations: [],
      responseViolations: [],
      verdicts: outcome.notRelayed === undefined ? [] : [{ kind: 'not_relayed', at: null, message: outcome.notRelayed }],
      notes: [],
      recorded: { params: {}, token: undefined, requestBody: undefined, responseBody: undefined, contentType: arrival.requestType },
    }
  }

  private judge(arrival: Arrival, outcome: Outcome): ProxiedExchange {
    const base = this.unjudged(arrival, outcome)
    const { req, method, requestTee } = arrival
    if (outcome.refused || !req) return base
    const { path, query, status, notes, verdicts } = base

    let requestBody: unknown
    let requestNotJson = false
    // The whole body came (or none): a body the upstream answered before it ended is not judged.
    const requestEnded = requestTee.ended || (req.complete && req.readableLength === 0)
    let requestRead = requestTee.size === 0 && requestEnded
    if (!requestEnded) {
      const declared = headerValue(req.headers, 'content-length')
      notes.push(`request body not checked (${arrival.requestType ?? 'no Content-Type'}, not all of it came: ${requestTee.size}${declared === undefined ? '' : ` of ${declared}`} bytes)`)
    } else if (requestTee.size > 0) {
      if (!requestTee.kept) notes.push(`request body not checked (${arrival.requestType ?? 'no Content-Type'}, ${requestTee.size} bytes)`)
      else {
        try {
          ;({ value: requestBody, notJson: requestNotJson } = readBody(bodyText(requestTee.decoded(headerValue(req.headers, 'content-encoding')))))
          requestRead = true
        } catch (error) {
          if (!(error instanceof Undecodable)) throw error
          notes.push(`request body not checked: ${error.message}`)
        }
      }
    }

    let responseBody: unknown
    let responseText: string | undefined
    const answer = outcome.answer
    let responseRead = answer === undefined || (answer.tee.size === 0 && answer.tee.ended)
    if (answer && answer.tee.ended && answer.tee.kept) {
      try {
        responseText = bodyText(answer.tee.decoded(headerValue(answer.headers, 'content-encoding')))
        responseBody = readBody(responseText).value
        responseRead = true
      } catch (error) {
        if (!(error instanceof Undecodable)) throw error
        notes.push(`response body not checked: ${error.message}`)
      }
    } else if (answer && answer.tee.ended && answer.tee.size > 0 && isJson(answer.type)) notes.push(`response body not checked (${answer.tee.size} bytes, over ${MAX_JUDGED_BODY})`)
    if (outcome.notRelayed !== undefined && answer) notes.push(outcome.notRelayed)

    const match = this.conformance.matchFullPath(method, path)
    const token = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req.headers, 'authorization') ?? '')?.[1]
    const recorded: RecordedExchange = { params: match?.params ?? {}, token, requestBody, responseBody, contentType: arrival.requestType }
    // The proxy's own answer is not the service's: only the request is judged.
    const response = answer && { status, headers: answer.headers as Record<string, string | undefined>, body: responseBody, text: responseText, bodyUnread: !responseRead }
    if (!match) {
      verdicts.push({ kind: 'unknown_operation', at: null, message: `no operation has ${method} ${path}` })
      const responseViolations = response && path.startsWith(`${SURFACES.api.base}/`) ? describe(this.conformance.checkUnknownRoute(response)) : []
      for (const message of responseViolations) verdicts.push({ kind: 'response_violation', at: null, message })
      return { ...base, responseViolations, recorded }
    }
    const { op } = match
    const requestViolations = this.conformance.checkRequest(op, {
      query,
      body: requestBody,
      notJson: requestNotJson,
      contentType: arrival.requestType ?? null,
      bodyUnread: !requestRead,
    })
    for (const violation of requestViolations) verdicts.push({ kind: 'request_violation', at: violation.at, message: violation.message })
    const findings = this.audit.audit(op, { query: new URLSearchParams(query), body: requestRead ? requestBody : undefined })
    for (const name of findings.ignoredQuery) verdicts.push({ kind: 'ignored_query_parameter', at: name, message: `${op.id} takes no query parameter ${name}; the service ignores it` })
    for (const at of findings.ignoredBody) verdicts.push({ kind: 'ignored_body_property', at, message: `${op.id} does not read ${at}; the service ignores it` })
    for (const use of findings.deprecated) verdicts.push({ kind: 'deprecated', ...use })
    const responseViolations = response ? this.conformance.checkResponse(op, response) : []
    if (response) {
      const answered = typeof responseBody === 'object' && responseBody !== null ? Object.values(responseBody)[0] : undefined
      const said = typeof answered === 'string' ? `: ${answered}` : ''
      if (status === 401) verdicts.push({ kind: 'unauthenticated', at: null, message: `answered 401${said}` })
      if (status === 403) verdicts.push({ kind: 'forbidden', at: null, message: `answered 403${said}` })
      if (status === 429) verdicts.push({ kind: 'rate_limited', at: null, message: `answered 429${said}` })
    }
    for (const violation of responseViolations) verdicts.push({ kind: 'response_violation', at: violation.at, message: violation.message })
    return { ...base, operationId: op.id, requestViolations: describe(requestViolations), responseViolations: describe(responseViolations), recorded }
  }
}

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/\d\.\d\r?\n/

/** Where the request at `start` of a chunk ends, by its framing (Content-Length or chunked); undefined when the chunk does not hold all of it. */
function messageEnd(text: string, start: number): number | undefined {
  const headEnd = text.indexOf('\r\n\r\n', start)
  if (headEnd === -1) return undefined
  const head = text.slice(start, headEnd)
  let at = headEnd + 4
  if (!/^transfer-encoding:.*chunked/im.test(head)) return at + Number(/^content-length:[ \t]*(\d+)[ \t]*$/im.exec(head)?.[1] ?? 0)
  for (let chunks = 0; chunks < 10_000; chunks++) {
    const lineEnd = text.indexOf('\r\n', at)
    if (lineEnd === -1) return undefined
    const size = Number.parseInt(text.slice(at, lineEnd), 16)
    at = lineEnd + 2
    if (!(size > 0)) return text.startsWith('\r\n', at) ? at + 2 : text.indexOf('\r\n\r\n', at) === -1 ? undefined : text.indexOf('\r\n\r\n', at) + 4
    at += size + 2
  }
  return undefined
}

/**
 * The request line of the request Node could not read. The chunk its parser failed in may hold
 * requests it did read before it (pipelined in the same write): they are walked by their framing to
 * the one the failure lies in. Undefined when that one's request line is what broke, or the chunk
 * starts inside a request.
 */
function unreadRequestLine(error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }): { method: string; target: string } | undefined {
  const packet = error.rawPacket
  if (!packet) return undefined
  const text = packet.subarray(0, 1024 * 1024).toString('latin1')
  const failedAt = error.bytesParsed ?? text.length
  let start = 0
  for (let walked = 0; walked < 1000; walked++) {
    const line = REQUEST_LINE.exec(text.slice(start, start + 8192))
    if (!line) return undefined
    const end = messageEnd(text, start)
    if (end === undefined || end > failedAt) return { method: line[1] as string, target: line[2] as string }
    start = end
  }
  return undefined
}

/**
 * Answers on a socket the HTTP server no longer looks after (a CONNECT's, or one it could not
 * parse), then closes it: left half-open, it would hold the server's close() open.
 */
function answerOnSocket(socket: Duplex, answer: string): void {
  socket.end(answer, () => socket.destroy())
}

/** A whole HTTP/1.1 answer for a raw socket (a refused CONNECT, a request Node could not parse): a one-line JSON message. */
function rawAnswer(status: number, text: string, reason: string): string {
  const body = JSON.stringify({ message: `ivs-mock proxy: ${reason}` })
  return `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
}

const NOTICED = new Set(['ignored_query_parameter', 'ignored_body_property', 'deprecated'])

/** `POST /api/v2/clients -> 201 clients.create ok`, or what is wrong with it. */
export function verdictLine(exchange: ProxiedExchange): string {
  const target = exchange.query === '' ? exchange.path : `${exchange.path}?${exchange.query}`
  const head = `${exchange.method} ${target} -> ${exchange.status} ${exchange.operationId ?? '(no operation)'}`
  const problems = [...exchange.requestViolations.map((v) => `request ${v}`), ...exchange.responseViolations.map((v) => `response ${v}`)]
  const noticed = exchange.verdicts.filter((verdict) => NOTICED.has(verdict.kind)).map((verdict) => `${verdict.kind.replace(/_/g, ' ')} ${verdict.at ?? ''}`.trim())
  const notRelayed = exchange.verdicts.find((verdict) => verdict.kind === 'not_relayed')
  const parts: string[] = []
  if (notRelayed && exchange.answeredBy === 'proxy') parts.push(`✗ answered by the proxy: ${notRelayed.message}`)
  if (exchange.verdicts.some((verdict) => verdict.kind === 'unknown_operation')) parts.push('✗ no operation has this method and path')
  if (problems.length > 0) {
    parts.push(`✗ ${exchange.requestViolations.length} request, ${exchange.responseViolations.length} response violations: ${problems.join('; ')}`)
  }
  if (parts.length === 0) parts.push('ok')
  if (noticed.length > 0) parts.push(`! ${noticed.join('; ')}`)
  if (exchange.notes.length > 0) parts.push(`(${exchange.notes.join('; ')})`)
  return `${head} ${parts.join(' ')}`
}
