// The validating proxy (ivs-mock proxy): sits between a client and a deployment (or the mock),
// passes every request and answer through unchanged and streamed, and judges each exchange against
// contracts/: the request against the operation it reaches (with what the service would ignore and
// what is deprecated), the answer against that operation's documented responses. Bodies are never
// held whole: at most a bounded prefix of each is kept to be judged.
import { createServer, request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { InputAudit } from '../contracts/ignored.ts'
import type { AjvContracts } from '../contracts/ajv.ts'
import { SURFACES } from '../contracts/load.ts'
import { summarise, type Report, type Verdict } from '../contracts/verdicts.ts'
import { Conformance, type Violation } from './conformance.ts'

/** The most of a body kept to be judged; a longer one passes through unjudged (and the verdict says so). */
export const MAX_JUDGED_BODY = 1024 * 1024

/** Headers of one connection, never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** One exchange as the proxy saw it, judged. */
export interface ProxiedExchange {
  method: string
  /** The path as sent, without the query string. */
  path: string
  /** The query string without '?' ('' when none). */
  query: string
  operationId: string | null
  status: number
  /** Wall-clock time of the request's arrival (ISO 8601). */
  at: string
  durationMs: number
  requestViolations: string[]
  responseViolations: string[]
  /** Everything found, in the journal's verdict kinds (response_violation included). */
  verdicts: Verdict[]
  /** What was not judged and why (a body too large or not JSON). */
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

/** A bounded copy of a body as it streams past. */
class Tee {
  private readonly chunks: Buffer[] = []
  size = 0
  overflow = false

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

  bytes(encoding: string | undefined): Buffer {
    const raw = Buffer.concat(this.chunks)
    switch ((encoding ?? '').trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(raw)
      case 'deflate':
        return inflateSync(raw)
      case 'br':
        return brotliDecompressSync(raw)
      default:
        return raw
    }
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

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const describe = (violations: Violation[]) => violations.map((violation) => `${violation.at}: ${violation.message}`)

export class ValidatingProxy {
  readonly exchanges: ProxiedExchange[] = []
  private readonly conformance: Conformance
  private readonly audit: InputAudit
  private readonly upstream: URL
  private readonly agent: HttpAgent
  private server: Server | undefined

  constructor(
    contracts: AjvContracts,
    private readonly options: ProxyOptions,
  ) {
    this.conformance = new Conformance(contracts)
    this.audit = new InputAudit(contracts)
    this.upstream = new URL(options.upstream)
    this.agent = this.upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  }

  /** Listens; resolves with the port it got. */
  async start(): Promise<number> {
    const server = createServer((req, res) => this.forward(req, res))
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.options.port, this.options.host, () => resolve())
    })
    return (server.address() as AddressInfo).port
  }

  /** Stops taking requests and drops the connections kept alive. */
  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
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

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now()
    const at = new Date().toISOString()
    const url = req.url ?? '/'
    const target = new URL(`${this.upstream.pathname.replace(/\/$/, '')}${url}`, this.upstream)
    const requestType = headerValue(req.headers, 'content-type')
    const requestTee = new Tee(!/multipart\//i.test(requestType ?? ''))
    const headers = endToEnd(req.rawHeaders, headerValue(req.headers, 'connection'))
    for (let index = 0; index < headers.length; index += 2) if ((headers[index] as string).toLowerCase() === 'host') headers[index + 1] = target.host
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const upstreamRequest = send(target, { method: req.method, headers, agent: this.agent })
    req.on('data', (chunk: Buffer) => requestTee.add(chunk))
    req.pipe(upstreamRequest)
    req.on('error', () => upstreamRequest.destroy())
    res.on('close', () => {
      if (!res.writableFinished) upstreamRequest.destroy()
    })
    upstreamRequest.on('error', (error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ message: `ivs-mock proxy: the upstream ${this.upstream.origin} did not answer: ${error.message}` }))
        this.options.log(`${req.method ?? 'GET'} ${url} -> 502 upstream error: ${error.message}`)
      } else res.destroy(error)
    })
    upstreamRequest.on('response', (answer) => {
      const responseType = headerValue(answer.headers, 'content-type')
      const responseTee = new Tee(isJson(responseType))
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders, headerValue(answer.headers, 'connection')))
      answer.on('data', (chunk: Buffer) => responseTee.add(chunk))
      answer.pipe(res)
      answer.on('end', () => {
        const exchange = this.judge({ req, url, at, started, requestTee, requestType, answer, responseTee, responseType })
        this.exchanges.push(exchange)
        this.options.log(verdictLine(exchange))
      })
    })
  }

  private judge(seen: {
    req: IncomingMessage
    url: string
    at: string
    started: number
    requestTee: Tee
    requestType: string | undefined
    answer: IncomingMessage
    responseTee: Tee
    responseType: string | undefined
  }): ProxiedExchange {
    const { req, answer, requestTee, responseTee } = seen
    const method = (req.method ?? 'GET').toUpperCase()
    const queryStart = seen.url.indexOf('?')
    const path = queryStart === -1 ? seen.url : seen.url.slice(0, queryStart)
    const query = queryStart === -1 ? '' : seen.url.slice(queryStart + 1)
    const status = answer.statusCode ?? 0
    const notes: string[] = []
    const verdicts: Verdict[] = []

    let requestBody: unknown
    const requestRead = requestTee.size === 0 || requestTee.kept
    if (requestTee.size > 0) {
      if (requestTee.kept) requestBody = parseJson(requestTee.bytes(headerValue(req.headers, 'content-encoding')).toString('utf8'))
      else notes.push(`request body not checked (${seen.requestType ?? 'no Content-Type'}, ${requestTee.size} bytes)`)
    }
    let responseBody: unknown
    let responseText: string | undefined
    const responseRead = responseTee.size === 0 || responseTee.kept
    if (responseTee.kept) {
      try {
        responseText = responseTee.bytes(headerValue(answer.headers, 'content-encoding')).toString('utf8')
        responseBody = parseJson(responseText)
      } catch (error) {
        notes.push(`response body not checked: ${(error as Error).message}`)
      }
    } else if (responseTee.size > 0 && isJson(seen.responseType)) notes.push(`response body not checked (${responseTee.size} bytes, over ${MAX_JUDGED_BODY})`)

    const response = { status, headers: answer.headers as Record<string, string | undefined>, body: responseBody, text: responseText, bodyUnread: !responseRead }
    const match = this.conformance.matchFullPath(method, path)
    const token = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req.headers, 'authorization') ?? '')?.[1]
    const recorded: RecordedExchange = { params: match?.params ?? {}, token, requestBody, responseBody, contentType: seen.requestType }
    const base = {
      method,
      path,
      query,
      status,
      at: seen.at,
      durationMs: Math.round((performance.now() - seen.started) * 1000) / 1000,
      notes,
      recorded,
    }
    if (!match) {
      verdicts.push({ kind: 'unknown_operation', at: null, message: `no operation has ${method} ${path}` })
      const responseViolations = path.startsWith(`${SURFACES.api.base}/`) ? describe(this.conformance.checkUnknownRoute(response)) : []
      for (const message of responseViolations) verdicts.push({ kind: 'response_violation', at: null, message })
      return { ...base, operationId: null, requestViolations: [], responseViolations, verdicts }
    }
    const { op } = match
    const requestViolations = this.conformance.checkRequest(op, {
      query,
      body: requestBody,
      contentType: seen.requestType ?? null,
      bodyUnread: !requestRead,
    })
    for (const violation of requestViolations) verdicts.push({ kind: 'request_violation', at: violation.at, message: violation.message })
    const findings = this.audit.audit(op, { query: new URLSearchParams(query), body: requestRead ? requestBody : undefined })
    for (const name of findings.ignoredQuery) verdicts.push({ kind: 'ignored_query_parameter', at: name, message: `${op.id} takes no query parameter ${name}; the service ignores it` })
    for (const at of findings.ignoredBody) verdicts.push({ kind: 'ignored_body_property', at, message: `${op.id} does not read ${at}; the service ignores it` })
    for (const use of findings.deprecated) verdicts.push({ kind: 'deprecated', ...use })
    const answered = typeof responseBody === 'object' && responseBody !== null ? Object.values(responseBody)[0] : undefined
    const said = typeof answered === 'string' ? `: ${answered}` : ''
    if (status === 401) verdicts.push({ kind: 'unauthenticated', at: null, message: `answered 401${said}` })
    if (status === 403) verdicts.push({ kind: 'forbidden', at: null, message: `answered 403${said}` })
    if (status === 429) verdicts.push({ kind: 'rate_limited', at: null, message: `answered 429${said}` })
    const responseViolations = this.conformance.checkResponse(op, response)
    for (const violation of responseViolations) verdicts.push({ kind: 'response_violation', at: violation.at, message: violation.message })
    return { ...base, operationId: op.id, requestViolations: describe(requestViolations), responseViolations: describe(responseViolations), verdicts }
  }
}

