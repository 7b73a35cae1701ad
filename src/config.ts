// Typed configuration from flags and environment variables, with defaults and --help.
// Bad input exits with code 2 and a one-line reason (see main.ts).
import { Command, InvalidArgumentError, Option } from 'commander'
import { DEFAULT_JOURNAL_SIZE } from './kernel/journal.ts'
import { DEFAULT_SCAN_DELAY_SECONDS } from './lifecycle/schedule.ts'

export interface ServeConfig {
  port: number
  host: string
  seed: number | undefined
  data: string | undefined
  recordExpiryDays: number
  checkDelay: number
  scanDelay: number
  rateLimit: number
  rateLimitWindow: number
  clock: Date | undefined
  cors: boolean
  journalSize: number
}

export const DEFAULT_PORT = 4010

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const trimmed = value.trim()
    const parsed = Number(trimmed)
    if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`)
    }
    return parsed
  }
}

function timestamp(value: string): Date {
  const parsed = new Date(value)
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) || Number.isNaN(parsed.getTime())) {
    throw new InvalidArgumentError('expected an ISO 8601 date or date-time, e.g. 2026-06-01 or 2026-06-01T09:00:00Z.')
  }
  return parsed
}

function nonEmpty(name: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${name} must not be empty.`)
    return value
  }
}

function booleanWord(value: string): boolean {
  const word = value.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(word)) return true
  if (['0', 'false', 'no', 'off'].includes(word)) return false
  throw new InvalidArgumentError('expected true or false.')
}

export function serveOptions(): Option[] {
  return [
    new Option('-p, --port <number>', 'port to listen on (0 picks a free one)')
      .env('PORT')
      .default(DEFAULT_PORT)
      .argParser(integer('the port', 0, 65_535)),
    new Option('--host <address>', 'address to bind; 0.0.0.0 exposes the mock to your network')
      .env('IVS_HOST')
      .default('127.0.0.1')
      .argParser(nonEmpty('the host')),
    new Option('--seed <number>', "seed of the generated world; default: fixtures/world.json's")
      .env('IVS_SEED')
      .argParser(integer('the seed', 0, 2_147_483_647)),
    new Option('--data <file>', 'keep state in this JSON file across restarts (seeded when missing); default: in memory')
      .env('IVS_DATA')
      .argParser(nonEmpty('the data file')),
    new Option('--record-expiry-days <days>', 'days until a new record expires when its request names no expiry')
      .env('IVS_RECORD_EXPIRY_DAYS')
      .default(30)
      .argParser(integer('the record expiry', 1, 3650)),
    new Option('--check-delay <seconds>', "seconds of the mock's clock between a client submitting a check and its result")
      .env('IVS_CHECK_DELAY')
      .default(60)
      .argParser(integer('the check delay', 0, 31_536_000)),
    new Option('--scan-delay <seconds>', "seconds of the mock's clock an uploaded attachment's virus scan takes (av_status pending until then)")
      .env('IVS_SCAN_DELAY')
      .default(DEFAULT_SCAN_DELAY_SECONDS)
      .argParser(integer('the scan delay', 0, 31_536_000)),
    new Option('--rate-limit <requests>', 'requests allowed per user and team in each window')
      .env('IVS_RATE_LIMIT')
      .default(200)
      .argParser(integer('the rate limit', 1, 1_000_000_000)),
    new Option('--rate-limit-window <seconds>', 'length of the rate-limit window')
      .env('IVS_RATE_LIMIT_WINDOW')
      .default(60)
      .argParser(integer('the rate-limit window', 1, 86_400)),
    new Option('--clock <timestamp>', "start the mock's clock at this UTC time and let it tick; default: now")
      .env('IVS_CLOCK')
      .argParser(timestamp),
    new Option('--cors <boolean>', 'answer cross-origin browser requests from any origin')
      .env('IVS_CORS')
      .default(true)
      .argParser(booleanWord),
    new Option('--journal-size <exchanges>', 'API exchanges the traffic journal keeps per team (GET /_mock/journal); 0 turns it off')
      .env('IVS_JOURNAL_SIZE')
      .default(DEFAULT_JOURNAL_SIZE)
      .argParser(integer('the journal size', 0, 1_000_000)),
  ]
}

export function toServeConfig(options: Record<string, unknown>): ServeConfig {
  return {
    port: options.port as number,
    host: options.host as string,
    seed: options.seed as number | undefined,
    data: options.data as string | undefined,
    recordExpiryDays: options.recordExpiryDays as number,
    checkDelay: options.checkDelay as number,
    scanDelay: options.scanDelay as number,
    rateLimit: options.rateLimit as number,
    rateLimitWindow: options.rateLimitWindow as number,
    clock: options.clock as Date | undefined,
    cors: options.cors as boolean,
    journalSize: options.journalSize as number,
  }
}

export interface ProxyConfig {
  upstream: string
  host: string
  port: number
  json: string | undefined
  junit: string | undefined
  record: string | undefined
  /** Role name -> token, for --record. */
  roleTokens: Record<string, string>
}

export const DEFAULT_PROXY_PORT = 4020

function upstreamUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('expected an http or https URL, e.g. https://sandbox.example.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http or https URL, e.g. https://sandbox.example.')
  return value
}

function roleToken(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const match = /^([a-z-]+)=(\S+)$/.exec(value.trim())
  if (!match) throw new InvalidArgumentError('expected role=token, e.g. owner=ivs_acme_owner.')
  return { ...previous, [match[1] as string]: match[2] as string }
}

export function proxyOptions(): Option[] {
  return [
    new Option('--upstream <url>', 'where requests go: a deployment, any server, or the mock (http or https)').makeOptionMandatory().argParser(upstreamUrl),
    new Option('-p, --port <number>', 'port to listen on (0 picks a free one)').default(DEFAULT_PROXY_PORT).argParser(integer('the port', 0, 65_535)),
    new Option('--host <address>', 'address to bind').default('127.0.0.1').argParser(nonEmpty('the host')),
    new Option('--json <file>', 'on stop, write every exchange and the summary as JSON here').argParser(nonEmpty('the JSON report file')),
    new Option('--junit <file>', 'on stop, write a JUnit XML report here (one test case per exchange)').argParser(nonEmpty('the JUnit report file')),
    new Option('--record <file>', 'on stop, write the session as a scenario for ivs-mock verify (YAML; JSON for a .json file)').argParser(nonEmpty('the scenario file')),
    new Option('--role-token <role=token>', 'with --record: the role a token stands for (repeatable); other tokens take free roles in order, the first owner').argParser(roleToken),
  ]
}

export function toProxyConfig(options: Record<string, unknown>): ProxyConfig {
  return {
    upstream: options.upstream as string,
    host: options.host as string,
    port: options.port as number,
    json: options.json as string | undefined,
    junit: options.junit as string | undefined,
    record: options.record as string | undefined,
    roleTokens: (options.roleToken as Record<string, string> | undefined) ?? {},
  }
}

/** The CLI; actions are attached by main.ts so that this stays free of side effects. */
export function buildCli(version: string): { program: Command; serve: Command; proxy: Command } {
  const program = new Command('ivs-mock')
    .description('Stateful mock of the Identity Verification Service REST API v2.0')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
  const serve = program.command('serve', { isDefault: true }).description('start the mock server').exitOverride()
  for (const option of serveOptions()) serve.addOption(option)
  serve.addHelpText(
    'after',
    `
Every option can also come from the environment variable shown, e.g. PORT=4011.
Examples:
  ivs-mock serve --port 4011
  ivs-mock serve --data ./mock-state.json --clock 2026-06-01T09:00:00Z`,
  )
  const proxy = program.command('proxy').description('validating proxy: forward to --upstream and judge every exchange against the contracts').exitOverride()
  for (const option of proxyOptions()) proxy.addOption(option)
  proxy.addHelpText(
    'after',
    `
Prints one line per exchange; on SIGINT or SIGTERM writes the reports asked for and exits 0.
Example:
  ivs-mock proxy --upstream https://sandbox.example --port 4020 --json proxy.json --junit proxy.xml`,
  )
  return { program, serve, proxy }
}