const NOTICED = new Set(['ignored_query_parameter', 'ignored_body_property', 'deprecated'])

/** `POST /api/v2/clients -> 201 clients.create ok`, or what is wrong with it. */
export function verdictLine(exchange: ProxiedExchange): string {
  const target = exchange.query === '' ? exchange.path : `${exchange.path}?${exchange.query}`
  const head = `${exchange.method} ${target} -> ${exchange.status} ${exchange.operationId ?? '(no operation)'}`
  const problems = [...exchange.requestViolations.map((v) => `request ${v}`), ...exchange.responseViolations.map((v) => `response ${v}`)]
  const noticed = exchange.verdicts.filter((verdict) => NOTICED.has(verdict.kind)).map((verdict) => `${verdict.kind.replace(/_/g, ' ')} ${verdict.at ?? ''}`.trim())
  const parts: string[] = []
  if (exchange.operationId === null) parts.push('✗ no operation has this method and path')
  if (problems.length > 0) {
    parts.push(`✗ ${exchange.requestViolations.length} request, ${exchange.responseViolations.length} response violations: ${problems.join('; ')}`)
  }
  if (parts.length === 0) parts.push('ok')
  if (noticed.length > 0) parts.push(`! ${noticed.join('; ')}`)
  if (exchange.notes.length > 0) parts.push(`(${exchange.notes.join('; ')})`)
  return `${head} ${parts.join(' ')}`
}
